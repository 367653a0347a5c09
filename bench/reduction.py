# reduction: sum of 2^24 f32 and of 2^24 i32. Prints checksums and the time.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 1 << 24
xf = ti.field(ti.f32, shape=N)
xi = ti.field(ti.i32, shape=N)

@ti.kernel
def init():
    for i in xf:
        xf[i] = (i % 7) * 0.5
        xi[i] = i % 13

@ti.kernel
def sum_f() -> ti.f32:
    s = 0.0
    for i in xf:
        s += xf[i]
    return s

@ti.kernel
def sum_i() -> ti.i32:
    s = 0
    for i in xi:
        s += xi[i]
    return s

init()
sum_f()  # the warm-up: both kernels compile before the timed region
sum_i()
t = time.perf_counter()
a = sum_f()
b = sum_i()
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", b)
print("time_ms", dt * 1000)
print("bytes_moved", 2 * 4 * N)  # each array read once
print("stream_kernel", "read")
