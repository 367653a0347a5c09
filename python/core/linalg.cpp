// taichi._core's ti.linalg pieces: vm/linalg's sparse matrices and solvers
// over numpy arrays. The Python classes (python/taichi/linalg/) check the
// user-facing rules (shapes, dtypes, argument types) and call these.
#include <pybind11/numpy.h>

#include "python/core/core.h"
#include "vm/linalg/sparse.h"

namespace kiln::py_host {

namespace {

using Vec = py::array_t<double, py::array::c_style | py::array::forcecast>;

Vec new_vec(int64_t n) { return Vec({(py::ssize_t)n}); }

void check_len(const Vec& v, int64_t n, const char* what) {
  if (v.ndim() != 1 || v.shape(0) != n)
    raise("ValueError", std::string(what) + " must be a 1-D array of " + std::to_string(n) + " values, got shape " +
                            std::string(py::str(py::tuple(py::cast(std::vector<py::ssize_t>(v.shape(), v.shape() + v.ndim()))))));
}

// Python-side handles (pybind11 needs complete types; vm/linalg's are opaque).
struct MatrixH {
  linalg::MatrixPtr p;
  const linalg::Matrix& operator*() const { return *p; }
};
struct SolverH {
  std::shared_ptr<linalg::Solver> p;
};
MatrixH h(linalg::MatrixPtr p) { return MatrixH{std::move(p)}; }

linalg::SolverKind solver_kind(const std::string& s) {
  if (s == "LLT") return linalg::SolverKind::llt;
  if (s == "LDLT") return linalg::SolverKind::ldlt;
  if (s == "LU") return linalg::SolverKind::lu;
  raise("ValueError", "unknown solver_type '" + s + "' (use \"LLT\", \"LDLT\" or \"LU\")");
}

}  // namespace

void bind_linalg(py::module_& m) {
  using Matrix = MatrixH;
  py::class_<MatrixH>(m, "SparseMatrixData")
      .def_property_readonly("rows", [](const Matrix& a) { return linalg::rows(*a); })
      .def_property_readonly("cols", [](const Matrix& a) { return linalg::cols(*a); })
      .def_property_readonly("nonzeros", [](const Matrix& a) { return linalg::nonzeros(*a); })
      .def("get", [](const Matrix& a, int64_t i, int64_t j) { return linalg::get(*a, i, j); })
      .def("set", [](Matrix& a, int64_t i, int64_t j, double v) { linalg::set(*a.p, i, j, v); })
      .def("axpby", [](const Matrix& a, double alpha, const Matrix& b, double beta) { return h(linalg::axpby(alpha, *a, beta, *b)); })
      .def("scaled", [](const Matrix& a, double s) { return h(linalg::scaled(*a, s)); })
      .def("hadamard", [](const Matrix& a, const Matrix& b) { return h(linalg::hadamard(*a, *b)); })
      .def("matmul", [](const Matrix& a, const Matrix& b) { return h(linalg::matmul(*a, *b)); })
      .def("transpose", [](const Matrix& a) { return h(linalg::transpose(*a)); })
      .def("rounded_f32", [](const Matrix& a) { return h(linalg::rounded_f32(*a)); })
      .def("matvec", [](const Matrix& a, const Vec& x) {
        check_len(x, linalg::cols(*a), "the vector");
        Vec y = new_vec(linalg::rows(*a));
        {
          py::gil_scoped_release nogil;
          linalg::matvec(*a, x.data(), y.mutable_data());
        }
        return y;
      })
      .def("to_dense", [](const Matrix& a) {
        py::array_t<double> d({(py::ssize_t)linalg::rows(*a), (py::ssize_t)linalg::cols(*a)});
        linalg::to_dense(*a, d.mutable_data());
        return d;
      })
      .def("to_string", [](const Matrix& a) { return linalg::to_string(*a); });

  m.def("sparse_from_triplets", [](int64_t rows, int64_t cols, py::array_t<int32_t, py::array::c_style> ij,
                                   py::array_t<double, py::array::c_style> v, int64_t count, bool round_f32) {
    if (count < 0 || ij.size() < 2 * count || v.size() < count) raise("ValueError", "not enough triplets in the arrays");
    linalg::MatrixPtr r;
    {
      py::gil_scoped_release nogil;
      r = linalg::from_triplets(rows, cols, ij.data(), v.data(), count, round_f32);
    }
    return h(r);
  });
  m.def("sparse_zeros", [](int64_t rows, int64_t cols) { return h(linalg::zeros(rows, cols)); });

  py::class_<SolverH>(m, "SparseSolverData")
      .def(py::init([](const std::string& kind, const std::string& ordering) {
        return SolverH{linalg::make_solver(solver_kind(kind), ordering)};
      }))
      .def("analyze_pattern", [](SolverH& s, const Matrix& a) {
        py::gil_scoped_release nogil;
        linalg::analyze_pattern(*s.p, *a);
      })
      .def("factorize", [](SolverH& s, const Matrix& a) {
        py::gil_scoped_release nogil;
        linalg::factorize(*s.p, *a);
      })
      .def("solve", [](SolverH& s, const Vec& b) {
        if (b.ndim() != 1) raise("ValueError", "the right-hand side must be a 1-D array");
        Vec x = new_vec(b.shape(0));
        {
          py::gil_scoped_release nogil;
          linalg::solve(*s.p, b.data(), b.shape(0), x.mutable_data());
        }
        return x;
      })
      .def("info", [](const SolverH& s) { return linalg::info(*s.p); });

  m.def("sparse_cg", [](const Matrix& a, const Vec& b, Vec x, int max_iter, double atol) {
    check_len(b, linalg::rows(*a), "the right-hand side");
    check_len(x, linalg::cols(*a), "the initial guess");
    Vec out = new_vec(linalg::cols(*a));
    std::copy(x.data(), x.data() + x.size(), out.mutable_data());
    bool ok;
    {
      py::gil_scoped_release nogil;
      ok = linalg::conjugate_gradient(*a, b.data(), out.mutable_data(), max_iter, atol);
    }
    return py::make_tuple(out, ok);
  });
}

}  // namespace kiln::py_host
