# float32 arrays print their own shortest digits (0.1, not 0.10000000149)
import numpy as np

a = np.array([0.1, 0.2, 0.3], dtype=np.float32)
print(a)
print(repr(a))
print(repr(np.arange(7, dtype=np.float32) / 7))
print(np.array([[1.0, 2.5], [1e-3, 4.0]], dtype=np.float32))
print(repr(np.float32(0.1)), np.float32(0.1) * 2, type(a[0]).__name__, a[0])
print(repr(np.array([1.5, 2.5], dtype=np.float16)))
