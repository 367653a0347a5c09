// ti.linalg's numerics, below both hosts: sparse matrices, direct solvers
// and conjugate gradients, all done by Eigen (libeigen3-dev). The hosts keep
// the Python-facing objects; this layer only holds the data and the math, so
// its header names no Eigen type (what includes it stays quick to compile).
//
// Values are stored as f64 whatever the matrix's dtype: an f32 matrix has its
// entries rounded to f32 when they are set (so it holds what Taichi's would),
// and its arithmetic is then done in f64, which only adds precision.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln::linalg {

struct Matrix;  // an Eigen::SparseMatrix<double> (column-major, compressed)
using MatrixPtr = std::shared_ptr<Matrix>;

// A rows x cols matrix from `count` triplets (row, col, value); entries with
// the same (row, col) add up. `ij` holds row, col pairs. Throws IndexError
// (naming the triplet) for an index outside the shape. `round_f32` rounds
// every summed entry to f32.
MatrixPtr from_triplets(int64_t rows, int64_t cols, const int32_t* ij, const double* v, int64_t count, bool round_f32);
MatrixPtr zeros(int64_t rows, int64_t cols);

int64_t rows(const Matrix& a);
int64_t cols(const Matrix& a);
int64_t nonzeros(const Matrix& a);
double get(const Matrix& a, int64_t i, int64_t j);  // IndexError outside the shape
void set(Matrix& a, int64_t i, int64_t j, double v);

// Arithmetic; shapes are checked by the caller (the host says which operand).
MatrixPtr axpby(double alpha, const Matrix& a, double beta, const Matrix& b);  // alpha*a + beta*b
MatrixPtr scaled(const Matrix& a, double s);
MatrixPtr hadamard(const Matrix& a, const Matrix& b);  // elementwise product
MatrixPtr matmul(const Matrix& a, const Matrix& b);
MatrixPtr transpose(const Matrix& a);
MatrixPtr rounded_f32(const Matrix& a);  // a result of an f32 matrix, rounded back to f32
// y = a x (x has cols(a) entries, y rows(a)).
void matvec(const Matrix& a, const double* x, double* y);
// Row-major dense copy (rows*cols doubles).
void to_dense(const Matrix& a, double* out);
// Taichi's printing: one "[a, b, c]" line per row, columns aligned, 4 significant digits.
std::string to_string(const Matrix& a);

// A direct solver: LLT and LDLT (Cholesky, for symmetric positive
// (semi)definite matrices) and LU; orderings "AMD", "COLAMD" or "NATURAL".
struct Solver;
enum class SolverKind { llt, ldlt, lu };
// ValueError for an unknown ordering (or one the kind does not take).
std::shared_ptr<Solver> make_solver(SolverKind kind, const std::string& ordering);
// Each throws RuntimeError on misuse: a non-square matrix, factorize with a
// pattern other than the analyzed one, solve before factorize, a right-hand
// side of the wrong length.
void analyze_pattern(Solver& s, const Matrix& a);
void factorize(Solver& s, const Matrix& a);
void solve(Solver& s, const double* b, int64_t n, double* x);
// Whether the last step succeeded (Eigen's ComputationInfo == Success).
bool info(const Solver& s);

// Conjugate gradients on a symmetric positive definite `a`, from the initial
// guess in x (updated in place); stops when |r| <= atol or after max_iter
// iterations. Returns whether it converged.
bool conjugate_gradient(const Matrix& a, const double* b, double* x, int max_iter, double atol);

}  // namespace kiln::linalg
