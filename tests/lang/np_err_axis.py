# reducing over an axis the array does not have
import numpy as np

a = np.ones((2, 3))
print(a.sum(axis=1))
print(a.sum(axis=2))
