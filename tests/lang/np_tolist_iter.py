# tolist(), item(), len(), iteration, conversions to Python numbers
import numpy as np

m = np.array([[1, 2], [3, 4]])
print(m.tolist(), np.array([1.5, 2.5], dtype=np.float32).tolist(), np.array([True]).tolist())
print(len(m), m[0].tolist(), np.array([7]).item(), m.item(3), float(np.array([2.5])), int(np.array([3])))
for row in m:
    print(row, row.sum())
total = 0
for x in np.arange(5):
    total += x
print(total, sum(np.arange(4)), list(np.arange(3)), max(np.array([3, 8, 1])))
f = np.array([1.25], dtype=np.float32)
print(f"{f[0]:.3f}", f"{m[1, 1]:4d}|", "%d" % m[0, 1], float(f[0]), int(f[0] * 4))
