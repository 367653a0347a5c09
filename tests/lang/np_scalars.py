# numpy scalar types: np.float32(x), np.int32(x) and elements read from arrays
import numpy as np

x = np.float32(0.1)
print(x, repr(x), x * 2, x + np.float32(0.2), type(x).__name__)
y = np.int32(7)
print(y, y + 1, y * np.int32(3), -y, type(y).__name__)
a = np.array([1.5, 2.5], dtype=np.float32)
print(a[0] + a[1], type(a[0] + a[1]).__name__, a[0] * 2.0, float(a[1]))
print(np.float64(2.5), np.uint8(200), np.int8(-128), np.float32(1) / np.float32(3))
print(np.float32, np.int64, np.dtype("float32"), repr(np.dtype(np.int8)), a.dtype == np.float32, a.dtype.name)
