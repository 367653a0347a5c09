# ti.ndarray on the host: shape, dtype, element access, fill, to_numpy / from_numpy
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
x = ti.ndarray(ti.f32, shape=(2, 3))
print(x.shape, x.dtype)
x.fill(1.5)
x[1, 2] = 4.0
print(x[1, 2], x[0, 0])
print(x.to_numpy())
x.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
print(repr(x.to_numpy()))
y = ti.ndarray(dtype=ti.i32, shape=4)
y[3] = 7
print(y.to_numpy(), y.shape)
