// Vectors and matrices in kernels. A tensor is one IR value of a Type with
// rows > 0 (vm/ir/ir.h); element-wise arithmetic stays whole until the
// scalarize pass, while operations that mix elements (@, dot, cross,
// determinant, inverse, indexing) are expanded here into element operations,
// as Taichi's frontend expands them.
#include <cmath>

#include "vm/frontend/lower.h"
#include "vm/runtime/sizes.h"

namespace kiln::frontend {

using ir::BinaryOp;
using ir::Stmt;
using ir::StmtKind;
using ir::UnaryOp;

static std::string shape_text(const Type& t) {
  if (t.rows == 0) return "a scalar";
  return t.cols ? std::to_string(t.rows) + "x" + std::to_string(t.cols) + " matrix"
                : std::to_string(t.rows) + "-vector";
}

Type Lowerer::tensor_type(Prim p, int rows, int cols, SourceLoc loc) {
  // The limits every host applies to vector and matrix types (vm/runtime/sizes.h).
  // rows == 0 is a scalar.
  if (cols) check_matrix_components(rows, cols, loc);
  else if (rows) check_vector_components(rows, loc);
  return Type{p, (uint16_t)rows, (uint16_t)cols, false};
}

Stmt* Lowerer::make_tensor(std::vector<Stmt*> elems, int rows, int cols, SourceLoc loc) {
  if (elems.empty()) raise("TypeError", "a vector needs at least one element", loc);
  Prim p = elems[0]->type.prim;
  for (Stmt* e : elems) {
    if (e->type.rows) raise("TypeError", "vector elements must be scalars, got a " + shape_text(e->type), loc);
    p = promote(p, e->type.prim);
  }
  auto s = std::make_unique<Stmt>(StmtKind::matrix_init);
  for (Stmt* e : elems) s->ops.push_back(emit_cast(e, p, loc));
  s->type = tensor_type(p, rows, cols, loc);
  return emit(std::move(s), loc);
}

Stmt* Lowerer::element(Stmt* t, int i, SourceLoc loc) {
  if (t->kind == StmtKind::matrix_init) return t->ops[i];  // no need to read back what we just built
  auto s = std::make_unique<Stmt>(StmtKind::matrix_extract);
  s->ops = {t};
  s->index = i;
  s->type = Type::scalar(t->type.prim);
  return emit(std::move(s), loc);
}

std::vector<Stmt*> Lowerer::elements(Stmt* t, SourceLoc loc) {
  std::vector<Stmt*> out;
  for (int i = 0; i < num_elems(t->type); i++) out.push_back(element(t, i, loc));
  return out;
}

Stmt* Lowerer::broadcast(Stmt* scalar, const Type& shape, SourceLoc loc) {
  return make_tensor(std::vector<Stmt*>(num_elems(shape), scalar), shape.rows, shape.cols, loc);
}

void Lowerer::match_shapes(Stmt*& a, Stmt*& b, const std::string& what, SourceLoc loc) {
  if (a->type.rows == b->type.rows && a->type.cols == b->type.cols) return;
  if (a->type.rows && b->type.rows)
    raise("TypeError", "the operands of " + what + " have different shapes: a " + shape_text(a->type) + " and a " +
                           shape_text(b->type), loc);
  if (!a->type.rows) a = broadcast(a, b->type, loc);
  if (!b->type.rows) b = broadcast(b, a->type, loc);
}

KVal Lowerer::tensor_binop(ast::BinOpKind op, const KVal& a, const KVal& b, SourceLoc loc) {
  Stmt* va = value_of(a, loc);
  Stmt* vb = value_of(b, loc);
  if (op == ast::BinOpKind::MatMult) return matmul(va, vb, loc);
  // A float tensor to a scalar integer power known at compile time keeps the
  // exponent scalar, so that elementwise_binop demotes it to multiplications
  // as it does for a scalar base (MPM's weights `0.5 * (1.5 - fx) ** 2` on a
  // vector fx were three libm pow calls; Taichi multiplies).
  bool int_power = op == ast::BinOpKind::Pow && va->type.rows && prim_is_float(va->type.prim) && !vb->type.rows &&
                   prim_is_int(vb->type.prim) && vb->kind == ir::StmtKind::const_;
  if (!int_power) match_shapes(va, vb, ast::op_symbol(op), loc);
  return elementwise_binop(op, va, vb, loc);
}

// Matrix product. A vector on the left is a row vector, on the right a column,
// so vector @ vector is their dot product (a scalar), as in Taichi.
KVal Lowerer::matmul(Stmt* a, Stmt* b, SourceLoc loc) {
  const Type &ta = a->type, &tb = b->type;
  if (!ta.rows || !tb.rows) raise("TypeError", "'@' needs vectors or matrices on both sides", loc);
  int ar = ta.cols ? ta.rows : 1, ac = ta.cols ? ta.cols : ta.rows;  // left: vector = 1 x n
  int br = tb.rows, bc = tb.cols ? tb.cols : 1;                       // right: vector = n x 1
  if (ac != br)
    raise("TypeError", "cannot multiply a " + shape_text(ta) + " by a " + shape_text(tb) + ": inner sizes " +
                           std::to_string(ac) + " and " + std::to_string(br) + " differ", loc);
  Prim p = promote(ta.prim, tb.prim);
  std::vector<Stmt*> ea = elements(emit_cast(a, p, loc), loc), eb = elements(emit_cast(b, p, loc), loc);
  std::vector<Stmt*> out;
  Type st = Type::scalar(p);
  for (int i = 0; i < ar; i++)
    for (int j = 0; j < bc; j++) {
      Stmt* acc = nullptr;
      for (int k = 0; k < ac; k++) {
        Stmt* m = emit_binary(BinaryOp::mul, ea[i * ac + k], eb[k * bc + j], st, loc);
        acc = acc ? emit_binary(BinaryOp::add, acc, m, st, loc) : m;
      }
      out.push_back(acc);
    }
  // Shapes: (1 x c) row-vector results and (r x 1) column results are vectors.
  if (!ta.cols && !tb.cols) return KVal::of(out[0]);
  if (!ta.cols) return KVal::of(make_tensor(out, bc, 0, loc));
  if (!tb.cols) return KVal::of(make_tensor(out, ar, 0, loc));
  return KVal::of(make_tensor(out, ar, bc, loc));
}

// t[i], t[i, j], and for a matrix t[i] (a row). Runtime indices pick with a
// chain of selects: a local vector has no memory to index.
KVal Lowerer::tensor_index(Stmt* t, const std::vector<KVal>& idx, SourceLoc loc) {
  const Type& tt = t->type;
  int rows = tt.rows, cols = tt.cols;
  if (idx.empty() || idx.size() > (cols ? 2u : 1u))
    raise("TypeError", "a " + shape_text(tt) + " takes " + (cols ? "1 or 2 indices" : "1 index") + ", got " +
                           std::to_string(idx.size()), loc);
  auto pick = [&](const std::vector<Stmt*>& cands, const KVal& k, int n) -> Stmt* {
    if (k.is_static()) {
      if (k.s.kind != StaticValue::Kind::integer) raise("TypeError", "vector indices must be integers", loc);
      int64_t i = k.s.i;
      if (i < 0 || i >= n)
        raise("IndexError", "index " + std::to_string(i) + " is out of range for a " + shape_text(tt), loc);
      return cands[i];
    }
    Stmt* iv = value_of(k, loc);
    if (!prim_is_int(iv->type.prim) || iv->type.rows) raise("TypeError", "vector indices must be integers", loc);
    Stmt* r = cands[0];
    for (int i = 1; i < n; i++) {
      Stmt* c = emit_binary(BinaryOp::cmp_eq, iv, emit_const(ir::Const::of_int(iv->type.prim, i), loc),
                            Type::scalar(Prim::i32), loc);
      auto s = std::make_unique<Stmt>(StmtKind::select);
      s->ops = {c, cands[i], r};
      s->type = cands[i]->type;
      r = emit(std::move(s), loc);
    }
    return r;
  };
  std::vector<Stmt*> e = elements(t, loc);
  if (!cols) return KVal::of(pick(e, idx[0], rows));
  if (idx.size() == 2) {
    // Pick the row's elements for each column, then the column.
    std::vector<Stmt*> col_of_rows;
    for (int j = 0; j < cols; j++) {
      std::vector<Stmt*> column;
      for (int i = 0; i < rows; i++) column.push_back(e[i * cols + j]);
      col_of_rows.push_back(pick(column, idx[0], rows));
    }
    return KVal::of(pick(col_of_rows, idx[1], cols));
  }
  std::vector<Stmt*> row;
  for (int j = 0; j < cols; j++) {
    std::vector<Stmt*> column;
    for (int i = 0; i < rows; i++) column.push_back(e[i * cols + j]);
    row.push_back(pick(column, idx[0], rows));
  }
  return KVal::of(make_tensor(row, cols, 0, loc));
}

// `t[idx] = v`'s parts, checked: v cast to t's element type, and per index
// the runtime value (null for a constant index, which must be in range).
Lowerer::ElementIndex Lowerer::element_index(const Type& tt, const std::vector<KVal>& idx, Stmt* v, SourceLoc loc) {
  if (idx.size() != (tt.cols ? 2u : 1u))
    raise("TypeError", "assigning into a " + shape_text(tt) + " needs " + (tt.cols ? "2 indices" : "1 index"), loc);
  ElementIndex ei;
  ei.value = emit_cast(value_of(KVal::of(v), loc), tt.prim, loc);
  if (ei.value->type.rows) raise("TypeError", "cannot store a " + shape_text(ei.value->type) + " into one element", loc);
  for (size_t d = 0; d < idx.size(); d++) {
    if (!idx[d].is_static()) {
      ei.runtime.push_back(value_of(idx[d], loc));
      ei.dynamic = true;
      continue;
    }
    int n = d == 0 ? tt.rows : tt.cols;
    if (idx[d].s.kind != StaticValue::Kind::integer || idx[d].s.i < 0 || idx[d].s.i >= n)
      raise("IndexError", "index out of range for a " + shape_text(tt), loc);
    ei.runtime.push_back(nullptr);
  }
  return ei;
}

// Whether flat element `e` of tt is the one `idx` names: false when a
// constant index names another; else `hit` is the runtime condition, or null
// when the constant indices alone name it.
bool Lowerer::element_hit(const Type& tt, const std::vector<KVal>& idx, const ElementIndex& ei, int e, Stmt*& hit,
                          SourceLoc loc) {
  int cols = tt.cols ? tt.cols : 1;
  int coord[2] = {e / cols, e % cols};
  hit = nullptr;
  for (size_t d = 0; d < idx.size(); d++) {
    Stmt* i = ei.runtime[d];
    if (!i) {
      if (idx[d].s.i != coord[d]) return false;
      continue;
    }
    Stmt* c = emit_binary(BinaryOp::cmp_eq, i, emit_const(ir::Const::of_int(i->type.prim, coord[d]), loc),
                          Type::scalar(Prim::i32), loc);
    hit = hit ? emit_binary(BinaryOp::bit_and, hit, c, c->type, loc) : c;
  }
  return true;
}

// v[i] = x on a local tensor. The element that constant indices name is
// stored alone (an element store: local_store of a scalar into a tensor
// alloca, `index` the flat element). A runtime index writes the whole tensor
// with x selected into its element (branch-free), except where a parallel
// loop writes a local of the kernel's top level: every thread then stores the
// element it sets and nothing else, under an if per element, since a
// whole-tensor store would write back the other threads' elements as it read
// them (a vector built in a parallel loop lost updates).
void Lowerer::store_element(Stmt* local, const std::vector<KVal>& idx, Stmt* v, SourceLoc loc) {
  const Type& tt = local->type;
  ElementIndex ei = element_index(tt, idx, v, loc);
  bool shared = false;  // a top-level (parallel) loop writes a top-level local
  if (ei.dynamic && local->parent == blocks.front())
    for (size_t b = 1; b < blocks.size(); b++)
      if (const Stmt* o = blocks[b]->owner; o && o->parent == blocks.front() &&
                                            (o->kind == StmtKind::range_for || o->kind == StmtKind::offloaded))
        shared = true;
  if (ei.dynamic && !shared) {
    emit_store(local, with_element(emit_load(local, loc), idx, ei, loc), loc);
    return;
  }
  for (int e = 0; e < num_elems(tt); e++) {
    Stmt* hit;
    if (!element_hit(tt, idx, ei, e, hit, loc)) continue;
    if (hit) {
      auto st = std::make_unique<Stmt>(StmtKind::if_);
      st->ops = {hit};
      push_block(emit(std::move(st), loc));
    }
    auto s = std::make_unique<Stmt>(StmtKind::local_store);
    s->ops = {local, ei.value};
    s->index = e;
    emit(std::move(s), loc);
    if (hit) pop_block();
  }
}

// A copy of t with t[idx] replaced by v.
Stmt* Lowerer::tensor_with(Stmt* t, const std::vector<KVal>& idx, Stmt* v, SourceLoc loc) {
  return with_element(t, idx, element_index(t->type, idx, v, loc), loc);
}

Stmt* Lowerer::with_element(Stmt* t, const std::vector<KVal>& idx, const ElementIndex& ei, SourceLoc loc) {
  std::vector<Stmt*> e = elements(t, loc);
  for (int i = 0; i < (int)e.size(); i++) {
    Stmt* hit;
    if (!element_hit(t->type, idx, ei, i, hit, loc)) continue;
    if (!hit) {
      e[i] = ei.value;
      continue;
    }
    auto s = std::make_unique<Stmt>(StmtKind::select);
    s->ops = {hit, ei.value, e[i]};
    s->type = ei.value->type;
    e[i] = emit(std::move(s), loc);
  }
  return make_tensor(e, t->type.rows, t->type.cols, loc);
}

static int swizzle_index(char c) {
  switch (c) {
    case 'x': case 'r': case 's': return 0;
    case 'y': case 'g': case 't': return 1;
    case 'z': case 'b': case 'p': return 2;
    case 'w': case 'a': case 'q': return 3;
  }
  return -1;
}

KVal Lowerer::swizzle(Stmt* t, const std::string& name, SourceLoc loc) {
  if (name == "n") return KVal::of(StaticValue::of_int(t->type.rows));
  if (name == "m") return KVal::of(StaticValue::of_int(t->type.cols ? t->type.cols : 1));
  bool all = !name.empty() && name.size() <= 4;
  for (char c : name) all &= swizzle_index(c) >= 0;
  if (!all || t->type.cols)
    raise("TypeError", "a " + shape_text(t->type) + " has no attribute '" + name + "'", loc);
  std::vector<Stmt*> picked;
  for (char c : name) {
    int i = swizzle_index(c);
    if (i >= t->type.rows)
      raise("TypeError", std::string("swizzle '") + c + "' is out of range for a " + shape_text(t->type), loc);
    picked.push_back(element(t, i, loc));
  }
  if (picked.size() == 1) return KVal::of(picked[0]);
  return KVal::of(make_tensor(picked, (int)picked.size(), 0, loc));
}

Stmt* Lowerer::reduce(Stmt* t, BinaryOp op, SourceLoc loc) {
  std::vector<Stmt*> e = elements(t, loc);
  Stmt* acc = e[0];
  for (size_t i = 1; i < e.size(); i++) acc = emit_binary(op, acc, e[i], acc->type, loc);
  return acc;
}

}  // namespace kiln::frontend
