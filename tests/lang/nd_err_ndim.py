# the annotation's ndim must match the array's
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def scale(x: ti.types.ndarray(ndim=1)):
    for i in x:
        x[i] *= 2


scale(np.ones((2, 2), dtype=np.float32))
