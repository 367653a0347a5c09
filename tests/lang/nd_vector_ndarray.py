# ti.Vector.ndarray: elements are vectors in kernels and on the host
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
v = ti.Vector.ndarray(3, ti.f32, shape=4)


@ti.kernel
def init(x: ti.types.ndarray()):
    for i in x:
        x[i] = ti.Vector([i, i * 2, i * 3])
        x[i][1] += 0.5


@ti.kernel
def norms(x: ti.types.ndarray(), out: ti.types.ndarray()):
    for i in x:
        out[i] = x[i].norm()


init(v)
print(v.to_numpy())
print(v[2], v.shape, v.n)
out = np.zeros(4, dtype=np.float32)
norms(v, out)
print(out)
v[0] = [1, 2, 2]
norms(v, out)
print(out[0])
