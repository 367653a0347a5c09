# writes through views reach the base array; copies are independent
import numpy as np

a = np.zeros((3, 4), dtype=np.int32)
row = a[1]
row[2] = 5
col = a[:, 0]
col[:] = 7
a[2, 1:3] = [8, 9]
a[0] = 1
print(a)
b = a.copy()
b[0, 0] = 100
print(a[0, 0], b[0, 0])
t = a.T
t[3, 2] = -1
print(a)
r = a.reshape(12)
r[0] = 42
print(a[0, 0])
v = np.arange(6)
v[1:] = v[:-1]
print(v)
f = np.ones(4)
f[::2] = 2.5
print(f)
g = np.zeros(3, dtype=np.int32)
g[1:].fill(4)
print(g)
