# numpy_copy: a 4096x4096 f32 field to numpy and back (to_numpy + from_numpy),
# 10 round trips. The baseline (numpy_copy.cpp) is two plain memcpys of the
# same 64 MiB into a fresh buffer and back. Prints a checksum and the time.
import taichi as ti
import numpy as np
import time

ti.init(arch=ti.cpu)
N = 4096
x = ti.field(ti.f32, shape=(N, N))


@ti.kernel
def init():
    for i, j in x:
        x[i, j] = (i * 7 + j) % 100 * 0.01


init()
a = x.to_numpy()
x.from_numpy(a)
t = time.perf_counter()
for k in range(10):
    a = x.to_numpy()
    x.from_numpy(a)
dt = time.perf_counter() - t
print("checksum", float(a[::512, ::512].sum()) + x[N - 1, N - 1])
print("time_ms", dt * 1000)
print("bytes_moved", 10 * 2 * 2 * N * N * 4)  # each round trip: two copies, each reading and writing 64 MiB
print("stream_kernel", "copy")
