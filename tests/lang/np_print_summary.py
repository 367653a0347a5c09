# arrays over 1000 elements print their first and last 3 items per axis
import numpy as np

print(np.arange(2000))
print(repr(np.arange(1001)))
print(np.arange(2000).reshape(40, 50))
print(repr(np.arange(3000.0).reshape(30, 100)))
print(np.zeros((20, 20, 5), dtype=np.float32))
