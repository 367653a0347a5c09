# saxpy: y = a*x + y over 2^24 f32, 10 times. Prints a checksum and the time.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 1 << 24
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f32, shape=N)

@ti.kernel
def init():
    for i in x:
        x[i] = (i % 100) * 0.01
        y[i] = 1.0

@ti.kernel
def saxpy(a: ti.f32):
    for i in x:
        y[i] = a * x[i] + y[i]

@ti.kernel
def check() -> ti.f64:
    s = ti.f64(0.0)  # summed serially in f64, as the baseline sums
    ti.loop_config(serialize=True)
    for k in range(N // 4096):
        s += y[k * 4096]
    return s

init()
saxpy(0.5)
t = time.perf_counter()
for k in range(10):
    saxpy(0.5)
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", check())
print("time_ms", dt * 1000)
print("bytes_moved", 10 * 3 * 4 * N)  # x read, y read and written, 10 times
print("stream_kernel", "update")
