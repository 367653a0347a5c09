// Methods of host matrices (dot, cross, norm, transpose, determinant,
// inverse, reductions, @) and their operator dunders. Each follows the
// order of operations of Taichi's matrix_ops.py, which runs them on numpy
// scalars in Python scope, so float results match bit for bit.
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/host/ti_compound.h"

namespace kiln::host {

using ast::BinOpKind;

Prim matrix_dtype(const MatrixObj& mo, SourceLoc loc);
std::vector<int64_t> matrix_shape(const MatrixObj& mo);
Value np_scalar_op(Evaluator& ev, BinOpKind op, const Value& x, const Value& y, Prim ct, SourceLoc loc);
bool matrix_binop(Evaluator& ev, BinOpKind op, const Value& a, const Value& b, SourceLoc loc, Value& out);
Value matrix_unop(Evaluator& ev, const MatrixObj& mo, char op, SourceLoc loc);
Value construct_matrix(Evaluator& ev, CallArgs& a, bool vector);

namespace {

// numpy scalars of two dtypes promote as arrays do
Prim promote2(Prim a, Prim b) { return np_promote(a, b); }

// A numpy scalar: a value and its dtype.
struct S {
  Value v;
  Prim t;
};

struct Ctx {
  Evaluator& ev;
  SourceLoc loc;
  S op(BinOpKind k, const S& a, const S& b) const {
    Prim ct = promote2(a.t, b.t);
    Prim rt = k == BinOpKind::Div && !prim_is_float(ct) ? Prim::f64 : ct;
    if (rt == Prim::none) rt = Prim::i64;
    return {np_scalar_op(ev, k, a.v, b.v, ct, loc), rt};
  }
  S add(const S& a, const S& b) const { return op(BinOpKind::Add, a, b); }
  S sub(const S& a, const S& b) const { return op(BinOpKind::Sub, a, b); }
  S mul(const S& a, const S& b) const { return op(BinOpKind::Mult, a, b); }
  // A Python int/float combined with a numpy scalar (weak: keeps the scalar's dtype).
  S weak(const Value& py, const S& like) const {
    Prim t = like.t == Prim::none ? Prim::i64 : like.t;
    if (py.kind == Kind::Float && !prim_is_float(t)) t = Prim::f64;
    return {np_cast(ev, py, t, loc), t};
  }
};

[[noreturn]] void compilation_error(const std::string& msg, SourceLoc loc) { raise("TaichiCompilationError", msg, loc); }

std::string shape_str(const std::vector<int64_t>& s) {
  std::string r = "(";
  for (size_t k = 0; k < s.size(); k++) r += (k ? ", " : "") + std::to_string(s[k]);
  return r + (s.size() == 1 ? ",)" : ")");
}

struct M {
  std::vector<int64_t> shape;
  std::vector<S> e;
  S at(int64_t i, int64_t j) const { return e[(size_t)(i * shape[1] + j)]; }
  S E(int64_t i, int64_t j, int64_t n) const { return at(i % n, j % n); }  // matrix_ops.E
};

M load(const MatrixObj& mo, SourceLoc loc) {
  M r;
  r.shape = matrix_shape(mo);
  Prim t = matrix_dtype(mo, loc);
  for (auto& v : mo.values(loc)) r.e.push_back({v, t});
  return r;
}

Value build(Evaluator& ev, const std::vector<int64_t>& shape, const std::vector<S>& e, SourceLoc loc) {
  // np.array of numpy scalars: their promoted dtype
  Prim t = e.empty() ? Prim::f64 : e[0].t;
  for (auto& s : e) t = promote2(t, s.t);
  std::vector<Value> vals;
  for (auto& s : e) vals.push_back(s.v);
  if (shape.size() == 1) return make_matrix(ev, (int)shape[0], 1, 1, t, std::move(vals), loc);
  return make_matrix(ev, (int)shape[0], (int)shape[1], 2, t, std::move(vals), loc);
}

MatrixObj& want_matrix(Evaluator& ev, const Value& v, const char* msg, SourceLoc loc) {
  auto* mo = host_as<MatrixObj>(v);
  if (!mo) compilation_error(std::string(msg) + "<class '" + ev.type_name(v) + "'>", loc);
  return *mo;
}

void need_vector(const M& m, const char* msg, SourceLoc loc) {
  if (m.shape.size() != 1) compilation_error(std::string(msg) + "<class 'taichi.lang.matrix.Matrix'>", loc);
}

void need_square(const M& m, SourceLoc loc) {
  if (m.shape.size() != 2 || m.shape[0] != m.shape[1]) compilation_error("expected a square matrix, got shape " + shape_str(m.shape), loc);
}

S reduce(const Ctx& c, const M& m, BinOpKind k) {
  S r = m.e[0];
  for (size_t i = 1; i < m.e.size(); i++) r = c.op(k, r, m.e[i]);
  return r;
}

S sum(const Ctx& c, const M& m) { return reduce(c, m, BinOpKind::Add); }

M elementwise_mul(const Ctx& c, const M& a, const M& b) {
  M r;
  r.shape = a.shape;
  for (size_t i = 0; i < a.e.size(); i++) r.e.push_back(c.mul(a.e[i], b.e[i]));
  return r;
}

S dot(const Ctx& c, const M& a, const M& b) {
  if (a.shape != b.shape) {
    // numpy's broadcast error, as vec_x * vec_y raises it
    raise("ValueError", "operands could not be broadcast together with shapes " + shape_str(a.shape) + " " + shape_str(b.shape), c.loc);
  }
  return sum(c, elementwise_mul(c, a, b));
}

S sqrt_of(const Ctx& c, const S& x) {
  Prim t = prim_is_float(x.t) ? x.t : Prim::f64;
  return {np_cast(c.ev, Value::floating(std::sqrt(x.v.as_double())), t, c.loc), t};
}

S determinant(const Ctx& c, const M& m) {
  need_square(m, c.loc);
  int64_t n = m.shape[0];
  if (n >= 5) compilation_error("only dimension < 5 is supported, got shape " + shape_str(m.shape), c.loc);
  if (n == 1) return m.at(0, 0);
  if (n == 2) return c.sub(c.mul(m.at(0, 0), m.at(1, 1)), c.mul(m.at(0, 1), m.at(1, 0)));
  if (n == 3) {
    auto minor = [&](int a, int b, int d, int e) { return c.sub(c.mul(m.at(a / 10, a % 10), m.at(b / 10, b % 10)), c.mul(m.at(d / 10, d % 10), m.at(e / 10, e % 10))); };
    S t0 = c.mul(m.at(0, 0), minor(11, 22, 21, 12));
    S t1 = c.mul(m.at(1, 0), minor(1, 22, 21, 2));
    S t2 = c.mul(m.at(2, 0), minor(1, 12, 11, 2));
    return c.add(c.sub(t0, t1), t2);
  }
  S det = c.mul(m.at(0, 0), c.weak(Value::integer(0), m.at(0, 0)));
  for (int i = 0; i < 4; i++) {
    auto E = [&](int x, int y) { return m.E(x, y, 4); };
    S inner = c.add(c.sub(c.mul(E(i + 1, 1), c.sub(c.mul(E(i + 2, 2), E(i + 3, 3)), c.mul(E(i + 3, 2), E(i + 2, 3)))),
                          c.mul(E(i + 2, 1), c.sub(c.mul(E(i + 1, 2), E(i + 3, 3)), c.mul(E(i + 3, 2), E(i + 1, 3))))),
                    c.mul(E(i + 3, 1), c.sub(c.mul(E(i + 1, 2), E(i + 2, 3)), c.mul(E(i + 2, 2), E(i + 1, 3)))));
    S term = c.mul(m.at(i, 0), inner);
    det = c.add(det, c.mul(c.weak(Value::integer(i % 2 ? -1 : 1), term), term));
  }
  return det;
}

Value inverse(const Ctx& c, const M& m) {
  need_square(m, c.loc);
  int64_t n = m.shape[0];
  if (n >= 5) compilation_error("only dimension < 5 is supported, got shape " + shape_str(m.shape), c.loc);
  auto div_into = [&](const S& x) {  // 1.0 / x
    S one = c.weak(Value::floating(1.0), x);
    return c.op(BinOpKind::Div, one, x);
  };
  if (n == 1) return build(c.ev, {1, 1}, {div_into(m.at(0, 0))}, c.loc);
  S inv = div_into(determinant(c, m));
  std::vector<S> adj;
  auto neg = [&](const S& x) { return c.mul(c.weak(Value::integer(-1), x), x); };
  if (n == 2) {
    adj = {m.at(1, 1), neg(m.at(0, 1)), neg(m.at(1, 0)), m.at(0, 0)};
  } else if (n == 3) {
    for (int j = 0; j < 3; j++)
      for (int i = 0; i < 3; i++)
        adj.push_back(c.sub(c.mul(m.E(i + 1, j + 1, 3), m.E(i + 2, j + 2, 3)), c.mul(m.E(i + 2, j + 1, 3), m.E(i + 1, j + 2, 3))));
  } else {
    for (int j = 0; j < 4; j++)
      for (int i = 0; i < 4; i++) {
        auto E = [&](int x, int y) { return m.E(x, y, 4); };
        S t = c.add(c.sub(c.mul(E(i + 1, j + 1), c.sub(c.mul(E(i + 2, j + 2), E(i + 3, j + 3)), c.mul(E(i + 3, j + 2), E(i + 2, j + 3)))),
                          c.mul(E(i + 2, j + 1), c.sub(c.mul(E(i + 1, j + 2), E(i + 3, j + 3)), c.mul(E(i + 3, j + 2), E(i + 1, j + 3))))),
                    c.mul(E(i + 3, j + 1), c.sub(c.mul(E(i + 1, j + 2), E(i + 2, j + 3)), c.mul(E(i + 2, j + 2), E(i + 1, j + 3)))));
        adj.push_back(c.mul(c.weak(Value::integer((i + j) % 2 ? -1 : 1), t), t));
      }
  }
  // inv_determinant * Matrix(adj): the adjugate is an array of the matrix's dtype
  Prim at = m.e[0].t;
  for (auto& s : adj) s.t = at;
  std::vector<S> out;
  for (auto& s : adj) out.push_back(c.mul(inv, s));
  return build(c.ev, m.shape, out, c.loc);
}

Value matmul(const Ctx& c, const M& x, const M& y) {
  auto mismatch = [&](const M& a, const M& b, const char* what) {
    compilation_error("dimension mismatch between " + shape_str(a.shape) + " and " + shape_str(b.shape) + " for " + what, c.loc);
  };
  if (x.shape.size() == 1 && y.shape.size() == 1) {
    S d = dot(c, x, y);
    return d.v;
  }
  const M* a = &x;
  const M* b = &y;
  M t;
  if (x.shape.size() == 1) {  // vector @ matrix: transpose(matrix) @ vector
    t.shape = {y.shape[1], y.shape[0]};
    for (int64_t j = 0; j < y.shape[1]; j++)
      for (int64_t i = 0; i < y.shape[0]; i++) t.e.push_back(y.at(i, j));
    a = &t;
    b = &x;
  }
  if (a->shape[1] != b->shape[0]) mismatch(*a, *b, "matrix multiplication");
  if (b->shape.size() == 1) {
    S zero = c.mul(c.mul(a->at(0, 0), b->e[0]), c.weak(Value::integer(0), c.mul(a->at(0, 0), b->e[0])));
    std::vector<S> z((size_t)a->shape[0], zero);
    for (int64_t i = 0; i < a->shape[0]; i++)
      for (int64_t j = 0; j < a->shape[1]; j++) z[(size_t)i] = {np_cast(c.ev, c.add(z[(size_t)i], c.mul(a->at(i, j), b->e[(size_t)j])).v, zero.t, c.loc), zero.t};
    return build(c.ev, {a->shape[0]}, z, c.loc);
  }
  S zero = c.mul(c.mul(a->at(0, 0), b->at(0, 0)), c.weak(Value::integer(0), c.mul(a->at(0, 0), b->at(0, 0))));
  std::vector<S> z((size_t)(a->shape[0] * b->shape[1]), zero);
  for (int64_t i = 0; i < a->shape[0]; i++)
    for (int64_t j = 0; j < b->shape[1]; j++)
      for (int64_t k = 0; k < a->shape[1]; k++) {
        S& cell = z[(size_t)(i * b->shape[1] + j)];
        cell = {np_cast(c.ev, c.add(cell, c.mul(a->at(i, k), b->at(k, j))).v, zero.t, c.loc), zero.t};
      }
  return build(c.ev, {a->shape[0], b->shape[1]}, z, c.loc);
}

}  // namespace

bool matrix_method(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  auto me = self.ptr<MatrixObj>();
  auto method = [&](auto fn) {
    out = make_builtin("Matrix." + name, [me, fn](Evaluator& ev, CallArgs& a) -> Value {
      Ctx c{ev, a.loc};
      return fn(c, *me, a);
    });
    return true;
  };
  static const std::pair<const char*, BinOpKind> binops[] = {
      {"add", BinOpKind::Add}, {"sub", BinOpKind::Sub}, {"mul", BinOpKind::Mult}, {"truediv", BinOpKind::Div},
      {"floordiv", BinOpKind::FloorDiv}, {"mod", BinOpKind::Mod}, {"pow", BinOpKind::Pow}, {"and", BinOpKind::BitAnd},
      {"or", BinOpKind::BitOr}, {"xor", BinOpKind::BitXor}, {"lshift", BinOpKind::LShift}, {"rshift", BinOpKind::RShift}};
  for (auto& [n, op] : binops) {
    bool fwd = name == std::string("__") + n + "__", rev = name == std::string("__r") + n + "__";
    if (!fwd && !rev) continue;
    BinOpKind k = op;
    return method([k, rev, self](Ctx& c, MatrixObj&, CallArgs& a) -> Value {
      expect_args(a, "operator", 1, 1);
      Value r;
      bool ok = rev ? matrix_binop(c.ev, k, a.pos[0], self, c.loc, r) : matrix_binop(c.ev, k, self, a.pos[0], c.loc, r);
      return ok ? r : c.ev.builtins["NotImplemented"];
    });
  }
  if (name == "__matmul__" || name == "__rmatmul__") {
    bool rev = name == "__rmatmul__";
    return method([rev, self](Ctx& c, MatrixObj& m, CallArgs& a) -> Value {
      expect_args(a, "@", 1, 1);
      auto* o = host_as<MatrixObj>(a.pos[0]);
      if (!o) compilation_error(std::string(rev ? "left" : "right") + " hand side is not a matrix: <class '" + c.ev.type_name(a.pos[0]) + "'>", c.loc);
      return rev ? matmul(c, load(*o, c.loc), load(m, c.loc)) : matmul(c, load(m, c.loc), load(*o, c.loc));
    });
  }
  if (name == "__neg__" || name == "__invert__" || name == "__abs__" || name == "__pos__") {
    char op = name == "__neg__" ? '-' : name == "__invert__" ? '~' : name == "__abs__" ? 'a' : '+';
    return method([op](Ctx& c, MatrixObj& m, CallArgs&) { return matrix_unop(c.ev, m, op, c.loc); });
  }
  if (name == "__len__") return method([](Ctx&, MatrixObj& m, CallArgs&) { return Value::integer(m.n); });
  if (name == "to_list" || name == "tolist") {
    return method([](Ctx& c, MatrixObj& m, CallArgs&) {
      auto vals = m.values(c.loc);
      if (m.ndim == 1) return make_list(std::move(vals));
      std::vector<Value> rows;
      for (int i = 0; i < m.n; i++) rows.push_back(make_list(std::vector<Value>(vals.begin() + i * m.m, vals.begin() + (i + 1) * m.m)));
      return make_list(std::move(rows));
    });
  }
  if (name == "get_shape") {
    return method([](Ctx&, MatrixObj& m, CallArgs&) {
      std::vector<Value> s;
      for (auto d : matrix_shape(m)) s.push_back(Value::integer(d));
      return make_tuple(std::move(s));
    });
  }
  if (name == "sum" || name == "max" || name == "min") {
    char which = name[1];  // s[u]m, m[a]x, m[i]n
    return method([which](Ctx& c, MatrixObj& m, CallArgs&) -> Value {
      M x = load(m, c.loc);
      if (which == 'u') return sum(c, x).v;
      S r = x.e[0];
      for (size_t i = 1; i < x.e.size(); i++) {
        double a = r.v.as_double(), b = x.e[i].v.as_double();
        if (std::isnan(a)) break;
        if (std::isnan(b) || (which == 'a' ? b > a : b < a)) r = x.e[i];
      }
      return r.v;
    });
  }
  if (name == "any" || name == "all") {
    bool any = name == "any";
    return method([any](Ctx& c, MatrixObj& m, CallArgs&) {
      bool r = !any;
      for (auto& v : m.values(c.loc)) {
        bool nz = v.kind == Kind::Float ? v.f != 0 : v.as_int() != 0;
        if (any) r = r || nz;
        else r = r && nz;
      }
      return Value::boolean(r);
    });
  }
  if (name == "dot" || name == "cross" || name == "outer_product") {
    std::string n = name;
    return method([n](Ctx& c, MatrixObj& m, CallArgs& a) -> Value {
      expect_args(a, n.c_str(), 1, 1);
      M x = load(m, c.loc);
      need_vector(x, ("lhs for " + n + " is not a vector, got ").c_str(), c.loc);
      MatrixObj& o = want_matrix(c.ev, a.pos[0], ("rhs for " + n + " is not a vector, got ").c_str(), c.loc);
      M y = load(o, c.loc);
      need_vector(y, ("rhs for " + n + " is not a vector, got ").c_str(), c.loc);
      if (n == "dot") return dot(c, x, y).v;
      if (n == "outer_product") {
        std::vector<S> e;
        for (auto& p : x.e)
          for (auto& q : y.e) e.push_back(c.mul(p, q));
        return build(c.ev, {x.shape[0], y.shape[0]}, e, c.loc);
      }
      if (x.shape != y.shape) compilation_error("required shapes to be the same, got shapes [" + shape_str(x.shape) + ", " + shape_str(y.shape) + "]", c.loc);
      if (x.shape[0] >= 4) compilation_error("only dimension < 4 is supported, got shape " + shape_str(x.shape), c.loc);
      auto& u = x.e;
      auto& v = y.e;
      if (x.shape[0] == 2) return c.sub(c.mul(u[0], v[1]), c.mul(u[1], v[0])).v;
      if (x.shape[0] != 3) compilation_error("cross product needs 2-D or 3-D vectors, got shape " + shape_str(x.shape), c.loc);
      return build(c.ev, {3}, {c.sub(c.mul(u[1], v[2]), c.mul(u[2], v[1])), c.sub(c.mul(u[2], v[0]), c.mul(u[0], v[2])),
                               c.sub(c.mul(u[0], v[1]), c.mul(u[1], v[0]))}, c.loc);
    });
  }
  if (name == "norm_sqr" || name == "norm" || name == "norm_inv" || name == "normalized") {
    std::string n = name;
    return method([n](Ctx& c, MatrixObj& m, CallArgs& a) -> Value {
      Value eps = Value::floating(0.0);
      a.take_kw("eps", eps);
      if (!a.pos.empty()) eps = a.pos[0];
      M x = load(m, c.loc);
      S sq = sum(c, elementwise_mul(c, x, x));
      if (n == "norm_sqr") return sq.v;
      // normalized() takes norm() with its default eps, then adds its own
      S len = sqrt_of(c, c.add(sq, c.weak(n == "normalized" ? Value::floating(0.0) : eps, sq)));
      if (n == "norm") return len.v;
      if (n == "norm_inv") return c.op(BinOpKind::Div, c.weak(Value::integer(1), len), len).v;
      need_vector(x, "expected a vector, got ", c.loc);
      S base = c.add(len, c.weak(eps, len));
      S inv = c.op(BinOpKind::Div, c.weak(Value::integer(1), base), base);
      std::vector<S> e;
      for (auto& p : x.e) e.push_back(c.mul(inv, p));
      return build(c.ev, x.shape, e, c.loc);
    });
  }
  if (name == "transpose") {
    return method([](Ctx& c, MatrixObj& m, CallArgs&) {
      M x = load(m, c.loc);
      if (x.shape.size() == 1)
        compilation_error("`transpose()` cannot apply to a vector. If you want something like `a @ b.transpose()`, write `a.outer_product(b)` instead.", c.loc);
      std::vector<S> e;
      for (int64_t j = 0; j < x.shape[1]; j++)
        for (int64_t i = 0; i < x.shape[0]; i++) e.push_back(x.at(i, j));
      return build(c.ev, {x.shape[1], x.shape[0]}, e, c.loc);
    });
  }
  if (name == "trace") {
    return method([](Ctx& c, MatrixObj& m, CallArgs&) {
      M x = load(m, c.loc);
      need_square(x, c.loc);
      S r = x.at(0, 0);
      for (int64_t i = 1; i < x.shape[0]; i++) r = c.add(r, x.at(i, i));
      return r.v;
    });
  }
  if (name == "determinant") return method([](Ctx& c, MatrixObj& m, CallArgs&) { return determinant(c, load(m, c.loc)).v; });
  if (name == "inverse") return method([](Ctx& c, MatrixObj& m, CallArgs&) { return inverse(c, load(m, c.loc)); });
  if (name == "fill") {
    return method([](Ctx& c, MatrixObj& m, CallArgs& a) {
      expect_args(a, "fill", 1, 1);
      for (int64_t k = 0; k < m.size(); k++) m.set(c.ev, k, a.pos[0], c.loc);
      return Value();
    });
  }
  if (name == "cast") {
    return method([](Ctx& c, MatrixObj& m, CallArgs& a) {
      expect_args(a, "cast", 1, 1);
      Prim p = dtype_prim(c.ev, a.pos[0], c.loc);
      return make_matrix(c.ev, m.n, m.m, m.ndim, p, m.values(c.loc), c.loc);
    });
  }
  return false;
}

}  // namespace kiln::host
