# jacobi_grouped: the 2-D Jacobi stencil of jacobi.py written dimension-generic,
# as users write it: `ti.grouped` over the interior and a `ti.static` loop over
# the axes adding the neighbours I + e and I - e (e = ti.Vector.unit(2, k)).
# 20 sweeps over a 2048x2048 f32 grid, ping-pong between two fields, the top
# row held at 1. Memory-bound (bytes_moved: one grid read and one written a sweep;
# its roof: the copy of the same two grids, stream_kernel grid in bench/stream.cpp).
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 2048
u = ti.field(ti.f32, shape=(N, N))
v = ti.field(ti.f32, shape=(N, N))

@ti.kernel
def init():
    for I in ti.grouped(u):
        b = 1.0 if I[0] == 0 else 0.0
        u[I] = b
        v[I] = b

@ti.kernel
def sweep(a: ti.template(), b: ti.template()):
    for I in ti.grouped(ti.ndrange((1, N - 1), (1, N - 1))):
        s = 0.0
        for k in ti.static(range(2)):
            e = ti.Vector.unit(2, k, ti.i32)
            s += a[I + e] + a[I - e]
        b[I] = 0.25 * s

@ti.kernel
def check() -> ti.f64:
    s = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(N):
        for j in range(N):
            s += ti.f64(u[i, j])
    return s

init()
sweep(u, v)
sweep(v, u)
init()
t = time.perf_counter()
for k in range(10):
    sweep(u, v)
    sweep(v, u)
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", check())
print("time_ms", dt * 1000)
print("bytes_moved", 20 * 2 * N * N * 4)
print("stream_kernel", "grid")
