# jacobi: 20 sweeps of the 4-point Jacobi stencil over a 2048x2048 f32 grid
# (ping-pong between two fields; the top row is held at 1). Memory-bound:
# scripts/bench also reports it as a share of the measured stream bandwidth
# (bytes_moved: one grid read and one written per sweep), and of the copy of
# the same two grids (stream_kernel grid: bench/stream.cpp).
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 2048
u = ti.field(ti.f32, shape=(N, N))
v = ti.field(ti.f32, shape=(N, N))

@ti.kernel
def init():
    for i, j in u:
        b = 1.0 if i == 0 else 0.0
        u[i, j] = b
        v[i, j] = b

@ti.kernel
def sweep(a: ti.template(), b: ti.template()):
    for i, j in ti.ndrange((1, N - 1), (1, N - 1)):
        b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])

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
