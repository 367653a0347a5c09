# i32 sums carried by the JIT's vector loop: eight partial sums in one ymm
# register, added up when the loop leaves. Values differ per element, so a
# lost lane shows (the first sum sat in ymm0 and its low half was lost).
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=1)
n = 1003
a = ti.field(ti.i32, shape=n)
b = ti.field(ti.i32, shape=n)

@ti.kernel
def fill():
    for i in a:
        a[i] = i % 13 - 6
        b[i] = i * 7 % 11

@ti.kernel
def one_sum(m: ti.i32) -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(m):
        s += a[i]
    return s

@ti.kernel
def two_sums(m: ti.i32) -> ti.types.vector(2, ti.i32):
    s = 0
    t = 100
    ti.loop_config(serialize=True)
    for i in range(m):
        s += a[i]
        t += b[i] * 3
    return ti.Vector([s, t])

@ti.kernel
def parallel_sum() -> ti.i32:
    s = 0
    for i in a:
        s += a[i] + b[i]
    return s

fill()
for m in [5, 17, 100, 1000, 1003]:
    v = two_sums(m)
    print(m, one_sum(m), one_sum(m), v[0], v[1])
print(parallel_sum(), parallel_sum())

# A sum beside a store of i % M, which the vector loop takes for an ndrange
# row split, from a negative start: the rows' setup skips the vector loop,
# and the sum's lanes must still start at zero (kiln-fuzz seed 20533: a
# garbage sum once the trace ran a second time).
xi = ti.field(ti.i32, shape=40)

@ti.kernel
def sum_beside_mod(lo: ti.i32, hi: ti.i32) -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(lo, hi):
        s += 7
        xi[i + 3] = i % 1000
    return s

print([sum_beside_mod(lo, hi) for lo, hi in [(-3, 7), (-3, 34), (0, 34), (-3, 7)]], xi[0], xi[36])
