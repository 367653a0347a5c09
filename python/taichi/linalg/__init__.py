"""ti.linalg: sparse matrices built from kernels, direct and iterative solvers
(numerics by Eigen, in vm/linalg), and matrix-free conjugate gradients."""
from .sparse_matrix import SparseMatrix, SparseMatrixBuilder, sparse_matrix_builder
from .solvers import LinearOperator, MatrixFreeCG, SparseCG, SparseSolver

__all__ = ["SparseMatrix", "SparseMatrixBuilder", "sparse_matrix_builder", "SparseSolver", "SparseCG",
           "LinearOperator", "MatrixFreeCG"]
