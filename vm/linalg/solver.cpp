// ti.linalg.SparseSolver's direct solvers: Eigen's SimplicialLLT,
// SimplicialLDLT and SparseLU, each with an AMD, COLAMD or natural ordering.
// The state machine (analyze, then factorize, then solve) is checked here so
// that misuse is a RuntimeError rather than Eigen's assertion.
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>

#include "vm/linalg/matrix.h"
#include "vm/support/diag.h"

namespace kiln::linalg {

struct Solver {
  virtual ~Solver() = default;
  virtual void analyze(const Sparse& a) = 0;
  virtual void factorize(const Sparse& a) = 0;
  virtual Eigen::VectorXd solve(const Eigen::Map<const Eigen::VectorXd>& b) = 0;
  virtual bool ok() const = 0;
  int64_t n = -1;              // the analyzed matrix's size (-1: analyze_pattern not called)
  int64_t pattern_nnz = -1;    // its number of stored entries
  bool factorized = false;
  bool failed = false;         // the last step raised or Eigen reported a failure
};

template <class E>
struct EigenSolver final : Solver {
  E e;
  void analyze(const Sparse& a) override { e.analyzePattern(a); }
  void factorize(const Sparse& a) override { e.factorize(a); }
  Eigen::VectorXd solve(const Eigen::Map<const Eigen::VectorXd>& b) override { return e.solve(b); }
  bool ok() const override { return e.info() == Eigen::Success; }
};

template <template <class> class Ord>
static std::shared_ptr<Solver> of_kind(SolverKind kind) {
  switch (kind) {
    case SolverKind::llt: return std::make_shared<EigenSolver<Eigen::SimplicialLLT<Sparse, Eigen::Lower, Ord<int>>>>();
    case SolverKind::ldlt: return std::make_shared<EigenSolver<Eigen::SimplicialLDLT<Sparse, Eigen::Lower, Ord<int>>>>();
    case SolverKind::lu: return std::make_shared<EigenSolver<Eigen::SparseLU<Sparse, Ord<int>>>>();
  }
  return nullptr;
}

std::shared_ptr<Solver> make_solver(SolverKind kind, const std::string& ordering) {
  if (ordering == "AMD") return of_kind<Eigen::AMDOrdering>(kind);
  if (ordering == "COLAMD") return of_kind<Eigen::COLAMDOrdering>(kind);
  if (ordering == "NATURAL") return of_kind<Eigen::NaturalOrdering>(kind);
  raise("ValueError", "unknown ordering '" + ordering + "' (use \"AMD\", \"COLAMD\" or \"NATURAL\")");
}

static void check_square(const Matrix& a, const char* step) {
  if (a.m.rows() != a.m.cols())
    raise("RuntimeError", std::string(step) + ": the solver needs a square matrix, this one is " +
                              std::to_string(a.m.rows()) + "x" + std::to_string(a.m.cols()));
}

void analyze_pattern(Solver& s, const Matrix& a) {
  check_square(a, "analyze_pattern");
  s.analyze(a.m);
  s.n = a.m.rows();
  s.pattern_nnz = a.m.nonZeros();
  s.factorized = false;
  s.failed = !s.ok();
}

void factorize(Solver& s, const Matrix& a) {
  check_square(a, "factorize");
  if (s.n < 0) analyze_pattern(s, a);  // Taichi's compute(): both steps at once
  if (a.m.rows() != s.n || a.m.nonZeros() != s.pattern_nnz) {
    s.failed = true;
    raise("RuntimeError", "factorize: the matrix (" + std::to_string(a.m.rows()) + "x" + std::to_string(a.m.cols()) + ", " +
                              std::to_string(a.m.nonZeros()) + " entries) does not have the pattern given to analyze_pattern (" +
                              std::to_string(s.n) + "x" + std::to_string(s.n) + ", " + std::to_string(s.pattern_nnz) + " entries)");
  }
  s.factorize(a.m);
  s.factorized = s.ok();
  s.failed = !s.factorized;
}

void solve(Solver& s, const double* b, int64_t n, double* x) {
  if (!s.factorized)
    raise("RuntimeError", s.n < 0 ? "solve: call analyze_pattern() and factorize() (or compute()) first"
                                  : "solve: the matrix is not factorized (call factorize() first; a failed factorization cannot solve)");
  if (n != s.n)
    raise("RuntimeError", "solve: the right-hand side has " + std::to_string(n) + " entries, the matrix has " +
                              std::to_string(s.n) + " rows");
  Eigen::Map<const Eigen::VectorXd> bv(b, n);
  Eigen::Map<Eigen::VectorXd>(x, n) = s.solve(bv);
  s.failed = !s.ok();
}

bool info(const Solver& s) { return !s.failed && s.ok(); }

}  // namespace kiln::linalg
