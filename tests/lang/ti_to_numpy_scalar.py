# scalar fields to numpy: the field's shape and dtype, values as the kernel wrote them
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=4)
g = ti.field(ti.i32, shape=(3, 5))
b = ti.field(ti.u8, shape=(2, 2, 2))


@ti.kernel
def fill():
    for i in x:
        x[i] = i * 0.5
    for i, j in g:
        g[i, j] = i * 10 + j
    for i, j, k in b:
        b[i, j, k] = ti.u8(i * 4 + j * 2 + k)


fill()
a = x.to_numpy()
print(a, repr(a), a.dtype, a.shape)
h = g.to_numpy()
print(h)
print(h.dtype, h.shape, h.sum(axis=0))
print(repr(b.to_numpy()))
print(repr(g.to_numpy(dtype=np.float64)[2]))
a[0] = 100  # a copy: the field keeps its value
print(x[0])
