// Sparse matrices for ti.linalg over Eigen::SparseMatrix<double>.
#include "vm/linalg/sparse.h"

#include <Eigen/Sparse>
#include <sstream>

#include "vm/linalg/matrix.h"
#include "vm/support/diag.h"

namespace kiln::linalg {

static MatrixPtr wrap(Sparse m) {
  auto p = std::make_shared<Matrix>();
  p->m = std::move(m);
  p->m.makeCompressed();
  return p;
}

MatrixPtr from_triplets(int64_t rows, int64_t cols, const int32_t* ij, const double* v, int64_t count, bool round_f32) {
  std::vector<Eigen::Triplet<double>> t;
  t.reserve((size_t)count);
  for (int64_t k = 0; k < count; k++) {
    int32_t i = ij[2 * k], j = ij[2 * k + 1];
    if (i < 0 || i >= rows || j < 0 || j >= cols)
      raise("IndexError", "triplet " + std::to_string(k) + " is at (" + std::to_string(i) + ", " + std::to_string(j) +
                              "), outside the " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix");
    t.emplace_back(i, j, v[k]);
  }
  Sparse m(rows, cols);
  m.setFromTriplets(t.begin(), t.end());  // duplicates add up, as `A[i, j] += v` means
  MatrixPtr p = wrap(std::move(m));
  return round_f32 ? rounded_f32(*p) : p;
}

MatrixPtr zeros(int64_t rows, int64_t cols) { return wrap(Sparse(rows, cols)); }

int64_t rows(const Matrix& a) { return a.m.rows(); }
int64_t cols(const Matrix& a) { return a.m.cols(); }
int64_t nonzeros(const Matrix& a) { return a.m.nonZeros(); }

static void check_index(const Matrix& a, int64_t i, int64_t j) {
  if (i < 0 || i >= a.m.rows() || j < 0 || j >= a.m.cols())
    raise("IndexError", "index (" + std::to_string(i) + ", " + std::to_string(j) + ") is outside the " +
                            std::to_string(a.m.rows()) + "x" + std::to_string(a.m.cols()) + " sparse matrix");
}

double get(const Matrix& a, int64_t i, int64_t j) {
  check_index(a, i, j);
  return a.m.coeff(i, j);
}

void set(Matrix& a, int64_t i, int64_t j, double v) {
  check_index(a, i, j);
  a.m.coeffRef(i, j) = v;  // inserts when (i, j) was not stored
}

MatrixPtr axpby(double alpha, const Matrix& a, double beta, const Matrix& b) { return wrap(alpha * a.m + beta * b.m); }
MatrixPtr scaled(const Matrix& a, double s) { return wrap(s * a.m); }
MatrixPtr hadamard(const Matrix& a, const Matrix& b) { return wrap(a.m.cwiseProduct(b.m)); }
MatrixPtr matmul(const Matrix& a, const Matrix& b) { return wrap(a.m * b.m); }
MatrixPtr transpose(const Matrix& a) { return wrap(a.m.transpose()); }

MatrixPtr rounded_f32(const Matrix& a) {
  return wrap(a.m.unaryExpr([](double x) { return (double)(float)x; }));
}

void matvec(const Matrix& a, const double* x, double* y) {
  Eigen::Map<const Eigen::VectorXd> xv(x, a.m.cols());
  Eigen::Map<Eigen::VectorXd> yv(y, a.m.rows());
  yv.noalias() = a.m * xv;
}

void to_dense(const Matrix& a, double* out) {
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> d(out, a.m.rows(), a.m.cols());
  d = Eigen::MatrixXd(a.m);
}

std::string to_string(const Matrix& a) {
  // Taichi prints a sparse matrix as its dense f32 form in this format.
  Eigen::IOFormat fmt(4, 0, ", ", "\n", "[", "]");
  std::ostringstream os;
  os << Eigen::MatrixXf(Eigen::MatrixXd(a.m).cast<float>()).format(fmt);
  return os.str();
}

bool conjugate_gradient(const Matrix& a, const double* b, double* x, int max_iter, double atol) {
  if (a.m.rows() != a.m.cols())
    raise("RuntimeError", "conjugate gradients need a square matrix, this one is " + std::to_string(a.m.rows()) + "x" +
                              std::to_string(a.m.cols()));
  Eigen::Map<const Eigen::VectorXd> bv(b, a.m.rows());
  Eigen::Map<Eigen::VectorXd> xv(x, a.m.cols());
  Eigen::ConjugateGradient<Sparse, Eigen::Lower | Eigen::Upper> cg;
  cg.setMaxIterations(max_iter);
  // Eigen's tolerance is relative to |b|; ti.linalg's atol is absolute.
  double nb = bv.norm();
  cg.setTolerance(nb > 0 ? atol / nb : atol);
  cg.compute(a.m);
  Eigen::VectorXd guess = xv;
  xv = cg.solveWithGuess(bv, guess);
  return cg.info() == Eigen::Success;
}

}  // namespace kiln::linalg
