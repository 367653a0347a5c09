# ti.linalg: a builder filled by a parallel kernel (+= and -=, duplicates sum),
# SparseMatrix arithmetic and products, the direct solvers and SparseCG.
# Runs under `kiln run` and python3 (tests/python/run_same.sh) with one output.
import numpy as np
import taichi as ti

ti.init(arch=ti.cpu)
n = 5
builder = ti.linalg.SparseMatrixBuilder(n, n, max_num_triplets=4 * n, dtype=ti.f64)


@ti.kernel
def fill(A: ti.types.sparse_matrix_builder()):
    for i in range(n):
        A[i, i] += 1.5
        A[i, i] += 1.5
        if i > 0:
            A[i, i - 1] -= 1.0
        if i < n - 1:
            A[i, i + 1] -= 1


fill(builder)
print(builder.num_triplets)
A = builder.build()
print(builder.num_triplets, A.shape, A.n, A.m)
print(A)
B = A.transpose() * 2.0
print((A + B)[0, 0], (A - B)[0, 1], (3 * A)[4, 4], (A * A)[1, 0])
print((A @ A)[0, 0], (A @ A)[0, 2])
x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
print(A @ x)
nd = ti.ndarray(ti.f64, n)
nd.fill(1.0)
print((A @ nd).to_numpy())
A[0, 4] = 0.5
print(A[0, 4], A[4, 0])
print(A.to_numpy()[0])
A[0, 4] = 0.0
for kind in ["LLT", "LDLT", "LU"]:
    s = ti.linalg.SparseSolver(dtype=ti.f64, solver_type=kind)
    s.analyze_pattern(A)
    s.factorize(A)
    sol = s.solve(x)
    print(kind, s.info(), " ".join(f"{v:.6f}" for v in sol))
sol, ok = ti.linalg.SparseCG(A, x, None, max_iter=100, atol=1e-10).solve()
print("cg", ok, " ".join(f"{v:.6f}" for v in sol))

f32 = ti.linalg.SparseMatrixBuilder(2, 2, max_num_triplets=4)


@ti.kernel
def third(A: ti.types.sparse_matrix_builder()):
    A[0, 1] += 1.0 / 3.0


third(f32)
f32.print_triplets()
print(f32.build()[0, 1])
