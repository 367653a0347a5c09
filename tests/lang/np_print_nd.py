# 2-D and 3-D arrays: blank lines between blocks, nested brackets
import numpy as np

print(np.arange(24).reshape(2, 3, 4))
print(repr(np.arange(24).reshape(2, 3, 4) * 1.5))
print(np.zeros((2, 2, 2, 2), dtype=np.int32))
print(repr(np.ones((3, 1))))
print(np.arange(6).reshape(1, 6))
