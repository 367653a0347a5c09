// ti.linalg on the built-in evaluator: SparseMatrixBuilder (a kernel
// argument, as on CPython: three arrays the kernel appends triplets to, see
// vm/frontend/lower_linalg.cpp), SparseMatrix, SparseSolver and SparseCG over
// vm/linalg (Eigen). The Python package (python/taichi/linalg/) is the
// reference for the rules; the messages here are the same.
#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_compound.h"
#include "vm/linalg/sparse.h"

namespace kiln::host {

namespace {

struct BuilderTypeObj : HostObj {
  std::string type_name() const override { return "SparseMatrixBuilderType"; }
  std::string repr(Evaluator&) const override { return "ti.types.sparse_matrix_builder()"; }
};

struct BuilderObj : HostObj {
  int64_t rows = 0, cols = 0, cap = 0;
  Prim dtype = Prim::f32;
  std::shared_ptr<NpArrayObj> ij, v, count;  // i32[2 cap], f64[cap], i32[1]
  std::string type_name() const override { return "SparseMatrixBuilder"; }
  std::string repr(Evaluator&) const override {
    return "<SparseMatrixBuilder " + std::to_string(rows) + "x" + std::to_string(cols) + ">";
  }
  int32_t added() const { return *(const int32_t*)count->data(); }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
};

struct MatrixObj : HostObj {
  linalg::MatrixPtr m;
  Prim dtype = Prim::f32;
  std::string type_name() const override { return "SparseMatrix"; }
  std::string repr(Evaluator&) const override { return linalg::to_string(*m); }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) override;
  bool set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) override;
};

struct SolverObj : HostObj {
  std::shared_ptr<linalg::Solver> s;
  Prim dtype = Prim::f32;
  int64_t n = -1;
  std::string type_name() const override { return "SparseSolver"; }
  std::string repr(Evaluator&) const override { return "<SparseSolver>"; }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
};

template <class T>
T* as(const Value& v) {
  return v.kind == Kind::Host ? dynamic_cast<T*>(static_cast<HostObj*>(v.obj.get())) : nullptr;
}

Prim value_dtype(Evaluator& ev, const Value& v, const char* what, SourceLoc loc) {
  Prim p = v.is_none() ? Prim::f32 : dtype_prim(ev, v, loc);
  if (p != Prim::f32 && p != Prim::f64)
    raise("TypeError", std::string(what) + " holds f32 or f64 values, not " + std::string(prim_name(p)), loc);
  return p;
}

void check_storage(Evaluator& ev, const Value& v, SourceLoc loc) {
  if (v.is_none()) return;
  std::string s = v.kind == Kind::Str ? ev.str(v) : "";
  if (s != "col_major" && s != "row_major")
    raise("RuntimeError", "storage_format must be 'col_major' or 'row_major', not " + ev.repr(v), loc);
}

Value kw_or(CallArgs& a, size_t pos, const char* name) {
  Value v;
  if (a.take_kw(name, v)) return v;
  return pos < a.pos.size() ? a.pos[pos] : Value();
}

Value wrap(linalg::MatrixPtr m, Prim dt) {
  auto o = std::make_shared<MatrixObj>();
  o->m = dt == Prim::f32 ? linalg::rounded_f32(*m) : std::move(m);
  o->dtype = dt;
  return Value::of(o);
}

// A 1-D right-hand side (numpy array, ti.ndarray or a list) as doubles; `nd`
// says whether it was a ti.ndarray (the result is one too).
std::vector<double> vector_arg(Evaluator& ev, const Value& v, int64_t n, const std::string& what, SourceLoc loc, bool* nd) {
  int ndim = 0, elem = 0;
  std::shared_ptr<NpArrayObj> arr = ndarray_storage(v, &ndim, &elem);
  *nd = arr != nullptr;
  if (arr && (ndim != 1 || elem)) raise("RuntimeError", what + " must be a 1-D ti.ndarray of scalars", loc);
  if (!arr) {
    if (!np_as(v) && v.kind != Kind::List && v.kind != Kind::Tuple)
      raise("RuntimeError", "The parameter type: " + ev.type_name(v) + " is not supported in linear solvers for now.", loc);
    arr = np_from_value(ev, v, false, Prim::none, loc);
  }
  if (arr->ndim() != 1 || arr->shape[0] != n)
    raise("RuntimeError", "Dimension mismatch: " + what + " has shape " + np_shape_str(arr->shape) + ", the matrix needs (" +
                              std::to_string(n) + ",)", loc);
  auto d = np_copy(ev, *arr, Prim::f64, loc);
  const double* p = (const double*)d->data();
  return std::vector<double>(p, p + n);
}

Value vector_result(Evaluator& ev, const std::vector<double>& x, Prim dt, bool nd, SourceLoc loc) {
  auto d = np_new(Prim::f64, {(int64_t)x.size()});
  std::copy(x.begin(), x.end(), (double*)d->data());
  if (!nd) return Value::of(dt == Prim::f64 ? d : np_copy(ev, *d, dt, loc));
  Value r = ndarray_new(ev, dt, Value::integer((int64_t)x.size()), 0, 0, loc);
  int ndim = 0, elem = 0;
  np_assign(ev, *ndarray_storage(r, &ndim, &elem), *d, loc);
  return r;
}

bool BuilderObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc, Value& out) {
  auto me = std::static_pointer_cast<BuilderObj>(self.obj);
  if (name == "num_triplets") {
    out = Value::integer(std::min<int64_t>(added(), cap));
  } else if (name == "build") {
    out = make_builtin("build", [me](Evaluator& ev, CallArgs& a) {
      Value dt = kw_or(a, 0, "dtype");
      Value fmt;
      a.take_kw("_format", fmt);
      Prim p = dt.is_none() ? me->dtype : value_dtype(ev, dt, "a sparse matrix", a.loc);
      int64_t n = me->added();
      if (n > me->cap)
        raise("RuntimeError", "too many triplets: kernels added " + std::to_string(n) +
                                  " to a SparseMatrixBuilder made with max_num_triplets=" + std::to_string(me->cap) +
                                  " (the last " + std::to_string(n - me->cap) + " were dropped)", a.loc);
      auto m = linalg::from_triplets(me->rows, me->cols, (const int32_t*)me->ij->data(), (const double*)me->v->data(), n,
                                     p == Prim::f32);
      *(int32_t*)me->count->data() = 0;  // as Taichi's: the builder starts empty again
      return wrap(m, p);
    });
  } else if (name == "print_triplets") {
    out = make_builtin("print_triplets", [me](Evaluator& ev, CallArgs&) {
      int64_t n = std::min<int64_t>(me->added(), me->cap);
      std::string s = "n=" + std::to_string(me->rows) + ", m=" + std::to_string(me->cols) + ", num_triplets=" +
                      std::to_string(n) + " (max=" + std::to_string(me->cap) + ")\n";
      const int32_t* ij = (const int32_t*)me->ij->data();
      const double* v = (const double*)me->v->data();
      for (int64_t k = 0; k < n; k++) {
        Value x = Value::floating(me->dtype == Prim::f32 ? (double)(float)v[k] : v[k]);
        s += "[" + std::to_string(ij[2 * k]) + ", " + std::to_string(ij[2 * k + 1]) + "] = " +
             (me->dtype == Prim::f32 ? np_scalar_str(ev, Prim::f32, x) : ev.str(x)) + "\n";
      }
      ev.out(s);
      return Value();
    });
  } else {
    return false;
  }
  return true;
}

void same_shape(const MatrixObj& a, const Value& b, const char* op, SourceLoc loc) {
  auto* o = as<MatrixObj>(b);
  if (!o) raise("TypeError", std::string("sparse matrix '") + op + "' needs another SparseMatrix", loc);
  if (linalg::rows(*a.m) != linalg::rows(*o->m) || linalg::cols(*a.m) != linalg::cols(*o->m))
    raise("RuntimeError", "Dimension mismatch between sparse matrices (" + std::to_string(linalg::rows(*a.m)) + ", " +
                              std::to_string(linalg::cols(*a.m)) + ") and (" + std::to_string(linalg::rows(*o->m)) + ", " +
                              std::to_string(linalg::cols(*o->m)) + ") in '" + op + "'", loc);
}

Prim result_dtype(const MatrixObj& a, const Value& b) {
  auto* o = as<MatrixObj>(b);
  return a.dtype == Prim::f64 || (o && o->dtype == Prim::f64) ? Prim::f64 : Prim::f32;
}

Value matmul(Evaluator& ev, const MatrixObj& a, const Value& b, SourceLoc loc) {
  int64_t n = linalg::rows(*a.m), m = linalg::cols(*a.m);
  if (auto* o = as<MatrixObj>(b)) {
    if (m != linalg::rows(*o->m))
      raise("RuntimeError", "Dimension mismatch between sparse matrices (" + std::to_string(n) + ", " + std::to_string(m) +
                                ") and (" + std::to_string(linalg::rows(*o->m)) + ", " + std::to_string(linalg::cols(*o->m)) +
                                ") in '@'", loc);
    return wrap(linalg::matmul(*a.m, *o->m), result_dtype(a, b));
  }
  int ndim = 0, elem = 0;
  auto nd = ndarray_storage(b, &ndim, &elem);
  NpArrayObj* arr = nd ? nd.get() : np_as(b);
  if (!arr) {
    Value tn;
    if (!ev.try_get_attr(b, "to_numpy", loc, tn) || b.kind != Kind::Host)
      raise("RuntimeError", "Sparse matrix-matrix/vector multiplication does not support " + ev.type_name(b) +
                                ": use a SparseMatrix, a numpy array, a ti.ndarray or a field", loc);
    Value v = ev.call(tn, {}, loc);  // a field
    return matmul(ev, a, v, loc);
  }
  if (arr->ndim() != 1 || arr->shape[0] != m || elem)
    raise("RuntimeError", "Dimension mismatch between sparse matrix (" + std::to_string(n) + ", " + std::to_string(m) +
                              ") and vector " + np_shape_str(arr->shape), loc);
  auto x = np_copy(ev, *arr, Prim::f64, loc);
  std::vector<double> y((size_t)n);
  linalg::matvec(*a.m, (const double*)x->data(), y.data());
  return vector_result(ev, y, nd ? arr->dtype : a.dtype, nd != nullptr, loc);
}

bool MatrixObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  auto me = std::static_pointer_cast<MatrixObj>(self.obj);
  int64_t n = linalg::rows(*m), mm = linalg::cols(*m);
  auto def = [&](const char* nm, std::function<Value(Evaluator&, CallArgs&)> fn) {
    out = make_builtin(nm, std::move(fn));
    return true;
  };
  if (name == "shape") {
    out = Value::of(std::make_shared<TupleObj>(std::vector<Value>{Value::integer(n), Value::integer(mm)}));
    return true;
  }
  if (name == "n" || name == "m") {
    out = Value::integer(name == "n" ? n : mm);
    return true;
  }
  if (name == "dtype") {
    out = Value::of(std::make_shared<DTypeObj>(dtype));
    return true;
  }
  if (name == "transpose") return def("transpose", [me](Evaluator&, CallArgs&) { return wrap(linalg::transpose(*me->m), me->dtype); });
  if (name == "num_nonzeros") return def("num_nonzeros", [me](Evaluator&, CallArgs&) { return Value::integer(linalg::nonzeros(*me->m)); });
  if (name == "to_numpy")
    return def("to_numpy", [me](Evaluator& ev, CallArgs& a) {
      auto d = np_new(Prim::f64, {linalg::rows(*me->m), linalg::cols(*me->m)});
      linalg::to_dense(*me->m, (double*)d->data());
      return Value::of(me->dtype == Prim::f64 ? d : np_copy(ev, *d, me->dtype, a.loc));
    });
  if (name == "build_from_ndarray")
    return def("build_from_ndarray", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "build_from_ndarray", 1, 1);
      int ndim = 0, elem = 0;
      auto arr = ndarray_storage(a.pos[0], &ndim, &elem);
      if (!arr)
        raise("RuntimeError", "Sparse matrix only supports building from [ti.ndarray, ti.Vector.ndarray, ti.Matrix.ndarray]", a.loc);
      if (arr->size() % 3)
        raise("RuntimeError", "The number of ndarray elements must have a length that is divisible by 3.", a.loc);
      auto d = np_copy(ev, *arr, Prim::f64, a.loc);
      const double* t = (const double*)d->data();
      int64_t count = arr->size() / 3;
      std::vector<int32_t> ij((size_t)(2 * count));
      std::vector<double> v((size_t)count);
      for (int64_t k = 0; k < count; k++) {
        ij[(size_t)(2 * k)] = (int32_t)t[3 * k];
        ij[(size_t)(2 * k + 1)] = (int32_t)t[3 * k + 1];
        v[(size_t)k] = t[3 * k + 2];
      }
      me->m = linalg::from_triplets(linalg::rows(*me->m), linalg::cols(*me->m), ij.data(), v.data(), count, me->dtype == Prim::f32);
      return Value();
    });
  if (name == "__add__" || name == "__sub__")
    return def(name.c_str(), [me, name](Evaluator&, CallArgs& a) {
      expect_args(a, name.c_str(), 1, 1);
      same_shape(*me, a.pos[0], name == "__add__" ? "+" : "-", a.loc);
      return wrap(linalg::axpby(1.0, *me->m, name == "__add__" ? 1.0 : -1.0, *as<MatrixObj>(a.pos[0])->m),
                  result_dtype(*me, a.pos[0]));
    });
  if (name == "__neg__") return def("__neg__", [me](Evaluator&, CallArgs&) { return wrap(linalg::scaled(*me->m, -1.0), me->dtype); });
  if (name == "__mul__" || name == "__rmul__")
    return def(name.c_str(), [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "__mul__", 1, 1);
      const Value& b = a.pos[0];
      if (b.kind == Kind::Int || b.kind == Kind::Float) return wrap(linalg::scaled(*me->m, b.as_double()), me->dtype);
      if (as<MatrixObj>(b)) {
        same_shape(*me, b, "*", a.loc);
        return wrap(linalg::hadamard(*me->m, *as<MatrixObj>(b)->m), result_dtype(*me, b));
      }
      raise("TypeError", "a SparseMatrix multiplies a number or another SparseMatrix, not " + ev.type_name(b), a.loc);
    });
  if (name == "__matmul__")
    return def("__matmul__", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "__matmul__", 1, 1);
      return matmul(ev, *me, a.pos[0], a.loc);
    });
  (void)ev;
  (void)loc;
  return false;
}

std::pair<int64_t, int64_t> index_pair(Evaluator& ev, const Value& key, SourceLoc loc) {
  std::vector<Value> k = key.kind == Kind::Tuple ? ev.to_vector(key, loc) : std::vector<Value>{};
  if (k.size() != 2 || !k[0].is_int_like() || !k[1].is_int_like())
    raise("RuntimeError", "a sparse matrix is indexed with [row, col], not [" + ev.repr(key) + "]", loc);
  return {k[0].as_int(), k[1].as_int()};
}

bool MatrixObj::get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) {
  auto [i, j] = index_pair(ev, key, loc);
  double v = linalg::get(*m, i, j);
  out = Value::floating(dtype == Prim::f32 ? (double)(float)v : v);
  return true;
}

bool MatrixObj::set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) {
  auto [i, j] = index_pair(ev, key, loc);
  if (!v.is_number()) raise("TypeError", "a sparse matrix element takes a number, not " + ev.type_name(v), loc);
  linalg::set(*m, i, j, dtype == Prim::f32 ? (double)(float)v.as_double() : v.as_double());
  return true;
}

MatrixObj& matrix_arg(Evaluator& ev, const Value& v, SourceLoc loc) {
  auto* o = as<MatrixObj>(v);
  if (!o) raise("RuntimeError", "The parameter type: " + ev.type_name(v) + " is not supported in linear solvers for now.", loc);
  if (linalg::rows(*o->m) != linalg::cols(*o->m))
    raise("RuntimeError", "a sparse solver needs a square matrix, got " + std::to_string(linalg::rows(*o->m)) + "x" +
                              std::to_string(linalg::cols(*o->m)), loc);
  return *o;
}

bool SolverObj::get_attr(Evaluator&, const Value& self, const std::string& name, SourceLoc, Value& out) {
  auto me = std::static_pointer_cast<SolverObj>(self.obj);
  if (name == "analyze_pattern" || name == "factorize" || name == "compute") {
    out = make_builtin(name, [me, name](Evaluator& ev, CallArgs& a) {
      expect_args(a, name.c_str(), 1, 1);
      MatrixObj& A = matrix_arg(ev, a.pos[0], a.loc);
      if (name != "factorize") linalg::analyze_pattern(*me->s, *A.m);
      if (name != "analyze_pattern") linalg::factorize(*me->s, *A.m);
      me->n = linalg::rows(*A.m);
      return Value();
    });
  } else if (name == "solve") {
    out = make_builtin("solve", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "solve", 1, 1);
      if (me->n < 0) raise("RuntimeError", "solve: call analyze_pattern() and factorize() (or compute()) first", a.loc);
      bool nd = false;
      std::vector<double> b = vector_arg(ev, a.pos[0], me->n, "the right-hand side", a.loc, &nd);
      std::vector<double> x(b.size());
      linalg::solve(*me->s, b.data(), (int64_t)b.size(), x.data());
      return vector_result(ev, x, me->dtype, nd, a.loc);
    });
  } else if (name == "info") {
    out = make_builtin("info", [me](Evaluator&, CallArgs&) { return Value::boolean(linalg::info(*me->s)); });
  } else {
    return false;
  }
  return true;
}

Value make_builder(Evaluator& ev, CallArgs& a) {
  Value r = kw_or(a, 0, "num_rows"), c = kw_or(a, 1, "num_cols"), t = kw_or(a, 2, "max_num_triplets");
  Value dt = kw_or(a, 3, "dtype"), fmt = kw_or(a, 4, "storage_format");
  if (!r.is_int_like() || !c.is_int_like() || r.as_int() < 0 || c.as_int() < 0)
    raise("RuntimeError", "SparseMatrixBuilder needs non-negative integer sizes, got num_rows=" + ev.repr(r) +
                              ", num_cols=" + ev.repr(c), a.loc);
  if (!t.is_int_like() || t.as_int() < 0 || t.as_int() >= (1 << 30))
    raise("RuntimeError", "max_num_triplets must be an integer in [0, 2**30), got " + ev.repr(t), a.loc);
  auto b = std::make_shared<BuilderObj>();
  b->rows = r.as_int();
  b->cols = c.as_int();
  b->cap = t.as_int();
  b->dtype = value_dtype(ev, dt, "a sparse matrix builder", a.loc);
  check_storage(ev, fmt, a.loc);
  b->ij = np_new(Prim::i32, {2 * b->cap});
  b->v = np_new(Prim::f64, {b->cap});
  b->count = np_new(Prim::i32, {1});
  return Value::of(b);
}

Value new_sparse_matrix(Evaluator& ev, CallArgs& a) {
  Value n = kw_or(a, 0, "n"), m = kw_or(a, 1, "m"), dt = kw_or(a, 2, "dtype"), fmt = kw_or(a, 3, "storage_format");
  if (!n.is_int_like() || !m.is_int_like() || n.as_int() < 0 || m.as_int() < 0)
    raise("RuntimeError", "a sparse matrix needs a non-negative integer shape, got n=" + ev.repr(n) + ", m=" + ev.repr(m), a.loc);
  check_storage(ev, fmt, a.loc);
  return wrap(linalg::zeros(n.as_int(), m.as_int()), value_dtype(ev, dt, "a sparse matrix", a.loc));
}

Value make_solver(Evaluator& ev, CallArgs& a) {
  Value dt = kw_or(a, 0, "dtype"), kind = kw_or(a, 1, "solver_type"), ord = kw_or(a, 2, "ordering");
  std::string k = kind.is_none() ? "LLT" : ev.str(kind), o = ord.is_none() ? "AMD" : ev.str(ord);
  if (k != "LLT" && k != "LDLT" && k != "LU")
    raise("RuntimeError", "solver_type must be 'LLT', 'LDLT' or 'LU', not " + ev.repr(kind), a.loc);
  if (o != "AMD" && o != "COLAMD" && o != "NATURAL")
    raise("RuntimeError", "ordering must be 'AMD', 'COLAMD' or 'NATURAL', not " + ev.repr(ord), a.loc);
  auto s = std::make_shared<SolverObj>();
  s->dtype = value_dtype(ev, dt, "a sparse solver", a.loc);
  s->s = linalg::make_solver(k == "LLT" ? linalg::SolverKind::llt : k == "LDLT" ? linalg::SolverKind::ldlt : linalg::SolverKind::lu, o);
  return Value::of(s);
}

// SparseCG(A, b, x0=None, max_iter=50, atol=1e-6): an object whose solve() gives (x, converged).
Value make_cg(Evaluator& ev, CallArgs& a) {
  Value A = kw_or(a, 0, "A"), b = kw_or(a, 1, "b"), x0 = kw_or(a, 2, "x0"), it = kw_or(a, 3, "max_iter"), tol = kw_or(a, 4, "atol");
  auto* m = as<MatrixObj>(A);
  if (!m) raise("RuntimeError", "SparseCG needs a SparseMatrix, got " + ev.type_name(A), a.loc);
  int64_t n = linalg::rows(*m->m);
  if (n != linalg::cols(*m->m))
    raise("RuntimeError", "SparseCG needs a square matrix, got " + std::to_string(n) + "x" + std::to_string(linalg::cols(*m->m)), a.loc);
  bool nd = false, nd0 = false;
  auto rhs = std::make_shared<std::vector<double>>(vector_arg(ev, b, n, "b", a.loc, &nd));
  auto x = std::make_shared<std::vector<double>>(x0.is_none() ? std::vector<double>((size_t)n) : vector_arg(ev, x0, n, "x0", a.loc, &nd0));
  int max_iter = it.is_none() ? 50 : (int)it.as_int();
  double atol = tol.is_none() ? 1e-6 : tol.as_double();
  auto mat = m->m;
  Prim dt = m->dtype;
  auto solver = std::make_shared<ModuleObj>();
  solver->name = "SparseCG";
  solver->attrs["solve"] = make_builtin("solve", [=](Evaluator& ev, CallArgs& c) {
    std::vector<double> out = *x;
    bool ok = linalg::conjugate_gradient(*mat, rhs->data(), out.data(), max_iter, atol);
    return Value::of(std::make_shared<TupleObj>(std::vector<Value>{vector_result(ev, out, dt, nd, c.loc), Value::boolean(ok)}));
  });
  return Value::of(solver);
}

}  // namespace

bool is_builder_type(const Value& ann) { return as<BuilderTypeObj>(ann) != nullptr; }

void builder_arg(Evaluator& ev, const Value& v, const std::string& pname, SourceLoc loc, std::vector<uint64_t>& slots) {
  auto* b = as<BuilderObj>(v);
  if (!b) raise("TypeError", "argument '" + pname + "' takes a ti.linalg.SparseMatrixBuilder, not '" + ev.type_name(v) + "'", loc);
  for (auto* arr : {b->ij.get(), b->v.get(), b->count.get()}) {
    slots.push_back((uint64_t)(uintptr_t)arr->data());
    slots.push_back((uint64_t)arr->shape[0]);
  }
}

void install_ti_linalg(Evaluator&, ModuleObj& ti, ModuleObj& types) {
  Value anno = Value::of(std::make_shared<BuilderTypeObj>());
  auto anno_fn = [anno](Evaluator&, CallArgs&) { return anno; };
  types.attrs["sparse_matrix_builder"] = make_builtin("ti.types.sparse_matrix_builder", anno_fn);
  auto m = std::make_shared<ModuleObj>();
  m->name = "taichi.linalg";
  m->attrs["sparse_matrix_builder"] = make_builtin("ti.linalg.sparse_matrix_builder", anno_fn);
  m->attrs["SparseMatrixBuilder"] = make_builtin("ti.linalg.SparseMatrixBuilder", make_builder);
  m->attrs["SparseMatrix"] = make_builtin("ti.linalg.SparseMatrix", new_sparse_matrix);
  m->attrs["SparseSolver"] = make_builtin("ti.linalg.SparseSolver", make_solver);
  m->attrs["SparseCG"] = make_builtin("ti.linalg.SparseCG", make_cg);
  ti.attrs["linalg"] = Value::of(m);
}

}  // namespace kiln::host
