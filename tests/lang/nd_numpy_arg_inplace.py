# seed 003: a numpy array passed as ti.types.ndarray() is modified in place
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
n, m = 4, 7


@ti.kernel
def test_numpy(arr: ti.types.ndarray()):
    for i in range(n):
        for j in range(m):
            arr[i, j] += i + j


a = np.empty(shape=(n, m), dtype=np.int32)
for i in range(n):
    for j in range(m):
        a[i, j] = i * j
test_numpy(a)
for i in range(n):
    for j in range(m):
        assert a[i, j] == i * j + i + j
print(a)
