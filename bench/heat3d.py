# heat3d: 20 explicit steps of the 3-D heat equation, the 7-point stencil as
# users write it: three indices over the interior of a 160^3 f32 grid,
# `for i, j, k in ti.ndrange((1, N - 1), (1, N - 1), (1, N - 1))`, ping-pong
# between two fields, the i = 0 face held at 1. Memory-bound (bytes_moved: one
# grid read and one written a step, the planes i - 1, i, i + 1 staying in the
# cache; its roof: the copy of the same two grids, stream_kernel grid3 in
# bench/stream.cpp).
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 160
c = 0.1  # (diffusivity * dt / dx^2: stable below 1/6)
u = ti.field(ti.f32, shape=(N, N, N))
v = ti.field(ti.f32, shape=(N, N, N))

@ti.kernel
def init():
    for i, j, k in u:
        t = 1.0 if i == 0 else 0.0
        u[i, j, k] = t
        v[i, j, k] = t

@ti.kernel
def step(a: ti.template(), b: ti.template()):
    for i, j, k in ti.ndrange((1, N - 1), (1, N - 1), (1, N - 1)):
        b[i, j, k] = a[i, j, k] + c * (a[i - 1, j, k] + a[i + 1, j, k] + a[i, j - 1, k] + a[i, j + 1, k] +
                                       a[i, j, k - 1] + a[i, j, k + 1] - 6.0 * a[i, j, k])

@ti.kernel
def check() -> ti.f64:  # (weighted along k: a grid shifted by a cell sums otherwise)
    s = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(N):
        for j in range(N):
            for k in range(N):
                s += ti.f64(u[i, j, k]) * (1 + k % 7)
    return s

init()
step(u, v)
step(v, u)
init()
t = time.perf_counter()
for n in range(10):
    step(u, v)
    step(v, u)
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", check())
print("time_ms", dt * 1000)
print("bytes_moved", 20 * 2 * N * N * N * 4)
print("stream_kernel", "grid3")
