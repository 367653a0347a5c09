"""ti.linalg.SparseSolver (LLT, LDLT, LU: Eigen's, through taichi._core),
ti.linalg.SparseCG (Eigen's conjugate gradients on a SparseMatrix) and
taichi.linalg.MatrixFreeCG with LinearOperator (conjugate gradients where
A is a user kernel writing A @ x into a field)."""
import math

import numpy as np

from .. import _core
from .._errors import TaichiRuntimeError, TaichiTypeError
from .._types import f32
from .sparse_matrix import SparseMatrix, _np_dtype, _value_dtype


def _rhs(b, n, what):
    """b as a float64 numpy vector of n values, and a function giving the
    result the type of b (ti.ndarray in, ti.ndarray out; numpy otherwise)."""
    from .._ndarray import Ndarray, ndarray
    if isinstance(b, Ndarray):
        if b.element_shape or len(b.shape) != 1:
            raise TaichiRuntimeError(f"{what} must be a 1-D ti.ndarray of scalars, got shape {b.shape}")
        v = b.arr

        def back(x):
            r = ndarray(b.dtype, len(x))
            r.arr[:] = x
            return r
    elif isinstance(b, np.ndarray):
        v, back = b, None
    elif hasattr(b, "to_numpy") and hasattr(b, "shape"):  # a field
        v, back = b.to_numpy(), None
    else:
        raise TaichiRuntimeError(f"The parameter type: {type(b).__name__} is not supported in linear solvers for now.")
    if v.ndim != 1 or v.shape[0] != n:
        raise TaichiRuntimeError(f"{what} has shape {v.shape}, the matrix needs ({n},)")
    return np.ascontiguousarray(v, dtype=np.float64), back


class SparseSolver:
    """A direct solver for A x = b: solver_type "LLT" or "LDLT" (symmetric
    positive (semi)definite A) or "LU"; ordering "AMD", "COLAMD" or "NATURAL"."""

    def __init__(self, dtype=f32, solver_type="LLT", ordering="AMD"):
        self.dtype = _value_dtype(dtype, "a sparse solver")
        if solver_type not in ("LLT", "LDLT", "LU"):
            raise TaichiRuntimeError(f"solver_type must be 'LLT', 'LDLT' or 'LU', not {solver_type!r}")
        if ordering not in ("AMD", "COLAMD", "NATURAL"):
            raise TaichiRuntimeError(f"ordering must be 'AMD', 'COLAMD' or 'NATURAL', not {ordering!r}")
        self.solver_type, self.ordering = solver_type, ordering
        self.solver = _core.SparseSolverData(solver_type, ordering)
        self._n = None

    @staticmethod
    def _check(A):
        if not isinstance(A, SparseMatrix):
            raise TaichiRuntimeError(f"The parameter type: {type(A).__name__} is not supported in linear solvers for now.")
        if A.n != A.m:
            raise TaichiRuntimeError(f"a sparse solver needs a square matrix, got {A.n}x{A.m}")

    def analyze_pattern(self, sparse_matrix):
        self._check(sparse_matrix)
        self.solver.analyze_pattern(sparse_matrix.matrix)
        self._n = sparse_matrix.n

    def factorize(self, sparse_matrix):
        self._check(sparse_matrix)
        self.solver.factorize(sparse_matrix.matrix)
        self._n = sparse_matrix.n

    def compute(self, sparse_matrix):
        self.analyze_pattern(sparse_matrix)
        self.factorize(sparse_matrix)

    def solve(self, b):
        if self._n is None:
            raise TaichiRuntimeError("solve: call analyze_pattern() and factorize() (or compute()) first")
        v, back = _rhs(b, self._n, "the right-hand side")
        x = self.solver.solve(v).astype(_np_dtype(self.dtype), copy=False)
        return back(x) if back else x

    def info(self):
        return self.solver.info()


class SparseCG:
    """Conjugate gradients for A x = b with a symmetric positive definite
    SparseMatrix A, from x0 (zeros when None), until |A x - b| <= atol or
    max_iter iterations. solve() gives (x, converged)."""

    def __init__(self, A, b, x0=None, max_iter=50, atol=1e-6):
        if not isinstance(A, SparseMatrix):
            raise TaichiRuntimeError(f"SparseCG needs a SparseMatrix, got {type(A).__name__}")
        if A.n != A.m:
            raise TaichiRuntimeError(f"SparseCG needs a square matrix, got {A.n}x{A.m}")
        self.dtype = A.dtype
        self.matrix = A
        self.b, self._back = _rhs(b, A.n, "b")
        self.x0 = np.zeros(A.n) if x0 is None else _rhs(x0, A.n, "x0")[0]
        self.max_iter, self.atol = int(max_iter), float(atol)

    def solve(self):
        x, ok = _core.sparse_cg(self.matrix.matrix, self.b, self.x0, self.max_iter, self.atol)
        x = x.astype(_np_dtype(self.dtype), copy=False)
        return (self._back(x) if self._back else x), bool(ok)


class LinearOperator:
    """A matrix given by its product: matvec_kernel(x, Ax) writes A @ x into Ax
    (two fields of the same shape)."""

    def __init__(self, matvec_kernel):
        self._matvec = matvec_kernel

    def matvec(self, x, Ax):
        if x.shape != Ax.shape:
            raise TaichiRuntimeError(f"Dimension mismatch x.shape{x.shape} != Ax.shape{Ax.shape}.")
        self._matvec(x, Ax)


def MatrixFreeCG(A, b, x, tol=1e-6, maxiter=5000, quiet=True):
    """Conjugate gradients for A x = b where A is a LinearOperator and b, x are
    fields (x holds the initial guess and receives the solution). The vectors
    live in numpy; only A's products run as the user's kernel, on two fields
    made here. Returns whether |r| fell below tol."""
    from .._field import field
    if not isinstance(A, LinearOperator):
        raise TaichiTypeError(f"MatrixFreeCG needs a LinearOperator, got {type(A).__name__}")
    if str(b.dtype) != str(x.dtype):
        raise TaichiTypeError(f"Dtype mismatch b.dtype({b.dtype}) != x.dtype({x.dtype}).")
    if str(b.dtype) not in ("f32", "f64"):
        raise TaichiTypeError(f"Not supported dtype: {b.dtype}")
    if tuple(b.shape) != tuple(x.shape):
        raise TaichiRuntimeError(f"Dimension mismatch b.shape{b.shape} != x.shape{x.shape}.")
    if not 1 <= len(b.shape) <= 3:
        raise TaichiRuntimeError(f"MatrixFreeCG only support 1D, 2D, 3D inputs; your inputs is {len(b.shape)}-D.")
    p_f = field(b.dtype, shape=b.shape)
    ap_f = field(b.dtype, shape=b.shape)
    dt = _np_dtype(b.dtype)

    def apply(v):
        p_f.from_numpy(v.astype(dt))
        A._matvec(p_f, ap_f)
        return ap_f.to_numpy().astype(np.float64)

    xs = x.to_numpy().astype(np.float64)
    r = b.to_numpy().astype(np.float64) - apply(xs)
    p = r.copy()
    rtr = float(np.vdot(r, r))
    if not quiet:
        print(f">>> Initial residual = {rtr:e}")
    converged = math.sqrt(rtr) < tol
    it = 0
    while not converged and it < maxiter:
        ap = apply(p)
        alpha = rtr / float(np.vdot(p, ap))
        xs += alpha * p
        r -= alpha * ap
        new_rtr = float(np.vdot(r, r))
        it += 1
        if not quiet:
            print(f">>> Iter = {it:4}, Residual = {math.sqrt(new_rtr):e}")
        if math.sqrt(new_rtr) < tol:
            converged = True
            break
        p = r + (new_rtr / rtr) * p
        rtr = new_rtr
    x.from_numpy(xs.astype(dt))
    if not quiet:
        print(">>> Conjugate Gradient method converged." if converged else
              f">>> Conjugate Gradient method failed to converge in {maxiter} iterations")
    return converged
