# Solve the 2-D Poisson equation -lap(u) = f on the unit square (u = 0 on the
# boundary) with ti.linalg. A kernel adds the 5-point stencil to a sparse
# matrix builder (every cell in parallel, `A[i, j] += v`), build() compresses
# it, and a Cholesky factorization solves it; conjugate gradients solve it
# again as a check, and the exact solution u = sin(pi x) sin(pi y) measures
# the discretization error.
#
#   python3 examples/poisson_sparse.py
import math

import numpy as np
import taichi as ti

ti.init(arch=ti.cpu, default_fp=ti.f64)

N = 64                 # interior cells per side
n = N * N
h = 1.0 / (N + 1)
f = ti.ndarray(ti.f64, n)


@ti.kernel
def assemble(A: ti.types.sparse_matrix_builder(), f: ti.types.ndarray()):
    for a, b in ti.ndrange(N, N):
        r = a * N + b
        A[r, r] += 4.0 / h**2
        if a > 0:
            A[r, r - N] -= 1.0 / h**2
        if a < N - 1:
            A[r, r + N] -= 1.0 / h**2
        if b > 0:
            A[r, r - 1] -= 1.0 / h**2
        if b < N - 1:
            A[r, r + 1] -= 1.0 / h**2
        x, y = (a + 1) * h, (b + 1) * h
        f[r] = 2 * math.pi**2 * ti.sin(math.pi * x) * ti.sin(math.pi * y)


builder = ti.linalg.SparseMatrixBuilder(n, n, max_num_triplets=5 * n, dtype=ti.f64)
assemble(builder, f)
A = builder.build()
print(f"matrix {A.shape[0]}x{A.shape[1]}, {A.num_nonzeros()} nonzeros")

solver = ti.linalg.SparseSolver(dtype=ti.f64, solver_type="LLT")
solver.analyze_pattern(A)
solver.factorize(A)
u = solver.solve(f)                 # a ti.ndarray, like f
print("factorized:", solver.info())

residual = np.linalg.norm(A @ u.to_numpy() - f.to_numpy()) / np.linalg.norm(f.to_numpy())
print(f"LLT relative residual below 1e-12: {residual < 1e-12}")

g = np.arange(1, N + 1) * h
exact = np.outer(np.sin(math.pi * g), np.sin(math.pi * g)).reshape(-1)
print(f"max error against sin(pi x) sin(pi y): {np.abs(u.to_numpy() - exact).max():.3e}")

u_cg, converged = ti.linalg.SparseCG(A, f, max_iter=1000, atol=1e-8).solve()
print(f"conjugate gradients converged: {converged}, agree with LLT: {np.allclose(u_cg.to_numpy(), u.to_numpy(), atol=1e-8)}")
