# On one thread a parallel loop is one chunk, whose thread-local accumulator
# sums all of its terms before one add into the global (as Taichi's
# thread-local reductions do): 1e8 + (0.1 + 0.1 + ... ) in f32, not
# (((1e8 + 0.1) + 0.1) + ...), where every 0.1 would be lost to rounding.
# Under fast_math (the default) the chunk's own sum is split into 16 partials
# (docs/fast_math.md), hence local_sum's last digits.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=1)
n = 1000
total = ti.field(ti.f32, shape=())
x = ti.field(ti.f32, shape=n)

@ti.kernel
def fill():
    for i in x:
        x[i] = 0.1 + i * 1e-3

@ti.kernel
def accumulate():
    for i in x:
        total[None] += x[i]

@ti.kernel
def local_sum() -> ti.f32:
    s = 0.0
    for i in x:
        s += x[i]
    return s

fill()
total[None] = 1e8
accumulate()
print(total[None])
print(local_sum())
