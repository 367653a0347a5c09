# seed 003: a field copied into an external array, indexed with one bracket
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
n, m = 2, 3
x = ti.Vector.field(3, ti.i32, shape=(n, m))


@ti.kernel
def init():
    for i, j in x:
        x[i, j] = ti.Vector([i, j, i + j])


@ti.kernel
def copy_vector(x: ti.template(), y: ti.types.ndarray()):
    for i, j in ti.ndrange(n, m):
        for k in ti.static(range(3)):
            y[i, j, k] = x[i, j][k]


init()
y = np.zeros((n, m, 3), dtype=np.int32)
copy_vector(x, y)
print(y)
print(np.array_equal(y, x.to_numpy()))
