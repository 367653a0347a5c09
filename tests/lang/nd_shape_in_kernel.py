# arr.shape[k] inside a kernel is the shape of the array passed at this call
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def dims(a: ti.types.ndarray()) -> ti.i32:
    return a.shape[0] * 100 + a.shape[1]


@ti.kernel
def prefix_sum(a: ti.types.ndarray(dtype=ti.f64, ndim=1)):
    for _ in range(1):
        for i in range(1, a.shape[0]):
            a[i] += a[i - 1]


print(dims(np.zeros((3, 9), dtype=np.float32)), dims(np.zeros((12, 2), dtype=np.float32)))
v = np.arange(1.0, 7.0)
prefix_sum(v)
print(v)
w = np.ones(3)
prefix_sum(w)
print(w)
