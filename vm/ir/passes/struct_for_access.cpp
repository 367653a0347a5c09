// Taichi's struct-for access optimisation. Inside a struct-for over a sparse
// container SNode, an access to a field placed in that container's cells at
// the loop's own indices is the cell the loop is visiting: the launcher's
// cell table already holds its address, so the access becomes that address
// plus the element's offset in the cell (Access::in_cell) instead of a walk
// down the tree with an activation check at every level. The cell is active
// (the list holds it) and its indices are in bounds (the loop made them), so
// neither check stays.
//
// An index matches when it is the loop's index of the same axis, or that
// index shifted by a field's offset and back (the frontend adds a field's
// offset to struct-for indices and subtracts it again at the access).
#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

bool is_const_int(const Stmt* s, int64_t* v) {
  if (s->kind != StmtKind::const_ || !prim_is_int(s->type.prim)) return false;
  *v = s->value.i;
  return true;
}

// Is `s` loop index `axis` of `task` (possibly + c - c)?
bool is_loop_axis(const Stmt* s, const Stmt* task, int axis) {
  int64_t a = 0, b = 0;
  if (s->kind == StmtKind::binary && s->bop == BinaryOp::sub && is_const_int(s->ops[1], &b)) {
    const Stmt* x = s->ops[0];
    if (x->kind == StmtKind::binary && x->bop == BinaryOp::add && is_const_int(x->ops[1], &a) && a == b) s = x->ops[0];
  }
  return s->kind == StmtKind::loop_index && s->loop == task && s->index == axis;
}

bool at_loop_cell(const Stmt* p, const Stmt* task) {
  const Access& acc = p->access;
  if (acc.sparse_place < 0 || acc.in_cell || acc.sparse_cell != task->snode) return false;
  if ((int)p->ops.size() != task->rare().num_loop_indices) return false;
  for (size_t a = 0; a < p->ops.size(); a++)
    if (!is_loop_axis(p->ops[a], task, (int)a)) return false;
  return true;
}

bool rewrite_task(Stmt& task) {
  std::vector<Stmt*> at_cell;  // collected first: the cell's address goes into the body walked
  walk(*task.body, [&](Stmt* s) {
    if (s->kind == StmtKind::global_ptr && at_loop_cell(s, &task)) at_cell.push_back(s);
  });
  if (at_cell.empty()) return false;
  auto li = make_stmt(StmtKind::loop_index, Type::scalar(Prim::i64), task.loc);
  li->loop = &task;
  li->index = task.rare().num_loop_indices;
  Stmt* cell = task.body->insert(0, std::move(li));
  for (Stmt* s : at_cell) {
    s->ops = {cell};
    s->access->in_cell = true;
    s->access->checked = false;
    s->access->activate = false;
  }
  return true;
}

}  // namespace

bool struct_for_access(Kernel& k) {
  bool changed = false;
  for (auto& t : k.root.stmts)
    if (t->kind == StmtKind::offloaded && t->task == Task::struct_for && t->body) changed |= rewrite_task(*t);
  return changed;
}

}  // namespace kiln::ir
