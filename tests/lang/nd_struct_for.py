# struct-for over an ndarray argument visits its whole (launch-time) shape
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def fill(a: ti.types.ndarray()):
    for i, j in a:
        a[i, j] = i * 10 + j


@ti.kernel
def total(a: ti.types.ndarray()) -> ti.i32:
    s = 0
    for I in ti.grouped(a):
        s += a[I]
    return s


x = ti.ndarray(ti.i32, shape=(3, 4))
fill(x)
print(x.to_numpy())
print(total(x))
y = np.zeros((2, 5), dtype=np.int32)
fill(y)
print(y, total(y))
