"""ti.linalg.SparseMatrix and SparseMatrixBuilder.

A builder is three numpy arrays that kernels append (row, col, value)
triplets to (`A[i, j] += v` on a ti.types.sparse_matrix_builder() parameter:
vm/frontend/lower_linalg.cpp); build() turns them into a SparseMatrix, whose
data and arithmetic are Eigen's (vm/linalg, through taichi._core)."""
import numbers

import numpy as np

from .. import _core
from .._errors import TaichiRuntimeError, TaichiTypeError
from .._types import dtype_of, f32, f64

_STORAGE = ("col_major", "row_major")


def _value_dtype(dtype, what):
    try:
        dt = dtype_of(dtype)
    except Exception:
        dt = None
    if dt is None or str(dt) not in ("f32", "f64"):
        raise TaichiTypeError(f"{what} holds f32 or f64 values, not {dtype!r}")
    return dt


def _storage(fmt):
    if fmt not in _STORAGE:
        raise TaichiRuntimeError(f"storage_format must be 'col_major' or 'row_major', not {fmt!r}")
    return fmt


def _np_dtype(dt):
    return np.float32 if str(dt) == "f32" else np.float64


def _is_scalar(x):
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


class SparseMatrix:
    """An n x m sparse matrix of f32 or f64 values (Eigen's compressed storage)."""

    def __init__(self, n=None, m=None, sm=None, dtype=f32, storage_format="col_major"):
        self.dtype = _value_dtype(dtype, "a sparse matrix")
        self.storage_format = _storage(storage_format)
        if sm is not None:
            self.matrix = sm
        else:
            if not isinstance(n, numbers.Integral) or not isinstance(m, numbers.Integral) or n < 0 or m < 0:
                raise TaichiRuntimeError(f"a sparse matrix needs a non-negative integer shape, got n={n!r}, m={m!r}")
            self.matrix = _core.sparse_zeros(int(n), int(m))
        self.n, self.m = self.matrix.rows, self.matrix.cols

    def _result(self, data, other=None):
        # f64 when either operand is; an f32 result holds f32 values.
        dt = f64 if str(self.dtype) == "f64" or (other is not None and str(other.dtype) == "f64") else f32
        if str(dt) == "f32":
            data = data.rounded_f32()
        return SparseMatrix(sm=data, dtype=dt, storage_format=self.storage_format)

    def _same_shape(self, other, op):
        if not isinstance(other, SparseMatrix):
            raise TaichiTypeError(f"sparse matrix '{op}' needs another SparseMatrix, got {type(other).__name__}")
        if self.shape != other.shape:
            raise TaichiRuntimeError(
                f"Dimension mismatch between sparse matrices ({self.n}, {self.m}) and ({other.n}, {other.m}) in '{op}'")

    def __add__(self, other):
        self._same_shape(other, "+")
        return self._result(self.matrix.axpby(1.0, other.matrix, 1.0), other)

    def __sub__(self, other):
        self._same_shape(other, "-")
        return self._result(self.matrix.axpby(1.0, other.matrix, -1.0), other)

    def __iadd__(self, other):
        r = self + other
        self.matrix, self.dtype = r.matrix, r.dtype
        return self

    def __isub__(self, other):
        r = self - other
        self.matrix, self.dtype = r.matrix, r.dtype
        return self

    def __neg__(self):
        return self._result(self.matrix.scaled(-1.0))

    def __mul__(self, other):
        if _is_scalar(other):
            return self._result(self.matrix.scaled(float(other)))
        if isinstance(other, SparseMatrix):
            self._same_shape(other, "*")
            return self._result(self.matrix.hadamard(other.matrix), other)
        return NotImplemented

    def __rmul__(self, other):
        if _is_scalar(other):
            return self._result(self.matrix.scaled(float(other)))
        return NotImplemented

    def transpose(self):
        return SparseMatrix(sm=self.matrix.transpose(), dtype=self.dtype, storage_format=self.storage_format)

    @property
    def T(self):
        return self.transpose()

    def __matmul__(self, other):
        from .._ndarray import Ndarray
        if isinstance(other, SparseMatrix):
            if self.m != other.n:
                raise TaichiRuntimeError(
                    f"Dimension mismatch between sparse matrices ({self.n}, {self.m}) and ({other.n}, {other.m}) in '@'")
            return self._result(self.matrix.matmul(other.matrix), other)
        if isinstance(other, Ndarray):
            if other.element_shape or len(other.shape) != 1 or other.shape[0] != self.m:
                raise TaichiRuntimeError(
                    f"Dimension mismatch between sparse matrix ({self.n}, {self.m}) and vector {other.shape}")
            from .._ndarray import ndarray
            res = ndarray(other.dtype, self.n)
            res.arr[:] = self.matrix.matvec(other.arr)
            return res
        if hasattr(other, "to_numpy") and hasattr(other, "shape") and not isinstance(other, np.ndarray):
            other = other.to_numpy()  # a field
        if isinstance(other, (np.ndarray, list, tuple)):
            v = np.asarray(other)
            if v.ndim != 1 or v.shape[0] != self.m:
                raise TaichiRuntimeError(
                    f"Dimension mismatch between sparse matrix ({self.n}, {self.m}) and vector {v.shape}")
            return self.matrix.matvec(v).astype(_np_dtype(self.dtype), copy=False)
        raise TaichiRuntimeError(
            f"Sparse matrix-matrix/vector multiplication does not support {type(other).__name__}: use a SparseMatrix, "
            "a numpy array, a ti.ndarray or a field")

    def _index(self, indices):
        if not isinstance(indices, tuple) or len(indices) != 2:
            raise TaichiRuntimeError(f"a sparse matrix is indexed with [row, col], not [{indices!r}]")
        return int(indices[0]), int(indices[1])

    def __getitem__(self, indices):
        i, j = self._index(indices)
        v = self.matrix.get(i, j)
        return float(np.float32(v)) if str(self.dtype) == "f32" else v

    def __setitem__(self, indices, value):
        i, j = self._index(indices)
        self.matrix.set(i, j, float(np.float32(value)) if str(self.dtype) == "f32" else float(value))

    @property
    def shape(self):
        return (self.n, self.m)

    def num_nonzeros(self):
        return self.matrix.nonzeros

    def to_numpy(self):
        return self.matrix.to_dense().astype(_np_dtype(self.dtype), copy=False)

    def __str__(self):
        return self.matrix.to_string()

    __repr__ = __str__

    def build_from_ndarray(self, ndarray):
        """Fills the matrix from (row, col, value) triplets in a ti.ndarray
        (any shape whose number of scalars divides by 3)."""
        from .._ndarray import Ndarray
        if not isinstance(ndarray, Ndarray):
            raise TaichiRuntimeError(
                "Sparse matrix only supports building from [ti.ndarray, ti.Vector.ndarray, ti.Matrix.ndarray]")
        flat = ndarray.arr.reshape(-1)
        if flat.size % 3:
            raise TaichiRuntimeError("The number of ndarray elements must have a length that is divisible by 3.")
        t = flat.reshape(-1, 3)
        ij = np.ascontiguousarray(t[:, :2].astype(np.int32)).reshape(-1)
        v = np.ascontiguousarray(t[:, 2].astype(np.float64))
        self.matrix = _core.sparse_from_triplets(self.n, self.m, ij, v, len(v), str(self.dtype) == "f32")

    def mmwrite(self, filename):
        """Writes the matrix in Matrix Market coordinate format."""
        d = self.matrix.to_dense()
        rows, cols = np.nonzero(d)
        with open(filename, "w") as f:
            f.write("%%MatrixMarket matrix coordinate real general\n")
            f.write(f"{self.n} {self.m} {len(rows)}\n")
            for i, j in zip(rows, cols):
                f.write(f"{i + 1} {j + 1} {d[i, j]!r}\n")


class SparseMatrixBuilder:
    """Collects (row, col, value) triplets added by kernels (`A[i, j] += v`),
    at most max_num_triplets of them; build() makes the SparseMatrix
    (entries added at the same place sum up)."""

    def __init__(self, num_rows=None, num_cols=None, max_num_triplets=0, dtype=f32, storage_format="col_major"):
        if not isinstance(num_rows, numbers.Integral) or not isinstance(num_cols, numbers.Integral) \
                or num_rows < 0 or num_cols < 0:
            raise TaichiRuntimeError(
                f"SparseMatrixBuilder needs non-negative integer sizes, got num_rows={num_rows!r}, num_cols={num_cols!r}")
        if not isinstance(max_num_triplets, numbers.Integral) or not 0 <= max_num_triplets < 2**30:
            raise TaichiRuntimeError(f"max_num_triplets must be an integer in [0, 2**30), got {max_num_triplets!r}")
        self.num_rows, self.num_cols = int(num_rows), int(num_cols)
        self.max_num_triplets = int(max_num_triplets)
        self.dtype = _value_dtype(dtype, "a sparse matrix builder")
        self.storage_format = _storage(storage_format)
        self._ij = np.zeros(2 * self.max_num_triplets, dtype=np.int32)
        self._v = np.zeros(self.max_num_triplets, dtype=np.float64)
        self._count = np.zeros(1, dtype=np.int32)

    def _kiln_builder_arrays(self):
        return (self._ij, self._v, self._count)

    def _kiln_static(self):
        return ("object", "SparseMatrixBuilder")

    @property
    def num_triplets(self):
        return min(int(self._count[0]), self.max_num_triplets)

    def _check_overflow(self):
        added = int(self._count[0])
        if added > self.max_num_triplets:
            raise TaichiRuntimeError(
                f"too many triplets: kernels added {added} to a SparseMatrixBuilder made with "
                f"max_num_triplets={self.max_num_triplets} (the last {added - self.max_num_triplets} were dropped)")

    def print_triplets(self):
        n = self.num_triplets
        print(f"n={self.num_rows}, m={self.num_cols}, num_triplets={n} (max={self.max_num_triplets})")
        f32_values = str(self.dtype) == "f32"
        for k in range(n):
            v = self._v[k]
            v = str(np.float32(v)) if f32_values else repr(float(v))  # shortest digits, as Taichi's fmt prints
            print(f"[{self._ij[2 * k]}, {self._ij[2 * k + 1]}] = {v}")

    def build(self, dtype=None, _format="CSR"):
        self._check_overflow()
        dt = self.dtype if dtype is None else _value_dtype(dtype, "a sparse matrix")
        n = self.num_triplets
        data = _core.sparse_from_triplets(self.num_rows, self.num_cols, self._ij, self._v, n, str(dt) == "f32")
        self._count[0] = 0  # as Taichi's: the triplets go into the matrix, the builder starts empty again
        return SparseMatrix(sm=data, dtype=dt, storage_format=self.storage_format)


def sparse_matrix_builder():
    """Deprecated spelling of ti.types.sparse_matrix_builder()."""
    from .._types import sparse_matrix_builder as anno
    return anno()


__all__ = ["SparseMatrix", "SparseMatrixBuilder", "sparse_matrix_builder"]
