# boolean masks and integer arrays as indices: copies when read, writes when assigned
import numpy as np
a = np.arange(12).reshape(3, 4)
print(a[a > 5], a[np.array([True, False, True])], a[[2, 0]], a[np.array([-1, 1])])
b = a.copy()
b[b % 2 == 0] = 0
print(b)
b[[0, 2]] = np.array([7, 8, 9, 10])
print(b)
f = np.linspace(0, 1, 5)
f[f > 0.5] = [10, 20]
print(f, f[[]], repr(a[a > 100]))
c = np.arange(5)
c[np.array([True, False, True, False, True])] += 100
print(c)
try:
    a[np.array([True, False])]
except IndexError as e:
    print(e)
try:
    a[[5]]
except IndexError as e:
    print(e)
