# ti.Matrix.ndarray: matrix elements, matmul in the kernel
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
m = ti.Matrix.ndarray(2, 2, ti.f64, shape=3)
m.from_numpy(np.arange(12.0).reshape(3, 2, 2))


@ti.kernel
def square(a: ti.types.ndarray()):
    for i in a:
        a[i] = a[i] @ a[i]


square(m)
print(m.to_numpy())
print(m[1], m.n, m.m)
