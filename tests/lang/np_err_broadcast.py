# shapes that do not broadcast: numpy's ValueError, with the line of the operation
import numpy as np

a = np.zeros((2, 3))
b = np.ones(4)
print(a.shape, b.shape)
c = a + b
