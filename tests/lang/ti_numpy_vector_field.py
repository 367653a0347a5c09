# vector fields: shape + (n,), keep_dims=True gives shape + (n, 1)
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
v = ti.Vector.field(3, ti.i32, shape=(2, 2))


@ti.kernel
def init():
    for i, j in v:
        v[i, j] = ti.Vector([i, j, i * j + 1])


init()
a = v.to_numpy()
print(a.shape, a.dtype)
print(a)
print(v.to_numpy(keep_dims=True).shape)
a[:, :, 2] = 7
v.from_numpy(a)
print(v[1, 1])
p = ti.Vector.field(2, ti.f32, shape=3)
p.from_numpy(np.array([[0.5, 1.0], [1.5, 2.0], [2.5, 3.0]]))
print(p.to_numpy(), p.to_numpy().dtype)
