# a 2-D ndarray indexed with one index is a compile error at that line
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def first_row(a: ti.types.ndarray()) -> ti.f32:
    return a[0]


print(first_row(np.ones((2, 2), dtype=np.float32)))
