# assigning a sequence of the wrong length into a slice
import numpy as np

a = np.zeros((2, 3))
a[0] = [1, 2, 3]
print(a)
a[1] = [1, 2]
