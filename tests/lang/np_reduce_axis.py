# sum / min / max / mean / prod / argmin / argmax, whole-array and per axis
import numpy as np

a = np.array([[3, 1, 4], [1, 5, 9], [2, 6, 5]])
print(a.sum(), a.sum(axis=0), a.sum(axis=1), a.sum(axis=-1), a.sum(0))
print(a.min(), a.max(), a.min(axis=0), a.max(axis=1), np.min(a), np.max(a, axis=0))
print(a.mean(), a.mean(axis=0), np.mean(a, 1), a.prod(), a.prod(axis=1))
print(a.argmin(), a.argmax(), np.argmax(np.array([3, 9, 2])))
b = np.arange(24).reshape(2, 3, 4)
print(b.sum(axis=0))
print(b.sum(axis=1))
print(b.max(axis=2), np.sum(b, 1).shape)
print(repr(np.array([1, 2], dtype=np.int8).sum()), repr(np.array([1, 2], dtype=np.uint8).sum(axis=0)))
print(repr(np.array([[True, False], [True, True]]).sum(axis=0)), np.array([[True, False]]).sum())
