"""ti.linalg on a 2-D Poisson matrix (5-point stencil, N x N grid, ~10^5
unknowns): a kernel adds the triplets to a SparseMatrixBuilder, build(), then
SparseSolver("LLT", "AMD") analyze_pattern / factorize / solve. The baseline,
bench/sparse_solve.cpp, makes the same Eigen calls from C++.

    PYTHONPATH=build/python python3 bench/sparse_solve.py [N] [THREADS]

THREADS (default 1) is the kernel's thread count: the C++ baseline is serial,
so one thread compares like with like.

Prints each phase's best time of 5 (ms) and a checksum (the solution's sum)."""
import sys
import time

import numpy as np
import taichi as ti

N = int(sys.argv[1]) if len(sys.argv) > 1 else 316
n = N * N
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 1
ti.init(arch=ti.cpu, cpu_max_num_threads=threads)


@ti.kernel
def poisson(A: ti.types.sparse_matrix_builder()):
    for a, b in ti.ndrange(N, N):
        r = a * N + b
        A[r, r] += 4.0
        if a > 0:
            A[r, r - N] -= 1.0
        if a < N - 1:
            A[r, r + N] -= 1.0
        if b > 0:
            A[r, r - 1] -= 1.0
        if b < N - 1:
            A[r, r + 1] -= 1.0


rhs = 1.0 + (np.arange(n) % 7) * 0.125
best = {}
for rep in range(5):
    builder = ti.linalg.SparseMatrixBuilder(n, n, max_num_triplets=5 * n, dtype=ti.f64)
    t = [time.perf_counter()]
    poisson(builder)
    t.append(time.perf_counter())
    A = builder.build()
    t.append(time.perf_counter())
    solver = ti.linalg.SparseSolver(dtype=ti.f64, solver_type="LLT", ordering="AMD")
    solver.analyze_pattern(A)
    t.append(time.perf_counter())
    solver.factorize(A)
    t.append(time.perf_counter())
    x = solver.solve(rhs)
    t.append(time.perf_counter())
    assert solver.info()
    for k, name in enumerate(["assemble", "build", "analyze", "factorize", "solve"]):
        ms = (t[k + 1] - t[k]) * 1000
        best[name] = min(best.get(name, ms), ms)
print(f"checksum {x.sum():.10g}")
for name, ms in best.items():
    print(f"{name}_ms {ms:f}")
print(f"time_ms {sum(best.values()):f}")
