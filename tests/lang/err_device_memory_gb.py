# ti.init(device_memory_GB=...) is the budget of a tree's device pools
# (docs/cuda_sparse.md): a positive number of GiB, checked at ti.init.
import taichi as ti

ti.init(device_memory_GB=0.5)
print("half a GiB accepted")
ti.init(device_memory_GB=0)
