# ti.types.ndarray(dtype=..., ndim=...) and vector-typed annotations over numpy arrays
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def axpy(a: ti.f32, x: ti.types.ndarray(dtype=ti.f32, ndim=1), y: ti.types.ndarray(dtype=ti.f32, ndim=1)):
    for i in x:
        y[i] = a * x[i] + y[i]


@ti.kernel
def lengths(p: ti.types.ndarray(dtype=ti.math.vec2, ndim=1), out: ti.types.ndarray(dtype=ti.f32, ndim=1)):
    for i in p:
        out[i] = p[i].norm()


x = np.arange(4, dtype=np.float32)
y = np.ones(4, dtype=np.float32)
axpy(2.0, x, y)
print(y)
pts = np.array([[3.0, 4.0], [6.0, 8.0], [0.0, 1.5]], dtype=np.float32)
out = np.zeros(3, dtype=np.float32)
lengths(pts, out)
print(out)
