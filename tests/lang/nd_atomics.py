# += and ti.atomic_* on ndarray elements from a parallel loop
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def histogram(data: ti.types.ndarray(), bins: ti.types.ndarray()):
    for i in data:
        bins[data[i] % 4] += 1
        ti.atomic_max(bins[4], data[i])


data = np.arange(103, dtype=np.int32) * 7 % 23
bins = np.zeros(5, dtype=np.int32)
histogram(data, bins)
print(bins, bins[:4].sum())
ref = np.zeros(4, dtype=np.int32)
for d in data:
    ref[d % 4] += 1
print(ref, data.max())
