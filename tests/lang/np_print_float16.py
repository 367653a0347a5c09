# float16 arrays: shortest half-precision digits, exact integer digits, and
# scientific mantissas padded with the value's own digits
import numpy as np

a = np.array([0.1, 0.2, 1.5, 1000.3], dtype=np.float16)
print(a)
print(repr(a), a[0], np.float16(0.1))
print(repr(np.arange(5, dtype=np.float16) / 3))
print(np.array([61344.0, 2.5], dtype=np.float16), np.array([0.1, 0.25], dtype=np.float16))
