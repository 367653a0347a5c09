# ndarray arguments of every dtype: read, compute in the element type, write back
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def twice_plus_one(a: ti.types.ndarray()):
    for i in a:
        a[i] = a[i] * 2 + 1


for dt in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
           np.float16, np.float32, np.float64]:
    a = np.array([0, 1, 2, 100], dtype=dt)
    twice_plus_one(a)
    print(repr(a))
