# broadcasting: scalars, rows, columns, size-1 axes
import numpy as np

a = np.arange(6).reshape(2, 3)
print(a + np.array([10, 20, 30]))
print(a * np.array([[1], [-1]]))
print(a - 1, 2 - a, a * 2.5)
print(np.arange(3).reshape(3, 1) + np.arange(4))
print(np.ones((2, 1, 3)) * np.arange(4).reshape(4, 1))
x = np.zeros((2, 3))
x[:] = [1, 2, 3]
x[1] = 7
print(x)
