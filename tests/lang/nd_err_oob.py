# an out-of-range ndarray index in a kernel is an IndexError with the array's shape
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def shift(a: ti.types.ndarray()):
    for i in range(a.shape[0]):
        a[i + 1] = a[i]


shift(np.zeros(4, dtype=np.float32))
