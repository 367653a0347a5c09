# reshape to a different number of elements
import numpy as np

a = np.arange(6)
print(a.reshape(2, 3).shape)
b = a.reshape(4, 2)
