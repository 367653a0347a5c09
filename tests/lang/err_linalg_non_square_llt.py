import taichi as ti
ti.init(arch=ti.cpu)
A = ti.linalg.SparseMatrix(n=3, m=2, dtype=ti.f64)
s = ti.linalg.SparseSolver(dtype=ti.f64, solver_type="LLT")
s.analyze_pattern(A)
