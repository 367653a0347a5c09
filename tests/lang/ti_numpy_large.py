# to_numpy / from_numpy of fields over the last-level cache's size: the copy
# streams (vm/support/stream_copy.h) and the arrays' memory is recycled
# (python/core/np_large.cpp, vm/runtime/large_buffers.h). Every element
# arrives, an array made again over a released one holds the new values, and
# numpy resizes such an array keeping its data.
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
N, M = 4097, 2301  # 37.7 MB of f32, not a whole number of 128-byte steps
x = ti.field(ti.f32, shape=(N, M))
src = (np.arange(N * M, dtype=np.int64) % 9973).astype(np.float32).reshape(N, M)
x.from_numpy(src)
print(x[0, 1], x[N - 1, M - 1], x[1234, 567])
for k in range(4):
    a = x.to_numpy()
    print(k, a.dtype, a.shape, bool((a == src + k).all()))
    x.from_numpy(a + 1)
a = x.to_numpy()
a.resize((N * M + 5,), refcheck=False)
print(a[:3], a[N * M - 1], a[N * M:])
a.resize((1000,), refcheck=False)
print(a[-3:])
y = ti.field(ti.f64, shape=5000003)
y.from_numpy(np.arange(5000003, dtype=np.float64) * 0.5)
b = y.to_numpy()
print(b.dtype, b[0], b[2500001], b[-1], float(b.sum()))
