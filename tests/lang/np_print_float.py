# float64 printing: precision 8, trailing zeros trimmed, columns aligned
import numpy as np

print(np.array([1.0, 2.0, 3.0]))
print(np.array([0.1, 0.25, 1.0 / 3.0]))
print(repr(np.array([-1.5, 2.75, 100.125])))
print(np.array([[1.5, -2.25], [3.0, 4.125]]))
print(np.array([123456.789, 0.001]))
print(np.array([1e10, 1.0]))
print(np.array([1e-5, 1.0]))
print(repr(np.array([1e-20, 5e20])))
print(np.array([2.0 / 3.0]))
print(np.array([0.0, -0.0, 1.0]))
