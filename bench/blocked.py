# blocked: y = a*x + y over a 4096x4096 grid stored in 8x8 blocks
# (ti.root.dense(ti.ij, 512).dense(ti.ij, 8), one such tree a field), by a
# struct-for, 10 times: the loop visits the cells in the layout's order, and
# each access is base + L * 4. Prints a checksum and the time.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 4096
B = 8
x = ti.field(ti.f32)
y = ti.field(ti.f32)
for f in (x, y):
    ti.root.dense(ti.ij, N // B).dense(ti.ij, B).place(f)

@ti.kernel
def init():
    for i, j in x:
        x[i, j] = ((i + j) % 100) * 0.01
        y[i, j] = 1.0

@ti.kernel
def update(a: ti.f32):
    for i, j in x:
        y[i, j] = a * x[i, j] + y[i, j]

@ti.kernel
def check() -> ti.f64:
    s = ti.f64(0.0)  # summed serially in f64, as the baseline sums
    ti.loop_config(serialize=True)
    for k in range(N * N // 4093):
        c = k * 4093
        s += y[c // N, c % N]
    return s

init()
update(0.5)
t = time.perf_counter()
for k in range(10):
    update(0.5)
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", check())
print("time_ms", dt * 1000)
print("bytes_moved", 10 * 3 * 4 * N * N)  # x read, y read and written, 10 times
print("stream_kernel", "update")
