# sparse_particles: particles in bitmasked slots (2^21 slots in blocks of
# 1024, about half of them live), ten steps of a falling-and-bouncing update
# over the live slots (a struct-for: list generation, then the step). Prints
# a checksum and the time; takes the thread count as its first argument.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 1 << 21
B = 1024
px = ti.field(ti.f32)
vx = ti.field(ti.f32)
ti.root.dense(ti.i, N // B).bitmasked(ti.i, B).place(px, vx)

@ti.kernel
def spawn():
    for k in range(N):
        if (k * 13 + k // B) % 10 < 5:
            px[k] = (k % 1000) * 0.001
            vx[k] = ((k % 37) - 18) * 0.01

@ti.kernel
def step():
    for i in px:
        v = vx[i] - 0.098
        p = px[i] + v * 0.01
        if p < 0:
            p = -p
            v = -v
        px[i] = p
        vx[i] = v

@ti.kernel
def total() -> ti.f64:
    s = ti.cast(0, ti.f64)
    for i in px:
        s += ti.cast(px[i], ti.f64) + ti.cast(vx[i], ti.f64)
    return s

spawn()
step()  # warm-up (compiles the kernel)
lg0 = ti.statistics()["listgen_time_ms"]
t = time.perf_counter()
for _ in range(10):
    step()
ti.sync()  # on a GPU, launches may still run
dt_ms = (time.perf_counter() - t) * 1000
lg = ti.statistics()["listgen_time_ms"] - lg0
print("checksum", total())
print("time_ms", dt_ms)
print("listgen_ms", lg)
print("sweep_ms", dt_ms - lg)
