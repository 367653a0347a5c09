# an index past the end of an axis is an IndexError naming the axis and its size
import numpy as np

a = np.arange(6).reshape(2, 3)
print(a[1, 2])
print(a[0, 3])
