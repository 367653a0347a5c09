// Methods and constructors of kernel vectors and matrices: v.norm(),
// m.inverse(), ti.Vector([...]), vec3(1, 2, 3), ti.Matrix.identity(...).
// Everything that mixes elements is expanded here into scalar IR.
#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::BinaryOp;
using ir::Stmt;
using ir::StmtKind;
using ir::UnaryOp;

namespace {

std::string shape_of(const Type& t) {
  if (t.rows == 0) return "a scalar";
  return t.cols ? "a " + std::to_string(t.rows) + "x" + std::to_string(t.cols) + " matrix"
                : "a " + std::to_string(t.rows) + "-vector";
}

}  // namespace

// Determinant of an n x n matrix given row-major elements, by cofactor
// expansion along the first row (n <= 4, so this stays small).
static Stmt* det_of(Lowerer& L, const std::vector<Stmt*>& e, int n, SourceLoc loc) {
  Type t = Type::scalar(e[0]->type.prim);
  if (n == 1) return e[0];
  if (n == 2)
    return L.emit_binary(BinaryOp::sub, L.emit_binary(BinaryOp::mul, e[0], e[3], t, loc),
                         L.emit_binary(BinaryOp::mul, e[1], e[2], t, loc), t, loc);
  Stmt* acc = nullptr;
  for (int j = 0; j < n; j++) {
    std::vector<Stmt*> minor;
    for (int r = 1; r < n; r++)
      for (int c = 0; c < n; c++)
        if (c != j) minor.push_back(e[r * n + c]);
    Stmt* term = L.emit_binary(BinaryOp::mul, e[j], det_of(L, minor, n - 1, loc), t, loc);
    acc = !acc ? term : L.emit_binary(j % 2 ? BinaryOp::sub : BinaryOp::add, acc, term, t, loc);
  }
  return acc;
}

static Stmt* square_float(Lowerer& L, Stmt* m, const char* what, SourceLoc loc) {
  if (!m->type.cols || m->type.rows != m->type.cols)
    raise("TypeError", std::string(what) + " needs a square matrix, got " + shape_of(m->type), loc);
  if (m->type.rows > 4) raise("TypeError", std::string(what) + " is supported up to 4x4 matrices", loc);
  return m;
}

// sqrt(sum of squares [+ eps]), in floating point.
Stmt* Lowerer::norm_of(Stmt* t, Stmt* eps, SourceLoc loc) {
  Prim fp = prim_is_float(t->type.prim) ? t->type.prim : types.default_fp;
  Stmt* f = emit_cast(t, fp, loc);
  Stmt* sq = reduce(emit_binary(BinaryOp::mul, f, f, f->type, loc), BinaryOp::add, loc);
  if (eps) sq = emit_binary(BinaryOp::add, sq, emit_cast(eps, fp, loc), sq->type, loc);
  return emit_unary(UnaryOp::sqrt, sq, sq->type, loc);
}

// a x b for 3-vectors; the scalar z of the 3-D product for 2-vectors.
Stmt* Lowerer::cross_of(Stmt* t, Stmt* o, SourceLoc loc) {
  if (t->type.cols || (t->type.rows != 2 && t->type.rows != 3) || o->type.rows != t->type.rows || o->type.cols)
    raise("TypeError", "cross() needs two 2-vectors or two 3-vectors, got " + shape_of(t->type) + " and " + shape_of(o->type), loc);
  Prim p = promote(t->type.prim, o->type.prim);
  std::vector<Stmt*> a = elements(emit_cast(t, p, loc), loc), b = elements(emit_cast(o, p, loc), loc);
  Type st = Type::scalar(p);
  auto x = [&](int i, int j) {
    return emit_binary(BinaryOp::sub, emit_binary(BinaryOp::mul, a[i], b[j], st, loc),
                       emit_binary(BinaryOp::mul, a[j], b[i], st, loc), st, loc);
  };
  if (t->type.rows == 2) return x(0, 1);
  return make_tensor({x(1, 2), x(2, 0), x(0, 1)}, 3, 0, loc);
}

KVal Lowerer::tensor_method(Stmt* t, const std::string& name, const ast::Call* c) {
  SourceLoc loc = c->loc;
  auto arg = [&](size_t i) { return value_of(lower_expr(c->args.at(i)), loc); };
  auto nargs = [&](size_t lo, size_t hi) {
    if (c->args.size() < lo || c->args.size() > hi)
      raise("TypeError", name + "() takes " + std::to_string(lo) + (hi > lo ? " or " + std::to_string(hi) : "") +
                             " argument" + (hi == 1 ? "" : "s") + ", got " + std::to_string(c->args.size()), loc);
  };
  Prim fp = prim_is_float(t->type.prim) ? t->type.prim : types.default_fp;
  auto same_shape = [&](Stmt* o) {
    if (o->type.rows != t->type.rows || o->type.cols != t->type.cols)
      raise("TypeError", name + "() needs " + shape_of(t->type) + ", got " + shape_of(o->type), loc);
  };
  if (name == "dot") {
    nargs(1, 1);
    Stmt* o = arg(0);
    same_shape(o);
    return KVal::of(reduce(value_of(elementwise_binop(ast::BinOpKind::Mult, t, o, loc), loc), BinaryOp::add, loc));
  }
  if (name == "norm_sqr") {
    nargs(0, 0);
    return KVal::of(reduce(value_of(elementwise_binop(ast::BinOpKind::Mult, t, t, loc), loc), BinaryOp::add, loc));
  }
  if (name == "norm" || name == "normalized") {
    nargs(0, 1);
    Stmt* n = norm_of(t, c->args.empty() ? nullptr : arg(0), loc);
    if (name == "norm") return KVal::of(n);
    Stmt* f = emit_cast(t, n->type.prim, loc);
    return KVal::of(emit_binary(BinaryOp::div, f, broadcast(n, f->type, loc), f->type, loc));
  }
  if (name == "cross") {
    nargs(1, 1);
    Stmt* o = arg(0);
    same_shape(o);
    return KVal::of(cross_of(t, o, loc));
  }
  if (name == "outer_product") {
    nargs(1, 1);
    Stmt* o = arg(0);
    if (t->type.cols || o->type.cols || !o->type.rows) raise("TypeError", "outer_product() needs two vectors", loc);
    Prim p = promote(t->type.prim, o->type.prim);
    std::vector<Stmt*> a = elements(emit_cast(t, p, loc), loc), b = elements(emit_cast(o, p, loc), loc), out;
    for (Stmt* x : a)
      for (Stmt* y : b) out.push_back(emit_binary(BinaryOp::mul, x, y, Type::scalar(p), loc));
    return KVal::of(make_tensor(out, (int)a.size(), (int)b.size(), loc));
  }
  if (name == "transpose") {
    nargs(0, 0);
    if (!t->type.cols) raise("TypeError", "transpose() needs a matrix, got " + shape_of(t->type), loc);
    std::vector<Stmt*> e = elements(t, loc), out;
    int r = t->type.rows, cc = t->type.cols;
    for (int j = 0; j < cc; j++)
      for (int i = 0; i < r; i++) out.push_back(e[i * cc + j]);
    return KVal::of(make_tensor(out, cc, r, loc));
  }
  if (name == "trace") {
    nargs(0, 0);
    square_float(*this, t, "trace()", loc);
    std::vector<Stmt*> e = elements(t, loc);
    int n = t->type.rows;
    Stmt* acc = e[0];
    for (int i = 1; i < n; i++) acc = emit_binary(BinaryOp::add, acc, e[i * n + i], acc->type, loc);
    return KVal::of(acc);
  }
  if (name == "determinant") {
    nargs(0, 0);
    square_float(*this, t, "determinant()", loc);
    return KVal::of(det_of(*this, elements(t, loc), t->type.rows, loc));
  }
  if (name == "inverse") {
    nargs(0, 0);
    square_float(*this, t, "inverse()", loc);
    int n = t->type.rows;
    Stmt* f = emit_cast(t, fp, loc);
    std::vector<Stmt*> e = elements(f, loc), out(n * n);
    Type st = Type::scalar(fp);
    Stmt* det = det_of(*this, e, n, loc);
    Stmt* inv_det = emit_binary(BinaryOp::div, emit_const(ir::Const::of_float(fp, 1.0), loc), det, st, loc);
    // inverse = adjugate / det; adj[j][i] = (-1)^(i+j) * minor(i, j).
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        Stmt* cof;
        if (n == 1) {
          cof = emit_const(ir::Const::of_float(fp, 1.0), loc);
        } else {
          std::vector<Stmt*> minor;
          for (int r = 0; r < n; r++)
            for (int cc = 0; cc < n; cc++)
              if (r != i && cc != j) minor.push_back(e[r * n + cc]);
          cof = det_of(*this, minor, n - 1, loc);
          if ((i + j) % 2) cof = emit_unary(UnaryOp::neg, cof, st, loc);
        }
        out[j * n + i] = emit_binary(BinaryOp::mul, cof, inv_det, st, loc);
      }
    return KVal::of(make_tensor(out, n, n, loc));
  }
  if (name == "sum" || name == "max" || name == "min") {
    nargs(0, 0);
    return KVal::of(reduce(t, name == "sum" ? BinaryOp::add : name == "max" ? BinaryOp::max : BinaryOp::min, loc));
  }
  if (name == "any" || name == "all") {
    nargs(0, 0);
    Stmt* zero = emit_const(prim_is_float(t->type.prim) ? ir::Const::of_float(t->type.prim, 0) : ir::Const::of_int(t->type.prim, 0), loc);
    Stmt* nz = emit_binary(BinaryOp::cmp_ne, t, broadcast(zero, t->type, loc), shaped(t, Prim::i32), loc);
    return KVal::of(reduce(nz, name == "any" ? BinaryOp::bit_or : BinaryOp::bit_and, loc));
  }
  if (name == "cast") {
    nargs(1, 1);
    StaticValue ty = eval_static(c->args[0]);
    if (ty.kind != StaticValue::Kind::dtype) raise("TypeError", "cast() needs a type", loc);
    return KVal::of(emit_cast(t, ty.prim, loc));
  }
  raise("AttributeError", shape_of(t->type) + " has no method '" + name + "'", c->func->loc);
}

// Elements of constructor arguments, GLSL-style: scalars and vectors concatenate.
// The scalars of a constructor argument, row-major: nested lists
// (mat2([[1, 2], [3, 4]])), vectors, grouped indices and scalars.
static void flatten_expr(Lowerer& L, const ast::Expr* a, std::vector<Stmt*>& out) {
  if (a->kind == ast::ExprKind::List || a->kind == ast::ExprKind::Tuple) {
    for (auto* e : a->kind == ast::ExprKind::List ? a->as<ast::List>()->elts : a->as<ast::Tuple>()->elts)
      flatten_expr(L, e, out);
    return;
  }
  if (a->kind == ast::ExprKind::Starred) a = a->as<ast::Starred>()->value;  // [*v, 3]: v's elements
  KVal k = L.lower_expr(a);
  if (k.is_tuple()) {
    for (auto& e : k.elems) out.push_back(L.value_of(e, a->loc));
    return;
  }
  if (k.is_static() && k.s.kind == StaticValue::Kind::tuple) {
    for (auto& e : k.s.elems) out.push_back(L.value_of(KVal::of(e), a->loc));
    return;
  }
  Stmt* v = L.value_of(k, a->loc);
  if (v->type.rows) for (Stmt* x : L.elements(v, a->loc)) out.push_back(x);
  else out.push_back(v);
}

static void flatten_args(Lowerer& L, const ast::Call* c, size_t from, std::vector<Stmt*>& out) {
  for (size_t i = from; i < c->args.size(); i++) flatten_expr(L, c->args[i], out);
}

KVal Lowerer::construct_tensor(const StaticValue& f, const ast::Call* c) {
  SourceLoc loc = c->loc;
  // A vector/matrix type called as a constructor: vec3(1, 2, 3), vec3(0), mat2(...)
  if (f.kind == StaticValue::Kind::dtype) {
    int n = f.rows * (f.cols ? f.cols : 1);
    std::vector<Stmt*> e;
    flatten_args(*this, c, 0, e);
    if (e.empty()) e.push_back(emit_const(ir::Const::of_int(types.default_ip, 0), loc));
    if (e.size() == 1 && n > 1) e.assign(n, e[0]);  // GLSL broadcast: vec3(0)
    if ((int)e.size() != n)
      raise("TypeError", "this " + shape_of(tensor_type(f.prim, f.rows, f.cols, loc)) + " type takes " +
                             std::to_string(n) + " values, got " + std::to_string(e.size()), loc);
    for (auto& x : e) x = emit_cast(x, f.prim, loc);
    return KVal::of(make_tensor(e, f.rows, f.cols, loc));
  }
  const std::string& name = f.s;
  Prim dt = Prim::none;
  auto take_dt = [&](const ast::Expr* e, SourceLoc at) {
    StaticValue t = eval_static(e);
    if (t.kind != StaticValue::Kind::dtype) raise("TypeError", "dt must be a type", at);
    dt = t.prim;
  };
  for (auto* kw : c->keywords)
    if (kw->arg == "dt" || kw->arg == "dtype") take_dt(kw->value, kw->loc);
  // ti.Vector(values, dt) / ti.Matrix(rows, dt): the type may come second, as in Taichi
  size_t nargs = c->args.size();
  if ((name == "ti.Vector" || name == "ti.Matrix") && nargs == 2) {
    take_dt(c->args[1], c->args[1]->loc);
    nargs = 1;
  }
  auto finish = [&](std::vector<Stmt*> e, int rows, int cols) {
    if (dt != Prim::none)
      for (auto& x : e) x = emit_cast(x, dt, loc);
    return KVal::of(make_tensor(e, rows, cols, loc));
  };
  if (name == "ti.Vector") {
    if (nargs != 1) raise("TypeError", "ti.Vector() takes a list of elements", loc);
    std::vector<Stmt*> e;
    flatten_expr(*this, c->args[0], e);
    return finish(e, (int)e.size(), 0);
  }
  if (name == "ti.Matrix" || name == "ti.Matrix.rows" || name == "ti.Matrix.cols") {
    std::string takes = name + (name == "ti.Matrix.cols" ? "() takes a list of columns" : "() takes a list of rows");
    if (nargs != 1) raise("TypeError", takes, loc);
    const ast::Expr* a = c->args[0];
    const ast::ExprList* rows = a->kind == ast::ExprKind::List ? &a->as<ast::List>()->elts
                                : a->kind == ast::ExprKind::Tuple ? &a->as<ast::Tuple>()->elts : nullptr;
    std::vector<std::vector<Stmt*>> m;
    bool first_is_list = false;
    // A row given as a vector value contributes its elements.
    auto row_of_value = [&](Stmt* v, SourceLoc at) {
      return v->type.rows ? elements(v, at) : std::vector<Stmt*>{v};
    };
    if (rows) {
      for (auto* r : *rows) {
        std::vector<Stmt*> row;
        if (r->kind == ast::ExprKind::List || r->kind == ast::ExprKind::Tuple) {
          for (auto* e : r->kind == ast::ExprKind::List ? r->as<ast::List>()->elts : r->as<ast::Tuple>()->elts)
            row.push_back(value_of(lower_expr(e), e->loc));
        } else {
          row = row_of_value(value_of(lower_expr(r), r->loc), r->loc);
        }
        m.push_back(row);
      }
      first_is_list = !rows->empty() && ((*rows)[0]->kind == ast::ExprKind::List || (*rows)[0]->kind == ast::ExprKind::Tuple);
    } else {
      // Any other expression that makes a list: a comprehension
      // (ti.Matrix.cols([x[v[i]] - x[v[3]] for i in range(3)])), list arithmetic, ...
      KVal t = lower_expr(a);
      if (!t.is_tuple()) raise("TypeError", takes, loc);
      for (auto& r : t.elems) {
        std::vector<Stmt*> row;
        if (r.is_tuple()) {
          for (auto& e : r.elems) row.push_back(value_of(e, a->loc));
        } else {
          row = row_of_value(value_of(r, a->loc), a->loc);
        }
        m.push_back(row);
      }
      first_is_list = !t.elems.empty() && t.elems[0].is_tuple();
    }
    if (m.empty()) raise("TypeError", name + "() needs at least one element", loc);
    bool is_vector = name == "ti.Matrix" && m[0].size() == 1 && !first_is_list;
    std::vector<Stmt*> flat;
    for (auto& r : m) {
      if (r.size() != m[0].size()) raise("TypeError", "the rows of a matrix must all have the same length", loc);
      for (Stmt* x : r) flat.push_back(x);
    }
    if (is_vector) return finish(flat, (int)flat.size(), 0);
    int nr = (int)m.size(), nc = (int)m[0].size();
    if (name == "ti.Matrix.cols") {  // the given vectors are columns
      std::vector<Stmt*> t;
      for (int j = 0; j < nc; j++)
        for (int i = 0; i < nr; i++) t.push_back(flat[i * nc + j]);
      return finish(t, nc, nr);
    }
    return finish(flat, nr, nc);
  }
  // ti.Matrix.identity(dt, n), ti.Matrix.zero(dt, n, m), ti.Vector.zero(dt, n), ti.Vector.unit(n, i, dt)
  std::vector<StaticValue> a;
  for (auto* x : c->args) a.push_back(eval_static(x));
  auto int_at = [&](size_t i) {
    if (i >= a.size() || a[i].kind != StaticValue::Kind::integer) raise("TypeError", name + "() needs integer sizes", loc);
    return (int)a[i].i;
  };
  auto type_at = [&](size_t i) {
    if (i >= a.size() || a[i].kind != StaticValue::Kind::dtype) raise("TypeError", name + "() needs a type", loc);
    return a[i].prim;
  };
  auto constant = [&](Prim p, double v) {
    return emit_const(prim_is_float(p) ? ir::Const::of_float(p, v) : ir::Const::of_int(p, (int64_t)v), loc);
  };
  if (name == "ti.Matrix.identity") {
    Prim p = type_at(0);
    int n = int_at(1);
    std::vector<Stmt*> e;
    for (int i = 0; i < n * n; i++) e.push_back(constant(p, i / n == i % n ? 1 : 0));
    return KVal::of(make_tensor(e, n, n, loc));
  }
  if (name == "ti.Matrix.zero" || name == "ti.Vector.zero" || name == "ti.Matrix.one" || name == "ti.Vector.one") {
    Prim p = type_at(0);
    int n = int_at(1), m = name.rfind("ti.Matrix", 0) == 0 ? int_at(2) : 0;
    double v = name.find("one") != std::string::npos ? 1 : 0;
    return KVal::of(make_tensor(std::vector<Stmt*>(n * (m ? m : 1), constant(p, v)), n, m, loc));
  }
  if (name == "ti.Vector.unit") {
    int n = int_at(0), i = int_at(1);
    Prim p = a.size() > 2 ? type_at(2) : types.default_ip;  // Taichi: dt=None is int
    std::vector<Stmt*> e;
    for (int k = 0; k < n; k++) e.push_back(constant(p, k == i ? 1 : 0));
    return KVal::of(make_tensor(e, n, 0, loc));
  }
  raise("TypeError", "'" + name + "' cannot be called inside a kernel", loc);
}

// ti.math's GLSL-style helpers, element-wise on vectors with scalars
// broadcast; ti.math.sqrt and friends are the ti.* intrinsics.
KVal Lowerer::call_math(const std::string& name, const ast::Call* c) {
  SourceLoc loc = c->loc;
  std::vector<KVal> a;
  for (auto* e : c->args) a.push_back(lower_expr(e));
  auto need = [&](size_t n) {
    if (a.size() != n)
      raise("TypeError", "ti.math." + name + "() takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", got " +
                             std::to_string(a.size()), loc);
  };
  using O = ast::BinOpKind;
  auto bin = [&](O op, const KVal& x, const KVal& y) { return lower_binop(op, x, y, loc); };
  auto num = [&](double v) { return KVal::of(StaticValue::of_float(v)); };
  auto vec = [&](const KVal& k) {
    Stmt* v = value_of(k, loc);
    if (!v->type.rows) raise("TypeError", "ti.math." + name + "() needs a vector, got " + shape_phrase(v->type), loc);
    return v;
  };
  auto minmax = [&](BinaryOp op, const KVal& x, const KVal& y) {
    Stmt* p = value_of(x, loc);
    Stmt* q = value_of(y, loc);
    match_shapes(p, q, "ti.math." + name + "()", loc);
    Prim t = promote(p->type.prim, q->type.prim);
    p = emit_cast(p, t, loc);
    return KVal::of(emit_binary(op, p, emit_cast(q, t, loc), p->type, loc));
  };
  if (name == "clamp") {
    need(3);
    return minmax(BinaryOp::min, minmax(BinaryOp::max, a[0], a[1]), a[2]);
  }
  if (name == "mix") {
    need(3);
    return bin(O::Add, bin(O::Mult, a[0], bin(O::Sub, num(1.0), a[2])), bin(O::Mult, a[1], a[2]));
  }
  if (name == "fract") {
    need(1);
    Stmt* x = value_of(a[0], loc);
    Prim p = prim_is_float(x->type.prim) ? x->type.prim : types.default_fp;
    x = emit_cast(x, p, loc);
    return KVal::of(emit_binary(BinaryOp::sub, x, emit_unary(UnaryOp::floor, x, x->type, loc), x->type, loc));
  }
  if (name == "step") {  // 0 where x < edge, else 1
    need(2);
    Stmt* lt = value_of(lower_binop(O::Sub, a[1], a[0], loc), loc);
    Stmt* zero = emit_const(prim_is_float(lt->type.prim) ? ir::Const::of_float(lt->type.prim, 0) : ir::Const::of_int(lt->type.prim, 0), loc);
    Stmt* ge = emit_binary(BinaryOp::cmp_ge, lt, lt->type.rows ? broadcast(zero, lt->type, loc) : zero, shaped(lt, Prim::i32), loc);
    Prim p = prim_is_float(lt->type.prim) ? lt->type.prim : types.default_fp;
    return KVal::of(emit_cast(ge, p, loc));
  }
  if (name == "smoothstep") {
    need(3);
    KVal t = bin(O::Div, bin(O::Sub, a[2], a[0]), bin(O::Sub, a[1], a[0]));
    t = minmax(BinaryOp::min, minmax(BinaryOp::max, t, num(0.0)), num(1.0));
    return bin(O::Mult, bin(O::Mult, t, t), bin(O::Sub, num(3.0), bin(O::Mult, num(2.0), t)));
  }
  if (name == "sign") {
    need(1);
    Stmt* x = value_of(a[0], loc);
    Stmt* zero = emit_const(prim_is_float(x->type.prim) ? ir::Const::of_float(x->type.prim, 0) : ir::Const::of_int(x->type.prim, 0), loc);
    if (x->type.rows) zero = broadcast(zero, x->type, loc);
    Stmt* pos = emit_cast(emit_binary(BinaryOp::cmp_gt, x, zero, shaped(x, Prim::i32), loc), x->type.prim, loc);
    Stmt* neg = emit_cast(emit_binary(BinaryOp::cmp_lt, x, zero, shaped(x, Prim::i32), loc), x->type.prim, loc);
    return KVal::of(emit_binary(BinaryOp::sub, pos, neg, x->type, loc));
  }
  if (name == "length" || name == "normalize") {
    need(1);
    Stmt* v = vec(a[0]);
    Stmt* n = norm_of(v, nullptr, loc);
    if (name == "length") return KVal::of(n);
    Stmt* f = emit_cast(v, n->type.prim, loc);
    return KVal::of(emit_binary(BinaryOp::div, f, broadcast(n, f->type, loc), f->type, loc));
  }
  if (name == "dot" || name == "cross") {
    need(2);
    Stmt* v = vec(a[0]);
    Stmt* w = vec(a[1]);
    if (v->type.rows != w->type.rows) raise("TypeError", "ti.math." + name + "() of vectors of different lengths", loc);
    Prim p = promote(v->type.prim, w->type.prim);
    v = emit_cast(v, p, loc);
    w = emit_cast(w, p, loc);
    if (name == "dot") return KVal::of(reduce(emit_binary(BinaryOp::mul, v, w, v->type, loc), BinaryOp::add, loc));
    return KVal::of(cross_of(v, w, loc));
  }
  if (name == "distance") {
    need(2);
    return KVal::of(norm_of(vec(bin(O::Sub, a[0], a[1])), nullptr, loc));
  }
  if (name == "reflect") {  // I - 2 dot(N, I) N
    need(2);
    Stmt* i = vec(a[0]);
    Stmt* n = vec(a[1]);
    KVal d = KVal::of(reduce(emit_binary(BinaryOp::mul, n, emit_cast(i, n->type.prim, loc), n->type, loc), BinaryOp::add, loc));
    return bin(O::Sub, KVal::of(i), bin(O::Mult, bin(O::Mult, num(2.0), d), KVal::of(n)));
  }
  // ti.math.sqrt(x) and the other scalar intrinsics are ti.sqrt(x) and so on.
  return call_builtin("ti." + name, c);
}

}  // namespace kiln::frontend
