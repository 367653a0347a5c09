import numpy as np
import taichi as ti
ti.init(arch=ti.cpu)
A = ti.linalg.SparseMatrix(n=3, m=3, dtype=ti.f64)
A[0, 0] = 1.0
s = ti.linalg.SparseSolver(dtype=ti.f64)
s.analyze_pattern(A)
print(s.solve(np.ones(3)))
