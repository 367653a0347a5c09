# a transposed (non-contiguous) numpy view cannot be passed as an ndarray
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def copy(y: ti.types.ndarray()):
    for i, j in y:
        y[i, j] += 1


a = np.zeros((3, 4), dtype=np.int32)
copy(a.copy())
copy(np.ascontiguousarray(a.T))
copy(a.T)
