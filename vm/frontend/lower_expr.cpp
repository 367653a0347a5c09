// Kernel-scope expressions: operators with seed 000's promotion, names,
// subscripts of fields, attributes of host objects.
#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::BinaryOp;
using ir::Stmt;
using ir::StmtKind;

static std::string pname(Prim p) { return std::string(prim_name(p)); }


// A global or closure name is looked up in the host once per kernel compile
// (as Taichi takes a function's globals once when it compiles it): a kernel
// unrolled by ti.static reads the same names 10^4 times. Lists and host
// vectors are read again each time (compile-time host code may change them).
KVal Lowerer::load_name(const ast::Name* n) {
  if (Binding* b = find_local(n->id)) return load_binding(*b, n->loc);
  auto& names = host_names[frame().env.get()];
  if (auto it = names.find(n->id); it != names.end()) return KVal::of(it->second);
  if (auto v = host.lookup(frame().env, n->id)) {
    if (v->kind != StaticValue::Kind::tuple && v->kind != StaticValue::Kind::matrix) names.emplace(n->id, *v);
    return KVal::of(std::move(*v));
  }
  raise("NameError", "name '" + n->id + "' is not defined", n->loc);
}

// A list next to a vector in arithmetic or a comparison is a vector (v == [1.0, 1.0, 1.0]).
const KVal& Lowerer::list_beside_tensor(const KVal& k, const KVal& other, KVal& made, SourceLoc loc) {
  if (!k.is_tuple() || !is_tensor(other)) return k;
  std::vector<Stmt*> e;
  for (auto& x : k.elems) {
    if (x.is_tuple()) raise("TypeError", "a nested list cannot be used beside a vector", loc);
    e.push_back(value_of(x, loc));
  }
  if (e.empty()) raise("TypeError", "an empty list cannot be used beside a vector", loc);
  Prim p = e[0]->type.prim;
  for (Stmt* x : e) p = promote(p, x->type.prim);
  for (auto& x : e) x = emit_cast(x, p, loc);
  made = KVal::of(make_tensor(e, (int)e.size(), 0, loc));
  return made;
}

KVal Lowerer::lower_binop(ast::BinOpKind op, const KVal& a0, const KVal& b0, SourceLoc loc) {
  // Host objects (a numpy array a kernel names) compute on the host, at compile time.
  if ((a0.is_static() && a0.s.kind == StaticValue::Kind::object && (b0.is_static())) ||
      (b0.is_static() && b0.s.kind == StaticValue::Kind::object && a0.is_static()))
    return KVal::of(host_binop(op, a0.s, b0.s, loc));
  KVal a_made, b_made;
  const KVal& a = list_beside_tensor(a0, b0, a_made, loc);
  const KVal& b = list_beside_tensor(b0, a0, b_made, loc);
  // Python's own list arithmetic, which Taichi's kernels inherit: [0.0] * 3
  // repeats the list (Taichi's implicit_fem writes F_v[u] = [0.0] * 3) and
  // list + list concatenates.
  auto count = [](const KVal& k) { return k.is_static() && k.s.kind == StaticValue::Kind::integer && !k.s.wide; };
  if (op == ast::BinOpKind::Mult && ((a.is_tuple() && count(b)) || (b.is_tuple() && count(a)))) {
    const KVal& t = a.is_tuple() ? a : b;
    int64_t n = std::max<int64_t>(0, (a.is_tuple() ? b : a).s.i);
    if (n > 65536 || n * int64_t(t.elems.size()) > 65536)
      raise("ValueError", "a list repeated " + std::to_string(n) + " times is too long for a kernel", loc);
    KVal r;
    r.kind = KVal::Kind::tuple;
    r.list = t.list;
    for (int64_t k = 0; k < n; k++) r.elems.insert(r.elems.end(), t.elems.begin(), t.elems.end());
    return r;
  }
  if (op == ast::BinOpKind::Add && a.is_tuple() && b.is_tuple()) {
    KVal r = a;
    r.elems.insert(r.elems.end(), b.elems.begin(), b.elems.end());
    return r;
  }
  if (a.is_tuple() || b.is_tuple())
    raise("TypeError", std::string("unsupported operand types for ") + ast::op_symbol(op) +
                           ": a tuple (use ti.Vector([...]) for vector arithmetic)", loc);
  if (is_tensor(a) || is_tensor(b) || op == ast::BinOpKind::MatMult ||
      (a.is_static() && a.s.kind == StaticValue::Kind::matrix) || (b.is_static() && b.s.kind == StaticValue::Kind::matrix))
    return tensor_binop(op, a, b, loc);
  prim_of(a, loc);  // reports non-numeric operands before anything is emitted
  prim_of(b, loc);
  // Two host numbers combine on the host, as in Taichi (where Python
  // computes them): ti.u64(10 ** 10) is 10000000000, not 10 ** 10 in i32.
  auto host_number = [](const KVal& k) {
    return k.is_static() && (k.s.kind == StaticValue::Kind::integer || k.s.kind == StaticValue::Kind::floating);
  };
  using K = ast::BinOpKind;
  bool bitwise = op == K::BitAnd || op == K::BitOr || op == K::BitXor || op == K::LShift || op == K::RShift;
  bool ints = a.s.kind == StaticValue::Kind::integer && b.s.kind == StaticValue::Kind::integer;
  if (host_number(a) && host_number(b) && op != K::MatMult && (ints || !bitwise))  // else the type error below
    return KVal::of(static_binop(op, a.s, b.s, loc));
  return elementwise_binop(op, value_of(a, loc), value_of(b, loc), loc);
}

// Seed 000's typing of a binary operator, applied to two scalars or two
// tensors of one shape (element-wise).
KVal Lowerer::elementwise_binop(ast::BinOpKind op, Stmt* va, Stmt* vb, SourceLoc loc) {
  using K = ast::BinOpKind;
  Prim pa = va->type.prim, pb = vb->type.prim;
  auto arith = [&](BinaryOp bop, Prim t) {
    return KVal::of(emit_binary(bop, emit_cast(va, t, loc), emit_cast(vb, t, loc), shaped(va, t), loc));
  };
  auto need_int = [&](const char* what) {
    if (!prim_is_int(pa) || !prim_is_int(pb))
      raise("TypeError", std::string(what) + " needs integer operands, got " + pname(pa) + " and " + pname(pb), loc);
  };
  Prim t = promote(pa, pb);
  switch (op) {
    case K::Add: return arith(BinaryOp::add, t);
    case K::Sub: return arith(BinaryOp::sub, t);
    case K::Mult: return arith(BinaryOp::mul, t);
    case K::Div:  // true division: int / int gives default_fp
      return arith(BinaryOp::div, prim_is_float(t) ? t : types.default_fp);
    case K::FloorDiv: return arith(BinaryOp::floordiv, t);
    case K::Mod: return arith(BinaryOp::mod, t);
    case K::Pow:
      // A float to an integer power known at compile time is multiplications,
      // as Taichi demotes it (binary exponentiation: x ** 3 is x * (x * x);
      // a negative power is 1 / that): a few multiplies, not a libm pow call.
      if (prim_is_float(pa) && prim_is_int(pb) && vb->kind == ir::StmtKind::const_ && !vb->type.rows &&
          (prim_is_signed(pb) ? vb->value.i >= -64 && vb->value.i <= 64 : vb->value.u <= 64)) {
        int64_t n = vb->value.i;
        Stmt* result = nullptr;  // 1
        Stmt* a = va;
        for (int64_t m = n < 0 ? -n : n; m; m >>= 1) {
          if (m & 1) result = result ? emit_binary(BinaryOp::mul, result, a, va->type, loc) : a;
          if (m > 1) a = emit_binary(BinaryOp::mul, a, a, va->type, loc);
        }
        Stmt* one = emit_const(ir::Const::of_float(pa, 1.0), loc);
        if (va->type.rows) one = broadcast(one, va->type, loc);
        if (!result) return KVal::of(one);
        return KVal::of(n < 0 ? emit_binary(BinaryOp::div, one, result, va->type, loc) : result);
      }
      // An integer to a negative power has no integer value: Taichi refuses
      // a constant one when it compiles the kernel.
      if (prim_is_int(pa) && prim_is_int(pb) && prim_is_signed(pb) && vb->kind == ir::StmtKind::const_ &&
          !vb->type.rows && vb->value.i < 0)
        raise("ValueError", "negative exponent in pow(int, int) is not allowed: " + pname(pa) + " ** " +
                                std::to_string(vb->value.i) + " (make the base a float: " + "ti.cast(x, ti.f32) ** " +
                                std::to_string(vb->value.i) + ")", loc);
      return arith(BinaryOp::pow, t);
    case K::BitAnd: need_int("'&'"); return arith(BinaryOp::bit_and, t);
    case K::BitOr: need_int("'|'"); return arith(BinaryOp::bit_or, t);
    case K::BitXor: need_int("'^'"); return arith(BinaryOp::bit_xor, t);
    case K::LShift:
    case K::RShift: {
      need_int(op == K::LShift ? "'<<'" : "'>>'");
      // Shifts keep the left operand's type (seed 000); >> is arithmetic on signed.
      BinaryOp bop = op == K::LShift ? BinaryOp::bit_shl : prim_is_signed(pa) ? BinaryOp::bit_sar : BinaryOp::bit_shr;
      return KVal::of(emit_binary(bop, va, vb, va->type, loc));
    }
    case K::MatMult: break;
  }
  raise("TypeError", "unsupported operator", loc);
}

static BinaryOp cmp_of(ast::CmpOpKind k, SourceLoc loc) {
  switch (k) {
    case ast::CmpOpKind::Lt: return BinaryOp::cmp_lt;
    case ast::CmpOpKind::LtE: return BinaryOp::cmp_le;
    case ast::CmpOpKind::Gt: return BinaryOp::cmp_gt;
    case ast::CmpOpKind::GtE: return BinaryOp::cmp_ge;
    case ast::CmpOpKind::Eq: return BinaryOp::cmp_eq;
    case ast::CmpOpKind::NotEq: return BinaryOp::cmp_ne;
    default: break;
  }
  raise("TypeError", std::string("the operator '") + ast::op_symbol(k) + "' is not supported in kernels", loc);
}

KVal Lowerer::lower_compare(const ast::Compare* c) {
  // a < b < c evaluates b once and gives (a < b) & (b < c), as i32 0/1.
  KVal left = lower_expr(c->left);
  // Types, fields and other objects compare at compile time (`dt == ti.i32`
  // on a ti.template() dt), as Python compares them in Taichi.
  using SK = StaticValue::Kind;
  if (left.is_static() && left.s.kind != SK::integer && left.s.kind != SK::floating && left.s.kind != SK::boolean &&
      left.s.kind != SK::matrix)
    return KVal::of(eval_static(c));
  Stmt* result = nullptr;
  for (size_t i = 0; i < c->ops.size(); i++) {
    KVal right = lower_expr(c->comparators[i]);
    SourceLoc loc = c->comparators[i]->loc;
    KVal made;
    if (&list_beside_tensor(right, left, made, loc) == &made) right = std::move(made);
    if (&list_beside_tensor(left, right, made, loc) == &made) left = std::move(made);
    BinaryOp op = cmp_of(c->ops[i], c->loc);
    Prim t = promote(prim_of(left, loc), prim_of(right, loc));
    Stmt* a = value_of(left, loc);
    Stmt* b = value_of(right, loc);
    match_shapes(a, b, ast::op_symbol(c->ops[i]), c->loc);  // element-wise on vectors
    a = emit_cast(a, t, loc);
    b = emit_cast(b, t, loc);
    Stmt* r = emit_binary(op, a, b, shaped(a, Prim::i32), c->loc);
    result = result ? emit_binary(BinaryOp::bit_and, result, r, r->type, c->loc) : r;
    left = KVal::of(b);
  }
  return KVal::of(result);
}

KVal Lowerer::lower_boolop(const ast::BoolOp* b) {
  // Short-circuit: later operands run only when needed. As in Python (and
  // Taichi), the result is the operand that decided it (`3 and 4` is 4,
  // `0 or 5` is 5) in the operands' promoted type. Each operand is stored as
  // it comes; that type is known once all are lowered, so the stores of
  // narrower operands get their casts afterwards.
  bool is_and = b->op == ast::BoolOpKind::And;
  Stmt* truth = emit_alloca(Type::scalar(Prim::i32), b->loc);
  Stmt* slot = emit_alloca(Type::scalar(Prim::i32), b->loc);
  std::vector<Stmt*> stores;
  Prim t = Prim::none;
  auto operand = [&](const ast::Expr* e) {
    Stmt* v = as_condition(lower_expr(e), e->loc);
    Stmt* zero = emit_const(ir::Const::of_int(v->type.prim, 0), e->loc);
    emit_store(truth, emit_binary(BinaryOp::cmp_ne, v, zero, Type::scalar(Prim::i32), e->loc), e->loc);
    auto st = std::make_unique<Stmt>(StmtKind::local_store);
    st->ops = {slot, v};
    stores.push_back(emit(std::move(st), e->loc));
    t = t == Prim::none ? v->type.prim : promote(t, v->type.prim);
  };
  operand(b->values[0]);
  size_t opened = 0;
  for (size_t i = 1; i < b->values.size(); i++) {
    Stmt* cur = emit_load(truth, b->loc);
    Stmt* cond = is_and ? cur : emit_unary(ir::UnaryOp::logic_not, cur, Type::scalar(Prim::i32), b->loc);
    auto s = std::make_unique<Stmt>(StmtKind::if_);
    s->ops = {cond};
    Stmt* iff = emit(std::move(s), b->loc);
    push_block(iff);
    opened++;
    operand(b->values[i]);
  }
  while (opened--) pop_block();
  slot->type = Type::scalar(t);
  for (Stmt* st : stores) {
    Stmt* v = st->ops[1];
    if (v->type.prim == t) continue;
    auto c = ir::make_stmt(StmtKind::unary, Type::scalar(t), st->loc, {v});
    c->uop = ir::UnaryOp::cast_value;
    c->frame = st->frame;
    ir::Block* blk = st->parent;
    size_t pos = 0;
    while (blk->stmts[pos].get() != st) pos++;
    st->ops[1] = blk->insert(pos, std::move(c));
  }
  return KVal::of(emit_load(slot, b->loc));
}

KVal Lowerer::lower_unary(const ast::UnaryOp* u) {
  KVal v = lower_expr(u->operand);
  // Negative literals stay compile-time constants, so `-2147483648` fits i32.
  if (v.is_static() && (u->op == ast::UnaryOpKind::USub || u->op == ast::UnaryOpKind::UAdd)) {
    if (v.s.kind == StaticValue::Kind::integer)
      return KVal::of(StaticValue::of_big(u->op == ast::UnaryOpKind::USub ? -v.s.big() : v.s.big()));
    if (v.s.kind == StaticValue::Kind::floating)
      return KVal::of(StaticValue::of_float(u->op == ast::UnaryOpKind::USub ? -v.s.f : v.s.f));
  }
  Stmt* x = value_of(v, u->loc);
  Prim p = x->type.prim;
  switch (u->op) {
    case ast::UnaryOpKind::UAdd: return KVal::of(x);
    case ast::UnaryOpKind::USub: return KVal::of(emit_unary(ir::UnaryOp::neg, x, x->type, u->loc));
    case ast::UnaryOpKind::Not:
      // As Taichi's type check: `not` of a float computed in the kernel is an
      // error (`not 2.0` of a host number stays Python's).
      if (!v.is_static() && !prim_is_int(p))
        raise("TypeError", "'not' needs an integer operand, got " + pname(p) + " (compare it: x == 0)", u->loc);
      return KVal::of(emit_unary(ir::UnaryOp::logic_not, x, shaped(x, Prim::i32), u->loc));
    case ast::UnaryOpKind::Invert:
      if (!prim_is_int(p)) raise("TypeError", "'~' needs an integer operand, got " + pname(p), u->loc);
      return KVal::of(emit_unary(ir::UnaryOp::bit_not, x, x->type, u->loc));
  }
  return {};
}

// The index expressions of a subscript, flattened: x[i, j], x[I] (a grouped
// index), x[None] (0-D).
void Lowerer::flatten_index(const ast::Expr* slice, std::vector<KVal>& out) {
  if (slice->kind == ast::ExprKind::Tuple) {
    for (auto* e : slice->as<ast::Tuple>()->elts) flatten_index(e, out);
    return;
  }
  if (slice->kind == ast::ExprKind::Constant && slice->as<ast::Constant>()->tag == ast::Constant::Tag::None) return;
  if (slice->kind == ast::ExprKind::Slice) raise("TypeError", "slices are not supported in kernels", slice->loc);
  KVal k = lower_expr_raw(slice);
  if (k.is_static() && k.s.kind == StaticValue::Kind::matrix && !k.s.cols) {
    for (auto& e : k.s.elems) out.push_back(KVal::of(e));  // a host vector's constant components
    return;
  }
  if (k.is_static() && k.s.kind == StaticValue::Kind::matrix) k = KVal::of(value_of(k, slice->loc));
  if (k.is_tuple()) {
    for (auto& e : k.elems) out.push_back(e);
  } else if (is_tensor(k) && !k.v->type.cols) {  // x[I] with I a grouped index vector
    for (Stmt* e : elements(k.v, slice->loc)) out.push_back(KVal::of(e));
  } else if (k.is_static() && k.s.kind == StaticValue::Kind::tuple) {
    for (auto& e : k.s.elems) out.push_back(KVal::of(e));
  } else {
    out.push_back(std::move(k));
  }
}

StaticValue Lowerer::component_field(const StaticValue& mf, int k) {
  StaticValue f;
  f.kind = StaticValue::Kind::field;
  f.field = mf.fields.at(k);
  return f;
}

StaticValue Lowerer::component_field(const StaticValue& mf, const ast::Expr* slice) {
  std::vector<KVal> idx;
  flatten_index(slice, idx);
  size_t want = mf.cols ? 2 : 1;
  std::vector<int64_t> at;
  for (auto& k : idx) {
    if (!k.is_static() || k.s.kind != StaticValue::Kind::integer)
      raise("TypeError", "the component index of " + describe_static(mf) + " must be a compile-time integer", slice->loc);
    at.push_back(k.s.i);
  }
  if (at.size() != want)
    raise("TypeError", describe_static(mf) + " has " + std::string(mf.cols ? "matrix" : "vector") + " elements: give " +
                           std::to_string(want) + " component index" + (want == 1 ? "" : "es"), slice->loc);
  int cols = mf.cols ? mf.cols : 1;
  if (at[0] < 0 || at[0] >= mf.rows || (mf.cols && (at[1] < 0 || at[1] >= mf.cols)))
    raise("IndexError", "component index out of range for " + describe_static(mf), slice->loc);
  return component_field(mf, (int)(at[0] * cols + (mf.cols ? at[1] : 0)));
}

KVal Lowerer::lower_index(const ast::Expr* slice) {
  KVal index;
  flatten_index(slice, index.elems);
  for (auto& k : index.elems)
    if (!k.is_static()) k = KVal::of(value_of(k, slice->loc));  // a tuple member's value, evaluated here
  return index;
}

Stmt* Lowerer::global_ptr(const StaticValue& f, const ast::Expr* slice, SourceLoc loc) {
  return global_ptr_at(f, lower_index(slice), loc);
}

Stmt* Lowerer::global_ptr_at(const StaticValue& f, const KVal& index, SourceLoc loc) {
  const FieldInfo& field = *f.field;
  auto fname = [&] { return field.describe(); };  // for errors only: this runs for every access
  if (index.elems.size() != field.shape.size())
    raise("IndexError", fname() + " has " + std::to_string(field.shape.size()) + " dimension" +
                            (field.shape.size() == 1 ? "" : "s") + " but was indexed with " +
                            std::to_string(index.elems.size()) + " index" + (index.elems.size() == 1 ? "" : "es") +
                            (field.shape.empty() ? " (a 0-D field is indexed as x[None])" : ""),
          loc);
  auto s = std::make_unique<Stmt>(StmtKind::global_ptr);
  for (auto& k : index.elems) {
    Stmt* v = value_of(k, loc);
    if (!prim_is_int(v->type.prim))
      raise("TypeError", fname() + " must be indexed with integers, got " + pname(v->type.prim), loc);
    s->ops.push_back(emit_cast(v, Prim::i32, loc));
  }
  if (field.ndarray_arg >= 0) {
    s->access->ext_arg = field.ndarray_arg;
    s->access->ext_comps = field.ndarray_comps;
    s->access->ext_comp = field.ndarray_comp;
    s->access->field = field.name;
    s->access->snode = "ndarray " + field.name + (field.ndarray_comps > 1 ? "[" + std::to_string(field.ndarray_comp) + "]" : "");
    s->type = Type::ptr(field.dtype);
    return emit(std::move(s), loc);
  }
  // A field with offsets stores element `offset` first: index from 0 below here.
  for (size_t a = 0; a < s->ops.size(); a++)
    if (int64_t off = field.offset_at(a))
      s->ops[a] = emit_binary(ir::BinaryOp::sub, s->ops[a], emit_const(ir::Const::of_int(Prim::i32, off), loc),
                              Type::scalar(Prim::i32), loc);
  auto memo = access_memo.find(&field);
  if (memo == access_memo.end()) memo = access_memo.emplace(&field, prog.access_of(field)).first;
  s->access = memo->second;
  s->type = Type::ptr(field.dtype);
  at_row_cell(s.get());
  Stmt* p = emit(std::move(s), loc);
  if (field.quant) note_quant_ptr(p, field, loc);
  return p;
}

KVal Lowerer::lower_subscript(const ast::Subscript* s) {
  KVal base = lower_expr_raw(s->value);
  // An element of a host vector/matrix at constant indices is a compile-time
  // constant (I[0] of `for I in ti.static(ti.grouped(...))` can index fields).
  if (base.is_static() && base.s.kind == StaticValue::Kind::matrix) {
    std::vector<KVal> idx;
    flatten_index(s->slice, idx);
    int rows = base.s.rows, cols = base.s.cols;
    bool all_static = !idx.empty() && idx.size() == (cols ? 2u : 1u);
    for (auto& k : idx) all_static &= k.is_static() && k.s.kind == StaticValue::Kind::integer;
    if (all_static) {
      int64_t i = idx[0].s.i, j = cols ? idx[1].s.i : 0;
      if (i < 0 || i >= rows || j < 0 || j >= (cols ? cols : 1))
        raise("IndexError", "index out of range for a " + std::to_string(rows) + (cols ? "x" + std::to_string(cols) + " matrix" : "-vector"), s->slice->loc);
      return KVal::of(base.s.elems[(size_t)(i * (cols ? cols : 1) + j)]);
    }
    base = KVal::of(value_of(base, s->value->loc));
  }
  if (base.is_static() && base.s.kind == StaticValue::Kind::sparse_builder) builder_misuse(base.s, s->loc);
  if (base.is_static() && base.s.kind == StaticValue::Kind::field) {
    return KVal::of(emit_load(global_ptr(base.s, s->slice, s->loc), s->loc));
  }
  if (base.is_static() && base.s.kind == StaticValue::Kind::matrix_field) {
    // x[i] of a vector/matrix field: one load per component field.
    KVal index = lower_index(s->slice);
    std::vector<Stmt*> e;
    for (FieldInfo* f : base.s.fields) {
      StaticValue fv;
      fv.kind = StaticValue::Kind::field;
      fv.field = f;
      e.push_back(emit_load(global_ptr_at(fv, index, s->loc), s->loc));
    }
    return KVal::of(make_tensor(e, base.s.rows, base.s.cols, s->loc));
  }
  if (base.is_static() && base.s.kind == StaticValue::Kind::struct_field) return load_struct_field(base.s, lower_index(s->slice), s->loc);
  if (is_tensor(base)) {
    std::vector<KVal> idx;
    flatten_index(s->slice, idx);
    return tensor_index(base.v, idx, s->loc);
  }
  // Compile-time indexing of tuples: I[0] of a grouped index, x.shape[1].
  if (base.is_tuple() || (base.is_static() && base.s.kind == StaticValue::Kind::tuple)) {
    StaticValue k = static_of(lower_expr(s->slice), "a tuple index", s->slice->loc);
    size_t n = base.is_tuple() ? base.elems.size() : base.s.elems.size();
    if (k.kind != StaticValue::Kind::integer) raise("TypeError", "tuple indices must be integers", s->slice->loc);
    int64_t i = k.i < 0 ? k.i + (int64_t)n : k.i;
    if (i < 0 || i >= (int64_t)n) raise("IndexError", "tuple index out of range", s->slice->loc);
    return base.is_tuple() ? base.elems[i] : KVal::of(base.s.elems[i]);
  }
  if (is_shared(base)) return shared_load(base.v, s->slice, s->loc);
  if (base.is_value())
    raise("TypeError", a_value(base.v->type.prim) + " is not subscriptable", s->loc);
  // A host object (a numpy array the kernel names): indexed at compile time
  // with a compile-time index, like any Python-scope global.
  if (base.is_static() && base.s.kind == StaticValue::Kind::object) {
    KVal k = lower_expr(s->slice);
    if (k.is_static()) return KVal::of(host_operator("getitem", {base.s, k.s}, s->loc));
    raise("TypeError", describe_static(base.s) + " can only be indexed with compile-time indices in a kernel", s->slice->loc);
  }
  raise("TypeError", describe_static(base.s) + " is not subscriptable in a kernel", s->loc);
}

KVal Lowerer::lower_expr(const ast::Expr* e) {
  KVal k = lower_expr_raw(e);
  // A host vector/matrix read as a global is a constant tensor in the kernel.
  if (k.is_static() && k.s.kind == StaticValue::Kind::matrix) k = KVal::of(value_of(k, e->loc));
  return k;  // one named result: returned in place, not moved (most KVals are IR values)
}

KVal Lowerer::lower_expr_raw(const ast::Expr* e) {
  using EK = ast::ExprKind;
  switch (e->kind) {
    case EK::Constant: {
      auto* c = e->as<ast::Constant>();
      StaticValue s;
      switch (c->tag) {
        case ast::Constant::Tag::None: break;
        case ast::Constant::Tag::Bool: s = StaticValue::of_bool(c->b); break;
        case ast::Constant::Tag::Int: s = StaticValue::of_int(c->i); break;
        case ast::Constant::Tag::Float: s = StaticValue::of_float(c->f); break;
        case ast::Constant::Tag::Str: s.kind = StaticValue::Kind::string; s.s = c->s; break;
        case ast::Constant::Tag::Ellipsis: raise("SyntaxError", "'...' is not supported in kernels", e->loc);
      }
      return KVal::of(s);
    }
    case EK::Name: return load_name(e->as<ast::Name>());
    case EK::BinOp: {
      auto* b = e->as<ast::BinOp>();
      KVal l = lower_expr(b->left);
      KVal r = lower_expr(b->right);
      return lower_binop(b->op, l, r, e->loc);
    }
    case EK::UnaryOp: return lower_unary(e->as<ast::UnaryOp>());
    case EK::BoolOp: return lower_boolop(e->as<ast::BoolOp>());
    case EK::Compare: return lower_compare(e->as<ast::Compare>());
    case EK::Call: return lower_call(e->as<ast::Call>());
    case EK::Subscript: return lower_subscript(e->as<ast::Subscript>());
    case EK::Attribute: {
      auto* a = e->as<ast::Attribute>();
      KVal base = lower_expr(a->value);
      if (is_tensor(base)) return swizzle(base.v, a->attr, e->loc);
      if (base.is_struct()) return struct_member(base, a->attr, e->loc);
      if (!base.is_static())
        raise("AttributeError", (base.is_value() ? a_value(base.v->type.prim) : std::string("a tuple")) +
                                    " has no attribute '" + a->attr + "'", e->loc);
      if (const FieldInfo* nd = ndarray_of(base.s)) return ndarray_attr(*nd, base.s, a->attr, e->loc);
      return KVal::of(host.attr(base.s, a->attr, e->loc));
    }
    case EK::Tuple:
    case EK::List: {
      const ast::ExprList& elts = e->kind == EK::Tuple ? e->as<ast::Tuple>()->elts : e->as<ast::List>()->elts;
      KVal t;
      t.kind = KVal::Kind::tuple;
      t.list = e->kind == EK::List;
      for (auto* x : elts) {
        if (x->kind != EK::Starred) {
          t.elems.push_back(lower_expr(x));
          continue;
        }
        // [*t, x]: the elements of a tuple or a vector, spliced in
        KVal v = lower_expr(x->as<ast::Starred>()->value);
        if (v.is_tuple()) t.elems.insert(t.elems.end(), v.elems.begin(), v.elems.end());
        else if (v.is_static() && v.s.kind == StaticValue::Kind::tuple)
          for (auto& e : v.s.elems) t.elems.push_back(KVal::of(e));
        else if (is_tensor(v) && !v.v->type.cols)
          for (Stmt* e : elements(v.v, x->loc)) t.elems.push_back(KVal::of(e));
        else raise("TypeError", "only tuples and vectors can be unpacked with * in a kernel", x->loc);
      }
      return t;
    }
    case EK::ListComp: return lower_comprehension(e->as<ast::ListComp>());
    case EK::NamedExpr: {  // (x := v): assigns as `x = v` does, then reads x
      auto* n = e->as<ast::NamedExpr>();
      KVal v = lower_expr(n->value);
      if (!bind_static_name(n->target, v, n->value)) lower_assign(n->target, v, n->target->loc);
      return load_name(n->target);
    }
    case EK::IfExp: {
      auto* x = e->as<ast::IfExp>();
      KVal c = lower_expr(x->test);
      if (c.is_static()) {  // a Python-constant condition picks a branch, as Python would
        return lower_expr(static_truthy(c.s) ? x->body : x->orelse);
      }
      // Only the branch taken is evaluated, as in Taichi (its ifte): in
      // `v[i - 1] if i > 0 else 0.0` the load must not run when i == 0. Each
      // branch stores into a local whose type is known once both are lowered.
      Stmt* cond = as_condition(c, x->test->loc);
      Stmt* slot = emit_alloca(Type::scalar(Prim::i32), e->loc);
      auto st = std::make_unique<Stmt>(StmtKind::if_);
      st->ops = {cond};
      Stmt* iff = emit(std::move(st), e->loc);
      Prim pa, pb;
      push_block(iff);
      KVal a = lower_expr(x->body);
      pa = prim_of(a, e->loc);
      Stmt* va = value_of(a, e->loc);
      pop_block();
      push_block(iff, true);
      KVal b = lower_expr(x->orelse);
      pb = prim_of(b, e->loc);
      Stmt* vb = value_of(b, e->loc);
      pop_block();
      Type t = va->type.rows ? va->type : vb->type;
      t.prim = promote(pa, pb);
      t.is_ptr = false;
      if (va->type.rows && vb->type.rows) match_shapes(va, vb, "'a if c else b'", e->loc);  // raises on a mismatch
      slot->type = t;
      for (int k = 0; k < 2; k++) {
        push_block(iff, k == 1);
        Stmt* v = emit_cast(k ? vb : va, t.prim, e->loc);
        if (t.rows && !v->type.rows) v = broadcast(v, t, e->loc);
        emit_store(slot, v, e->loc);
        pop_block();
      }
      return KVal::of(emit_load(slot, e->loc));
    }
    case EK::JoinedStr:
      raise("TypeError", "f-strings in kernels can only be printed (print(f\"...\"))", e->loc);
    default: break;
  }
  raise("SyntaxError", std::string("the expression '") + ast::expr_kind_name(e->kind) + "' is not supported in kernels", e->loc);
}

}  // namespace kiln::frontend
