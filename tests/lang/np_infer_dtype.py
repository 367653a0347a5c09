# np.array infers dtypes as numpy does: bool < int64 < float64
import numpy as np

for v in [[1, 2, 3], [1.0, 2], [True, False], [True, 2], [[1, 2], [3.5, 4]], 5, 2.5, [], [[1], [2]]]:
    a = np.array(v)
    print(a.dtype, a.shape, repr(a))
print(repr(np.array([1, 2], dtype=np.float32)), repr(np.array([1.7, -2.7], dtype=np.int32)), repr(np.array([0, 3], dtype=bool)))
print(repr(np.array((1, 2, 3))), repr(np.array([np.float32(1.5), np.float32(2)])), repr(np.array([np.int32(1), 2])))
print(np.array(np.arange(3)) is not None, repr(np.asarray([1, 2])))
