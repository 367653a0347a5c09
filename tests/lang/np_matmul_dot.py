# @, np.dot and np.matmul on 1-D and 2-D arrays
import numpy as np

m = np.array([[1.0, 2.0], [3.0, 4.0]])
v = np.array([1.0, -1.0])
print(m @ m)
print(m @ v, v @ m, v @ v, np.dot(m, v), m.dot(m))
print(np.matmul(np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2)))
print(repr(np.array([[1, 2]], dtype=np.float32) @ np.array([[3], [4]], dtype=np.float32)))
