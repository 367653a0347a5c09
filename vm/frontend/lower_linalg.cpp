// ti.types.sparse_matrix_builder() kernel arguments (ti.linalg). A builder is
// three 1-D arrays that the host owns: the triplets' indices (i32, two per
// triplet), their values (f64) and a counter (i32[1]). `A[i, j] += v` claims
// a triplet slot with one atomic add on the counter, so any number of
// parallel iterations append at once, and writes the slot when it is below
// the capacity. The counter keeps counting past it, so the host's build()
// can say how many triplets did not fit instead of dropping them silently.
// Everything here is ordinary IR (atomic, if, bounds-checked stores), so
// every engine runs it.
#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::Stmt;
using ir::StmtKind;

StaticValue Lowerer::bind_sparse_builder(const std::string& name, int slot) {
  static const char* kParts[] = {".indices", ".values", ".count"};
  static const Prim kPrims[] = {Prim::i32, Prim::f64, Prim::i32};
  StaticValue sv;
  sv.kind = StaticValue::Kind::sparse_builder;
  sv.s = name;
  for (int p = 0; p < 3; p++) {
    FieldInfo& f = ndarrays.emplace_back();
    f.name = name + kParts[p];
    f.dtype = kPrims[p];
    f.shape.assign(1, -1);
    f.ndarray_arg = slot + 2 * p;
    sv.fields.push_back(&f);
  }
  return sv;
}

// The address of element `index` of one of the builder's arrays (checked
// against the array's length like any ndarray access).
static Stmt* part_ptr(Lowerer& L, const FieldInfo& f, Stmt* index, SourceLoc loc) {
  auto s = std::make_unique<Stmt>(StmtKind::global_ptr);
  s->ops.push_back(index);
  s->access->ext_arg = f.ndarray_arg;
  s->access->ext_comps = 1;
  s->access->ext_comp = 0;
  s->access->field = f.name;
  s->access->snode = "ndarray " + f.name;
  s->type = Type::ptr(f.dtype);
  return L.emit(std::move(s), loc);
}

void Lowerer::lower_builder_update(const StaticValue& b, const ast::AugAssign* s) {
  SourceLoc loc = s->loc;
  if (s->op != ast::BinOpKind::Add && s->op != ast::BinOpKind::Sub)
    raise("TypeError", "a sparse matrix builder ('" + b.s + "') only takes '+=' and '-=' (each adds a triplet), not '" +
                           ast::op_symbol(s->op) + "='",
          loc);
  auto* sub = s->target->as<ast::Subscript>();
  std::vector<KVal> idx;
  flatten_index(sub->slice, idx);
  if (idx.size() != 2)
    raise("IndexError", "a sparse matrix builder ('" + b.s + "') is indexed with a row and a column: " + b.s +
                            "[i, j], not " + std::to_string(idx.size()) + " index" + (idx.size() == 1 ? "" : "es"),
          sub->slice->loc);
  Stmt* ij[2];
  for (int k = 0; k < 2; k++) {
    Stmt* v = value_of(idx[(size_t)k], sub->slice->loc);
    if (!prim_is_int(v->type.prim) || v->type.rows)
      raise("TypeError", "a sparse matrix builder's row and column must be integers, got " + shape_phrase(v->type),
            sub->slice->loc);
    ij[k] = emit_cast(v, Prim::i32, loc);
  }
  Stmt* v = value_of(lower_expr(s->value), s->value->loc);
  if (v->type.rows)
    raise("TypeError", "a sparse matrix builder's entries are scalars, cannot add " + shape_phrase(v->type), s->value->loc);
  v = emit_cast(v, Prim::f64, loc);
  if (s->op == ast::BinOpKind::Sub) v = emit_unary(ir::UnaryOp::neg, v, Type::scalar(Prim::f64), loc);

  const FieldInfo& indices = *b.fields[0];
  const FieldInfo& values = *b.fields[1];
  const FieldInfo& count = *b.fields[2];
  Stmt* zero = emit_const(ir::Const::of_int(Prim::i32, 0), loc);
  auto a = std::make_unique<Stmt>(StmtKind::atomic);
  a->aop = ir::AtomicOp::add;
  a->ops = {part_ptr(*this, count, zero, loc), emit_const(ir::Const::of_int(Prim::i32, 1), loc)};
  a->type = Type::scalar(Prim::i32);
  Stmt* at = emit(std::move(a), loc);  // the old count: this triplet's slot

  auto cap = std::make_unique<Stmt>(StmtKind::arg_load);
  cap->index = values.ndarray_arg + 1;  // the values array's length: the capacity
  cap->type = Type::scalar(Prim::i32);
  Stmt* fits = emit_binary(ir::BinaryOp::cmp_lt, at, emit(std::move(cap), loc), Type::scalar(Prim::i32), loc);
  auto iff = std::make_unique<Stmt>(StmtKind::if_);
  iff->ops = {fits};
  push_block(emit(std::move(iff), loc));
  Stmt* two = emit_const(ir::Const::of_int(Prim::i32, 2), loc);
  Stmt* row_at = emit_binary(ir::BinaryOp::mul, at, two, Type::scalar(Prim::i32), loc);
  Stmt* col_at = emit_binary(ir::BinaryOp::add, row_at, emit_const(ir::Const::of_int(Prim::i32, 1), loc),
                             Type::scalar(Prim::i32), loc);
  emit_store(part_ptr(*this, indices, row_at, loc), ij[0], loc);
  emit_store(part_ptr(*this, indices, col_at, loc), ij[1], loc);
  emit_store(part_ptr(*this, values, at, loc), v, loc);
  pop_block();
}

void Lowerer::builder_misuse(const StaticValue& b, SourceLoc loc) {
  raise("TypeError", "a sparse matrix builder ('" + b.s +
                         "') can only be added to in a kernel (" + b.s + "[i, j] += v); build() it on the host to read it",
        loc);
}

}  // namespace kiln::frontend
