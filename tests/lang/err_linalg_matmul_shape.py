import numpy as np
import taichi as ti
ti.init(arch=ti.cpu)
A = ti.linalg.SparseMatrix(n=4, m=4, dtype=ti.f64)
print(A @ np.ones(3))
