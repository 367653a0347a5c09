# float32 reductions stay float32 (numpy's pairwise summation)
import numpy as np

f = np.arange(1000, dtype=np.float32) * np.float32(0.1)
print(repr(f.sum()), repr(f.mean()), f.sum(), f.max(), f.min())
g = (np.arange(12, dtype=np.float32) / 3).reshape(3, 4)
print(repr(g.sum(axis=0)), repr(g.sum(axis=1)), repr(g.mean(axis=0)))
print(repr(np.array([0.1, 0.2, 0.3]).sum()), np.arange(10.0).mean())
