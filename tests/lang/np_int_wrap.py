# integer arithmetic wraps at the element width; float16 results round to half precision
import numpy as np
print(np.array([100, -100], dtype=np.int8) + np.array([100, -100], dtype=np.int8))
print(np.array([1, 2], dtype=np.uint8) - np.array([2, 1], dtype=np.uint8))
print(np.array([60000], dtype=np.uint16) * 2, np.array([2**31 - 1], dtype=np.int32) + 1)
print(np.array([0.1, 1e4], dtype=np.float16) * 3, np.array([1, 2], dtype=np.int16) / np.array([3, 4], dtype=np.int16))
print(np.arange(6).reshape(2, 3)[:, ::-1] * np.array([[1], [10]]), np.arange(3, dtype=np.uint64) * 2)
print(np.array([1.5], dtype=np.float32) - np.array([2**40]), np.array([7], dtype=np.uint32) - 8)
