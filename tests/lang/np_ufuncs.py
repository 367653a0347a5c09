# elementwise math: np.sqrt, np.abs and friends keep numpy's dtypes
import numpy as np

a = np.array([1, 4, 9, 16])
f = np.array([0.25, 2.0, 6.25], dtype=np.float32)
print(np.sqrt(a), repr(np.sqrt(f)), np.sqrt(2.0), np.sqrt(4))
print(np.abs(np.array([-1, 2, -3])), repr(np.abs(np.array([-1.5, 2.0], dtype=np.float32))), abs(np.array([-2, 3])))
print(np.exp(np.array([0.0, 1.0])), np.log(np.array([1.0, np.e])), np.sin(np.array([0.0])), np.cos(np.array([0.0])))
print(np.floor(np.array([1.5, -1.5])), np.ceil(np.array([1.5, -1.5])), np.square(np.array([3, -4])))
print(np.maximum(a, 5), np.minimum(np.array([1.5, 9.0]), 2.0), np.where(a > 5, a, 0))
print(np.add(a, 1), np.subtract(a, 1), np.multiply(a, 2), np.divide(a, 4))
