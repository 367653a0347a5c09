"""ti.linalg on CPython: builders filled by kernels, SparseMatrix arithmetic,
the direct solvers, SparseCG, MatrixFreeCG, and the errors of each."""
import numpy as np
import pytest

import taichi as ti


@pytest.fixture(autouse=True)
def _init():
    ti.init(arch=ti.cpu)


def laplacian_1d(n, dtype=ti.f64):
    """The n x n tridiagonal [-1 2 -1] matrix, built in a parallel kernel."""
    b = ti.linalg.SparseMatrixBuilder(n, n, max_num_triplets=3 * n, dtype=dtype)

    @ti.kernel
    def fill(A: ti.types.sparse_matrix_builder()):
        for i in range(n):
            A[i, i] += 2.0
            if i > 0:
                A[i, i - 1] -= 1.0
            if i < n - 1:
                A[i, i + 1] -= 1
    fill(b)
    return b.build()


def dense_laplacian_1d(n):
    return 2 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)


def test_builder_parallel_fill_matches_dense():
    A = laplacian_1d(50)
    assert A.shape == (50, 50) and A.n == 50 and A.m == 50
    assert np.array_equal(A.to_numpy(), dense_laplacian_1d(50))
    assert A.num_nonzeros() == 3 * 50 - 2


def test_builder_duplicates_sum_and_build_empties_it():
    b = ti.linalg.SparseMatrixBuilder(3, 4, max_num_triplets=1000, dtype=ti.f32)

    @ti.kernel
    def fill(A: ti.types.sparse_matrix_builder(), k: ti.i32):
        for t in range(k):
            A[t % 3, t % 4] += 0.5
    fill(b, 24)
    assert b.num_triplets == 24
    A = b.build()
    want = np.zeros((3, 4))
    for t in range(24):
        want[t % 3, t % 4] += 0.5
    assert np.array_equal(A.to_numpy(), want) and A.to_numpy().dtype == np.float32
    assert b.num_triplets == 0 and not b.build().to_numpy().any()


def test_print_triplets(capsys):
    b = ti.linalg.SparseMatrixBuilder(2, 2, max_num_triplets=4)

    @ti.kernel
    def fill(A: ti.types.sparse_matrix_builder()):
        A[1, 0] += 1.5
    fill(b)
    b.print_triplets()
    assert capsys.readouterr().out == "n=2, m=2, num_triplets=1 (max=4)\n[1, 0] = 1.5\n"


def test_arithmetic_and_products():
    A = laplacian_1d(6)
    D = dense_laplacian_1d(6)
    B = A.transpose() * 2.0
    assert np.array_equal((A + B).to_numpy(), 3 * D)
    assert np.array_equal((A - B).to_numpy(), -D)
    assert np.array_equal((3 * A).to_numpy(), 3 * D)
    assert np.array_equal((A * A).to_numpy(), D * D)  # elementwise
    assert np.array_equal((A @ A).to_numpy(), D @ D)
    x = np.arange(6, dtype=np.float64)
    assert np.array_equal(A @ x, D @ x)
    nd = ti.ndarray(ti.f64, 6)
    nd.from_numpy(x)
    r = A @ nd
    assert isinstance(r, ti.Ndarray) and np.array_equal(r.to_numpy(), D @ x)
    A[0, 5] = 7.0
    assert A[0, 5] == 7.0 and A[5, 0] == 0.0


def test_printing_is_the_dense_rows():
    b = ti.linalg.SparseMatrixBuilder(2, 3, max_num_triplets=4)

    @ti.kernel
    def fill(A: ti.types.sparse_matrix_builder()):
        A[0, 0] += 1
        A[1, 2] += 10
    fill(b)
    assert str(b.build()) == "[ 1,  0,  0]\n[ 0,  0, 10]"


def test_build_from_ndarray():
    t = ti.Vector.ndarray(3, ti.f32, shape=4)

    @ti.kernel
    def fill(t: ti.types.ndarray()):
        for i in range(4):
            t[i] = ti.Vector([i, 3 - i, i + 1.0])
    fill(t)
    A = ti.linalg.SparseMatrix(n=4, m=4, dtype=ti.f32)
    A.build_from_ndarray(t)
    assert np.array_equal(A.to_numpy(), np.fliplr(np.diag([1.0, 2, 3, 4])))


@pytest.mark.parametrize("kind", ["LLT", "LDLT", "LU"])
@pytest.mark.parametrize("ordering", ["AMD", "COLAMD", "NATURAL"])
def test_direct_solvers(kind, ordering):
    n = 40
    A = laplacian_1d(n)
    rhs = np.linspace(-1, 1, n)
    s = ti.linalg.SparseSolver(dtype=ti.f64, solver_type=kind, ordering=ordering)
    s.analyze_pattern(A)
    s.factorize(A)
    x = s.solve(rhs)
    assert s.info()
    assert np.allclose(dense_laplacian_1d(n) @ x, rhs, atol=1e-10)
    b = ti.ndarray(ti.f64, n)
    b.from_numpy(rhs)
    xn = s.solve(b)
    assert isinstance(xn, ti.Ndarray) and np.allclose(xn.to_numpy(), x)


def test_sparse_cg_and_matrix_free_cg():
    n = 30
    A = laplacian_1d(n)
    rhs = np.ones(n)
    x, ok = ti.linalg.SparseCG(A, rhs, None, max_iter=200, atol=1e-10).solve()
    assert ok and np.allclose(dense_laplacian_1d(n) @ x, rhs, atol=1e-8)

    xf = ti.field(ti.f64, shape=n)
    bf = ti.field(ti.f64, shape=n)
    bf.from_numpy(rhs)

    @ti.kernel
    def matvec(v: ti.template(), mv: ti.template()):
        for i in v:
            left = v[i - 1] if i > 0 else 0.0
            right = v[i + 1] if i < n - 1 else 0.0
            mv[i] = 2 * v[i] - left - right
    assert ti.linalg.MatrixFreeCG(ti.linalg.LinearOperator(matvec), bf, xf, tol=1e-10, maxiter=500)
    assert np.allclose(xf.to_numpy(), x, atol=1e-7)


# ---- errors ----

def test_error_matmul_shapes():
    A = laplacian_1d(4)
    with pytest.raises(RuntimeError, match=r"Dimension mismatch between sparse matrix \(4, 4\) and vector \(3,\)"):
        A @ np.ones(3)
    B = ti.linalg.SparseMatrix(n=3, m=2)
    with pytest.raises(RuntimeError, match="Dimension mismatch between sparse matrices"):
        A @ B
    with pytest.raises(RuntimeError, match="does not support str"):
        A @ "x"


def test_error_solve_before_factorize():
    s = ti.linalg.SparseSolver(dtype=ti.f64)
    with pytest.raises(RuntimeError, match="call analyze_pattern"):
        s.solve(np.ones(3))
    A = laplacian_1d(3)
    s.analyze_pattern(A)
    with pytest.raises(RuntimeError, match="not factorized"):
        s.solve(np.ones(3))
    s.factorize(A)
    with pytest.raises(RuntimeError, match="has shape \\(4,\\), the matrix needs \\(3,\\)"):
        s.solve(np.ones(4))


def test_error_too_many_triplets():
    b = ti.linalg.SparseMatrixBuilder(4, 4, max_num_triplets=5)

    @ti.kernel
    def fill(A: ti.types.sparse_matrix_builder()):
        for i, j in ti.ndrange(4, 4):
            A[i, j] += 1
    fill(b)  # the kernel drops what does not fit, within the builder's memory
    with pytest.raises(RuntimeError, match=r"too many triplets: kernels added 16 .* max_num_triplets=5"):
        b.build()


def test_error_out_of_range_triplet():
    b = ti.linalg.SparseMatrixBuilder(2, 2, max_num_triplets=5)

    @ti.kernel
    def fill(A: ti.types.sparse_matrix_builder()):
        A[2, 0] += 1
    fill(b)
    with pytest.raises(IndexError, match=r"triplet 0 is at \(2, 0\), outside the 2x2 matrix"):
        b.build()


def test_error_non_square_llt():
    A = ti.linalg.SparseMatrix(n=3, m=2, dtype=ti.f64)
    s = ti.linalg.SparseSolver(dtype=ti.f64, solver_type="LLT")
    with pytest.raises(RuntimeError, match="square matrix, got 3x2"):
        s.analyze_pattern(A)
    with pytest.raises(RuntimeError, match="square"):
        ti.linalg.SparseCG(A, np.ones(3))


def test_error_bad_dtype_and_options():
    with pytest.raises(TypeError, match="f32 or f64"):
        ti.linalg.SparseMatrixBuilder(2, 2, max_num_triplets=4, dtype=ti.i32)
    with pytest.raises(TypeError, match="f32 or f64"):
        ti.linalg.SparseSolver(dtype=ti.i64)
    with pytest.raises(RuntimeError, match="solver_type"):
        ti.linalg.SparseSolver(solver_type="QR")
    with pytest.raises(RuntimeError, match="storage_format"):
        ti.linalg.SparseMatrix(n=2, m=2, storage_format="diagonal")


def test_error_builder_misuse_in_kernels():
    b = ti.linalg.SparseMatrixBuilder(2, 2, max_num_triplets=4)

    @ti.kernel
    def read(A: ti.types.sparse_matrix_builder()) -> ti.f32:
        return A[0, 0]
    with pytest.raises(ti.TaichiTypeError, match=r"(?s)can only be added to in a kernel.*-->.*test_linalg.py:\d+:\d+"):
        read(b)

    @ti.kernel
    def scale(A: ti.types.sparse_matrix_builder()):
        A[0, 0] *= 2
    with pytest.raises(ti.TaichiTypeError, match="only takes '\\+=' and '-='"):
        scale(b)

    @ti.kernel
    def one_index(A: ti.types.sparse_matrix_builder()):
        A[0] += 2
    with pytest.raises(ti.TaichiIndexError, match="indexed with a row and a column"):
        one_index(b)

    @ti.kernel
    def fill(A: ti.types.sparse_matrix_builder()):
        A[0, 0] += 1
    with pytest.raises(TypeError, match="takes a ti.linalg.SparseMatrixBuilder"):
        fill(np.zeros(3))
