# bool arrays pad True to the width of False
import numpy as np

b = np.array([True, False, True])
print(b)
print(repr(b))
print(np.array([[True], [False]]))
print(repr(np.arange(6).reshape(2, 3) > 2))
print(np.array(True), repr(np.array(False)))
