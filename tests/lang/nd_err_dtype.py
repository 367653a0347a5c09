# the annotation's dtype must match the array's
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def scale(x: ti.types.ndarray(dtype=ti.f32, ndim=1)):
    for i in x:
        x[i] *= 2


scale(np.ones(3, dtype=np.float32))
scale(np.ones(3))
