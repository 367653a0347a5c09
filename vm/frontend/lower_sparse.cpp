// Sparse SNodes in kernels: struct-fors over sparse fields and SNodes, the
// activation intrinsics (ti.activate, ti.deactivate, ti.is_active, ti.append,
// ti.length), ti.rescale_index, ti.get_addr and x.parent().
//
// An SNode's indices are its own coordinates, as in Taichi's sparse docs: a
// struct-for over a 4x4 pointer with 2x2 dense blocks under it gives block
// numbers 0..3, and ti.is_active(block, [i, j]) takes those; a field's (its
// place's) indices are the element indices. ti.rescale_index converts.
#include <algorithm>
#include <map>

#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::Stmt;
using ir::StmtKind;

namespace {

StaticValue of_snode(SNode* s) {
  StaticValue v;
  v.kind = StaticValue::Kind::snode;
  v.snode = s;
  return v;
}

// A struct-for over the cells of a dense block SNode D under a container P
// (`ti.root.pointer(ti.ij, 64).dense(ti.ij, 8).place(x)`, `for i, j in x`)
// runs as a struct-for over P's active cells with a plain loop over the
// block's cells inside: lists stop one level up, and the inner loop is dense
// code that the engines compile as such (the JIT traces and vectorises it)
// instead of reading a list row per cell. Cell k of the block (row-major over
// D's axes, the order D's list visits them) has the indices P's coordinates
// times D's extents plus k's digits, and the address P's cell + D's offset in
// it + k * D's cell size. Only where P's coordinates count D's blocks (P's
// first place is as deep as D's) and a block is small enough to be one
// thread's unit of work.
struct DenseRows {
  const SNode* parent = nullptr;
  std::vector<int> pidx;          // per D loop index: P's loop index on the same axis, or -1
  std::vector<int64_t> ext, div;  // D's extent on that axis, and k's divisor for its digit
};

constexpr int64_t kMaxRowCells = 4096;

bool dense_rows(const SNode* d, DenseRows& r) {
  if (d->kind != SNodeKind::dense || !d->parent || d->parent->kind == SNodeKind::root) return false;
  const SNode* p = d->parent;
  if (d->quant_array_bits || d->cell_size <= 0 || d->num_cells() > kMaxRowCells || d->path.size() < 2) return false;
  if (p->path_below.back() != d->path_below[d->path.size() - 2]) return false;
  const auto& pd = d->physical_index_position;
  const auto& pp = p->physical_index_position;
  r.parent = p;
  for (int ax : pd) {
    auto at = std::find(pp.begin(), pp.end(), ax);
    r.pidx.push_back(at == pp.end() ? -1 : (int)(at - pp.begin()));
    r.ext.push_back(d->extent[ax]);
    int64_t div = 1;
    for (int a : d->split_axes)
      if (a > ax) div *= d->extent[a];
    r.div.push_back(div);
  }
  return true;
}

// Is `op` the row loop's index `want`, possibly shifted by a field's offset
// and back (the loop variable is want + c; the access subtracts c)?
bool same_index(const Stmt* op, const Stmt* want) {
  if (op == want) return true;
  if (op->kind != StmtKind::binary || op->bop != ir::BinaryOp::sub || op->ops[1]->kind != StmtKind::const_) return false;
  const Stmt* x = op->ops[0];
  return x->kind == StmtKind::binary && x->bop == ir::BinaryOp::add && x->ops[0] == want &&
         x->ops[1]->kind == StmtKind::const_ && x->ops[1]->value.i == op->ops[1]->value.i;
}

}  // namespace

// An access at the visited cell of a block's row loop addresses the cell:
// it is active (its block is in the list) and in bounds (the loop made its
// indices), so there is no lookup, check or activation (as the
// struct_for_access pass does for the loops it sees).
void Lowerer::at_row_cell(Stmt* p) const {
  if (!row_cells || p->access->sparse_cell != row_cells->snode || p->access->in_cell) return;
  if (p->ops.size() != row_cells->idx.size()) return;
  for (size_t a = 0; a < p->ops.size(); a++)
    if (!same_index(p->ops[a], row_cells->idx[a])) return;
  p->ops = {row_cells->addr};
  p->access->in_cell = true;
  p->access->checked = false;
  p->access->activate = false;
}

// The SNode a value names: an SNode itself, or a field's place.
SNode* Lowerer::snode_of(const StaticValue& v, const std::string& what, SourceLoc loc) {
  if (v.kind == StaticValue::Kind::snode && v.snode) return v.snode;
  if (const FieldInfo* f = first_component(v))
    if (f->place) return f->place;
  raise("TypeError", what + " takes an SNode (or a field), not " + describe_static(v), loc);
}

const SNode* Lowerer::struct_for_target(const StaticValue& v, SourceLoc loc) {
  prog.materialize();
  if (v.kind == StaticValue::Kind::snode) {
    SNode* s = v.snode;
    if (s->kind == SNodeKind::root) raise("TypeError", "cannot loop over ti.root: it has no indices", loc);
    return s->kind == SNodeKind::place ? s->parent : s;
  }
  const FieldInfo* f = first_component(v);
  // Purely dense fields loop over their shape (a range-for): no list needed.
  if (!f || !f->place || !f->place->sparse) return nullptr;
  return f->place->parent;
}

void Lowerer::lower_struct_for(const ast::For* s, const SNode* target, const std::vector<std::string>& names,
                               bool grouped, bool serialize, const std::vector<int64_t>& offset, int block_dim) {
  SourceLoc loc = s->loc;
  if (blocks.back() != &kernel.root)
    raise("SyntaxError", "a struct-for over the sparse SNode " + target->name() +
                             " must be the kernel's outermost loop (it runs over lists of active cells)", loc);
  int nidx = (int)target->physical_index_position.size();
  if (nidx == 0) raise("TypeError", "cannot loop over " + target->name() + ": it has no indices", loc);
  if (grouped) {
    if (names.size() != 1) raise("SyntaxError", "a ti.grouped loop has exactly one target", s->target->loc);
  } else if ((int)names.size() != nidx) {
    raise("SyntaxError", "the loop over " + target->name() + " has " + std::to_string(nidx) + " ind" +
                             (nidx == 1 ? "ex" : "ices") + " but " + std::to_string(names.size()) + " target" +
                             (names.size() == 1 ? " was" : "s were") + " given",
          s->target->loc);
  }
  // An autodiff kernel keeps plain indices: its companions' accesses are
  // built from the primal's.
  DenseRows rows;
  bool by_rows = ad_mode == AutodiffMode::none && dense_rows(target, rows);
  const SNode* over = by_rows ? rows.parent : target;
  int nover = (int)over->physical_index_position.size();
  Stmt* zero = emit_const(ir::Const::of_int(Prim::i32, 0), loc);
  auto rf = std::make_unique<Stmt>(StmtKind::range_for);
  rf->ops = {zero, zero};  // placeholders: the lists decide what runs
  rf->serialize = serialize;
  rf->rare_mut().block_dim = serialize ? 0 : block_dim;
  rf->snode = over->id;
  rf->rare_mut().num_loop_indices = nover;
  const SNode* root = over;
  while (root->parent) root = root->parent;
  rf->rare_mut().path_ids.push_back(root->id);
  rf->rare_mut().path_names.push_back(root->name());
  for (const SNode* l : over->path) {
    rf->rare_mut().path_ids.push_back(l->id);
    rf->rare_mut().path_names.push_back(l->name());
  }
  Stmt* loop = emit(std::move(rf), loc);
  push_block(loop);
  auto loop_index = [&](Stmt* of, int v, Prim p) {
    auto li = std::make_unique<Stmt>(StmtKind::loop_index);
    li->type = Type::scalar(p);
    li->loop = of;
    li->index = v;
    return emit(std::move(li), loc);
  };
  auto i32 = [&](int64_t v) { return emit_const(ir::Const::of_int(Prim::i32, v), loc); };
  auto bin = [&](ir::BinaryOp op, Stmt* a, Stmt* b) { return emit_binary(op, a, b, a->type, loc); };
  std::vector<Stmt*> idx;
  RowCells cells;
  Stmt* inner = nullptr;
  if (by_rows) {
    std::vector<Stmt*> pv;
    for (int u = 0; u < nover; u++) pv.push_back(loop_index(loop, u, Prim::i32));
    // The struct-for's index past its own: the address of P's cell.
    Stmt* block = loop_index(loop, nover, Prim::i64);
    if (target->offset_in_cell)
      block = bin(ir::BinaryOp::add, block, emit_const(ir::Const::of_int(Prim::i64, target->offset_in_cell), loc));
    auto in = std::make_unique<Stmt>(StmtKind::range_for);
    in->ops = {zero, i32(target->num_cells())};
    in->serialize = true;
    inner = emit(std::move(in), loc);
    push_block(inner);
    Stmt* k = loop_index(inner, 0, Prim::i32);
    // k >= 0: Python's // and % are C's here, and engines make them shifts
    // and masks for powers of two.
    for (int v = 0; v < nidx; v++) {
      Stmt* digit = rows.ext[v] == 1 ? i32(0) : rows.div[v] == 1 ? k : bin(ir::BinaryOp::floordiv, k, i32(rows.div[v]));
      if (rows.ext[v] > 1 && rows.div[v] * rows.ext[v] < target->num_cells()) digit = bin(ir::BinaryOp::mod, digit, i32(rows.ext[v]));
      int u = rows.pidx[v];
      idx.push_back(u < 0 ? digit : bin(ir::BinaryOp::add, bin(ir::BinaryOp::mul, pv[u], i32(rows.ext[v])), digit));
    }
    cells.snode = target->id;
    cells.idx = idx;
    cells.addr = bin(ir::BinaryOp::add, block,
                     bin(ir::BinaryOp::mul, emit_cast(k, Prim::i64, loc), emit_const(ir::Const::of_int(Prim::i64, target->cell_size), loc)));
  } else {
    for (int v = 0; v < nidx; v++) idx.push_back(loop_index(loop, v, Prim::i32));
  }
  for (int v = 0; v < nidx; v++)
    if (v < (int)offset.size() && offset[(size_t)v]) idx[v] = bin(ir::BinaryOp::add, idx[v], i32(offset[(size_t)v]));
  frame().loops.push_back({inner ? inner : loop, true});  // break is an error; continue ends the cell
  push_scope();
  Binding b;
  b.kind = Binding::Kind::value;
  b.what = "loop variable";
  if (grouped) {
    b.stmt = make_tensor(idx, nidx, 0, loc);
    bind(names[0], b);
  } else {
    for (size_t i = 0; i < names.size(); i++) {
      b.stmt = idx[i];
      bind(names[i], b);
    }
  }
  // ti.random's stream key: one number per cell, whatever the chunking
  // (unused, DCE removes it).
  Stmt* key = idx[0];
  for (int v = 1; v < nidx; v++)
    key = emit_binary(ir::BinaryOp::add, emit_binary(ir::BinaryOp::mul, key, emit_const(ir::Const::of_int(Prim::i32, 1000003), loc),
                                                 Type::scalar(Prim::i32), loc),
                      idx[v], Type::scalar(Prim::i32), loc);
  Stmt* outer_rng = rng_index;
  rng_index = key;
  const RowCells* outer_cells = row_cells;
  if (by_rows) row_cells = &cells;
  lower_body(s->body);
  row_cells = outer_cells;
  rng_index = outer_rng;
  pop_scope();
  frame().loops.pop_back();
  if (inner) pop_block();
  pop_block();
}

// x.parent(n) / snode.parent(n): the n-th ancestor SNode, at compile time.
KVal Lowerer::snode_parent(const StaticValue& base, const ast::Call* c) {
  SNode* s = snode_of(base, "parent()", c->loc);
  int64_t n = 1;
  if (!c->args.empty()) {
    StaticValue k = eval_static(c->args[0]);
    if (k.kind != StaticValue::Kind::integer) raise("TypeError", "parent() takes an integer", c->args[0]->loc);
    n = k.i;
  }
  for (int64_t k = 0; k < n && s; k++) s = s->parent;
  if (!s) return KVal::of(StaticValue());
  return KVal::of(of_snode(s));
}

// The integer index values of an SNode op's index argument: a scalar, a
// tuple/list, or a grouped index vector, each converted to i32.
std::vector<Stmt*> Lowerer::snode_indices(const ast::Expr* e, SourceLoc loc) {
  std::vector<KVal> parts;
  if (e->kind == ast::ExprKind::List) {
    for (auto* x : e->as<ast::List>()->elts) flatten_index(x, parts);
  } else {
    flatten_index(e, parts);
  }
  std::vector<Stmt*> out;
  for (auto& k : parts) {
    Stmt* v = value_of(k, loc);
    if (!prim_is_int(v->type.prim) || v->type.rows)
      raise("TypeError", "SNode indices must be integers, got " + std::string(prim_name(v->type.prim)), loc);
    out.push_back(emit_cast(v, Prim::i32, loc));
  }
  return out;
}

KVal Lowerer::call_sparse_builtin(const std::string& name, const ast::Call* c) {
  SourceLoc loc = c->loc;
  if (name == "get_addr") {
    // ti.get_addr(x, I): the address of x[I] as a u64, to see a layout (which
    // elements are neighbours, a cell's stride). It is the pointer a read of
    // x[I] uses, as an integer: an IR cast_bits of the global pointer, which
    // each engine lowers to the address it computed (under an inactive sparse
    // cell, the address a read would see). Indices are checked as for x[I].
    if (c->args.size() != 2 || !c->keywords.empty())
      raise("TypeError", "ti.get_addr() takes 2 arguments (a field, its indices)", loc);
    prog.materialize();
    StaticValue v = static_of(lower_expr(c->args[0]), "ti.get_addr()", c->args[0]->loc);
    FieldInfo* f = nullptr;
    if (v.kind == StaticValue::Kind::snode && v.snode && v.snode->kind == SNodeKind::place && v.snode->field >= 0)
      f = prog.fields[(size_t)v.snode->field].get();
    else if (v.kind == StaticValue::Kind::field)
      f = v.field;
    else if (v.kind == StaticValue::Kind::matrix_field && !v.fields.empty())
      f = v.fields[0];  // a vector field's address is its first component's, as in Taichi
    if (!f)
      raise("TypeError", "ti.get_addr() takes a field (or the SNode it is placed in), not " + describe_static(v),
            c->args[0]->loc);
    if (f->ndarray_arg >= 0)
      raise("TypeError", "ti.get_addr() takes a field, not " + f->describe(), c->args[0]->loc);
    if (f->quant)
      raise("TypeError", "ti.get_addr() takes a field with addressable elements; " + f->describe() +
                           " is quantized (its elements are bits of a word)", c->args[0]->loc);
    StaticValue fv;
    fv.kind = StaticValue::Kind::field;
    fv.field = f;
    KVal index;
    for (Stmt* i : snode_indices(c->args[1], c->args[1]->loc)) index.elems.push_back(KVal::of(i));
    Stmt* p = global_ptr_at(fv, index, c->args[1]->loc);
    return KVal::of(emit_unary(ir::UnaryOp::cast_bits, p, Type::scalar(Prim::u64), loc));
  }
  if (name == "rescale_index") {
    if (c->args.size() != 3) raise("TypeError", "ti.rescale_index() takes 3 arguments (a, b, I)", loc);
    SNode* a = snode_of(static_of(lower_expr(c->args[0]), "ti.rescale_index()", c->args[0]->loc), "ti.rescale_index()", c->args[0]->loc);
    SNode* b = snode_of(static_of(lower_expr(c->args[1]), "ti.rescale_index()", c->args[1]->loc), "ti.rescale_index()", c->args[1]->loc);
    std::vector<Stmt*> I = snode_indices(c->args[2], c->args[2]->loc);
    std::vector<int64_t> sa = a->shape(), sb = b->shape();
    for (size_t n = 0; n < I.size() && n < sa.size() && n < sb.size(); n++) {
      if (sa[n] > sb[n])
        I[n] = emit_binary(ir::BinaryOp::floordiv, I[n], emit_const(ir::Const::of_int(Prim::i32, sa[n] / sb[n]), loc),
                           Type::scalar(Prim::i32), loc);
      else if (sa[n] < sb[n])
        I[n] = emit_binary(ir::BinaryOp::mul, I[n], emit_const(ir::Const::of_int(Prim::i32, sb[n] / sa[n]), loc),
                           Type::scalar(Prim::i32), loc);
    }
    return KVal::of(make_tensor(I, (int)I.size(), 0, loc));
  }
  static const std::map<std::string, ir::SNodeOpKind> kOps = {
      {"activate", ir::SNodeOpKind::activate}, {"deactivate", ir::SNodeOpKind::deactivate},
      {"is_active", ir::SNodeOpKind::is_active}, {"append", ir::SNodeOpKind::append},
      {"length", ir::SNodeOpKind::length}};
  ir::SNodeOpKind op = kOps.at(name);
  size_t want = op == ir::SNodeOpKind::append ? 3 : 2;
  if (c->args.size() != want)
    raise("TypeError", "ti." + name + "() takes " + std::to_string(want) + " arguments (" +
                           (want == 3 ? "node, indices, value" : "node, indices") + ")", loc);
  prog.materialize();
  std::string what = "ti." + name + "()";
  SNode* s = snode_of(static_of(lower_expr(c->args[0]), what.c_str(), c->args[0]->loc), what, c->args[0]->loc);
  return snode_op(op, name, s, snode_indices(c->args[1], c->args[1]->loc), want == 3 ? c->args[2] : nullptr, loc,
                  c->args[0]->loc, c->args[1]->loc);
}

// x[i].append(v), x[i].length(), x[i].deactivate(), and x.append(v) for a
// field whose only axis is dynamic: Taichi's methods of a field placed under
// a dynamic SNode, indexed by every axis but the dynamic one. They are
// ti.append/ti.length/ti.deactivate on x.parent(). False when the call is
// not of that form (the caller then lowers it as any other call).
bool Lowerer::dynamic_method(const ast::Call* c, KVal& out) {
  auto* a = c->func->as<ast::Attribute>();
  static const std::map<std::string, ir::SNodeOpKind> kMethods = {
      {"append", ir::SNodeOpKind::append}, {"length", ir::SNodeOpKind::length},
      {"deactivate", ir::SNodeOpKind::deactivate}};
  auto m = kMethods.find(a->attr);
  if (m == kMethods.end()) return false;
  const ast::Expr* fe = a->value;
  const ast::Expr* slice = nullptr;
  if (fe->kind == ast::ExprKind::Subscript) {
    slice = fe->as<ast::Subscript>()->slice;
    fe = fe->as<ast::Subscript>()->value;
  }
  // Only names (x, self.x) are looked at twice: they lower to no code.
  if (fe->kind != ast::ExprKind::Name && fe->kind != ast::ExprKind::Attribute) return false;
  KVal fv = lower_expr(fe);
  if (!fv.is_static() || (fv.s.kind != StaticValue::Kind::field && fv.s.kind != StaticValue::Kind::matrix_field &&
                          fv.s.kind != StaticValue::Kind::struct_field))
    return false;
  const FieldInfo* f = first_component(fv.s);
  if (!f || !f->place || !f->place->parent || f->place->parent->kind != SNodeKind::dynamic) return false;
  std::vector<Stmt*> idx;
  if (slice) idx = snode_indices(slice, slice->loc);
  if (idx.size() + 1 != f->shape.size()) return false;
  size_t want = m->second == ir::SNodeOpKind::append ? 1 : 0;
  if (c->args.size() != want || !c->keywords.empty())
    raise("TypeError", a->attr + "() takes " + (want ? "1 argument (the value)" : "no arguments") + " (" +
                           std::to_string(c->args.size() + c->keywords.size()) + " given)", c->loc);
  prog.materialize();
  out = snode_op(m->second, a->attr, f->place->parent, std::move(idx), want ? c->args[0] : nullptr, c->loc,
                 a->value->loc, slice ? slice->loc : a->value->loc);
  return true;
}

// The scalar components of a value, in Taichi's order: a struct's members in
// order, a vector/matrix row-major (what ti.append stores, one per field).
void Lowerer::scalar_parts(const KVal& k, std::vector<Stmt*>& out, SourceLoc loc) {
  if (k.is_struct() || k.is_tuple()) {
    for (auto& e : k.elems) scalar_parts(e, out, loc);
    return;
  }
  Stmt* v = value_of(k, loc);
  if (!v->type.rows) {
    out.push_back(v);
    return;
  }
  for (Stmt* e : elements(v, loc)) out.push_back(e);
}

KVal Lowerer::snode_op(ir::SNodeOpKind op, const std::string& name, SNode* s, std::vector<Stmt*> idx,
                       const ast::Expr* value, SourceLoc loc, SourceLoc node_loc, SourceLoc idx_loc) {
  bool sparse_kind = s->kind == SNodeKind::pointer || s->kind == SNodeKind::bitmasked || s->kind == SNodeKind::dynamic;
  if (op == ir::SNodeOpKind::deactivate && !sparse_kind)
    raise("TypeError", "ti.deactivate() needs a pointer, bitmasked or dynamic SNode, not " + s->name(), node_loc);
  bool on_dynamic = op == ir::SNodeOpKind::append || op == ir::SNodeOpKind::length;
  if (on_dynamic && s->kind != SNodeKind::dynamic)
    raise("TypeError", "ti." + name + "() needs a dynamic SNode, not " + s->name(), node_loc);
  int nidx = (int)s->physical_index_position.size();
  int dyn_v = -1;  // the dynamic axis' virtual position: append/length do not index it
  // Dynamic lists are addressed without their own axis (ti.length(x.parent(), i));
  // the full index is accepted too.
  bool short_dynamic = s->kind == SNodeKind::dynamic && (int)idx.size() == nidx - 1;
  if (on_dynamic || short_dynamic) {
    int p_dyn = -1;
    for (int p = 0; p < kMaxIndices && p_dyn < 0; p++)
      if (s->extent[p] > 1) p_dyn = p;
    for (int v = 0; v < nidx; v++)
      if (s->physical_index_position[v] == p_dyn) dyn_v = v;
    if (dyn_v < 0) dyn_v = nidx - 1;
    if (on_dynamic && (int)idx.size() == nidx) idx.erase(idx.begin() + dyn_v);
    if ((int)idx.size() != nidx - 1)
      raise("IndexError", "ti." + name + "() on " + s->name() + " takes " + std::to_string(nidx - 1) + " ind" +
                              (nidx - 1 == 1 ? "ex" : "ices") + ", got " + std::to_string(idx.size()),
            idx_loc);
    idx.insert(idx.begin() + dyn_v, emit_const(ir::Const::of_int(Prim::i32, 0), loc));
  } else if ((int)idx.size() != nidx) {
    raise("IndexError", s->name() + " has " + std::to_string(nidx) + " ind" + (nidx == 1 ? "ex" : "ices") +
                            " but ti." + name + "() was given " + std::to_string(idx.size()),
          idx_loc);
  }
  // The fields ti.append fills, one scalar each, in the order they were placed.
  std::vector<FieldInfo*> fields;
  std::vector<Stmt*> parts;
  if (op == ir::SNodeOpKind::append) {
    for (auto& ch : s->children)
      if (ch->kind == SNodeKind::place) fields.push_back(prog.fields.at(ch->field).get());
    if (fields.empty()) raise("TypeError", "ti.append() on " + s->name() + ", which holds no field", node_loc);
    // evaluated before the list grows, as Python evaluates arguments before a call
    scalar_parts(lower_expr(value), parts, value->loc);
    if (parts.size() != fields.size())
      raise("TypeError", "ti.append() on " + s->name() + ": the value has " + std::to_string(parts.size()) +
                             " component" + (parts.size() == 1 ? "" : "s") + " but the list holds " +
                             std::to_string(fields.size()) + " field" + (fields.size() == 1 ? "" : "s") + " per element",
            value->loc);
  }
  auto st = std::make_unique<Stmt>(StmtKind::snode_op);
  st->sop = op;
  st->snode = s->id;
  st->rare_mut().text = s->name();
  st->ops = idx;
  if (op == ir::SNodeOpKind::is_active || on_dynamic) st->type = Type::scalar(Prim::i32);
  Stmt* r = emit(std::move(st), loc);
  if (op != ir::SNodeOpKind::append) return op == ir::SNodeOpKind::is_active || on_dynamic ? KVal::of(r) : KVal{};
  // The value goes to the fields placed under the dynamic node, at the old length.
  idx[dyn_v] = r;
  for (size_t k = 0; k < fields.size(); k++) {
    FieldInfo* f = fields[k];
    auto ptr = std::make_unique<Stmt>(StmtKind::global_ptr);
    ptr->ops = idx;
    ptr->access = prog.access_of(*f);
    ptr->type = Type::ptr(f->dtype);
    Stmt* p = emit(std::move(ptr), loc);
    emit_store(p, convert_for_store(parts[k], f->dtype, f->describe(), value->loc), loc);
  }
  return KVal::of(r);
}

}  // namespace kiln::frontend
