# empty and 0-d arrays
import numpy as np

print(np.zeros(0), repr(np.zeros(0)))
print(repr(np.array([], dtype=np.float32)), repr(np.zeros((2, 0))), repr(np.zeros((0, 3), dtype=np.int32)))
print(np.array(3.5), repr(np.array(3.5)), repr(np.array(2, dtype=np.int32)), repr(np.array(7)))
print(np.array(3.5).shape, np.array(3.5).ndim, np.zeros((2, 0)).size)
