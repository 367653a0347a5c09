// Atomics on locals (an alloca still private to one task after offloading)
// need no atomicity: rewrite them as load, op, store. The statement's value,
// the old contents, is the load.
#include "vm/ir/passes/passes.h"

namespace kiln::ir {

static bool demote_in(Block& b) {
  bool changed = false;
  for (size_t i = 0; i < b.stmts.size(); i++) {
    Stmt* s = b.stmts[i].get();
    if (s->body) changed |= demote_in(*s->body);
    if (s->else_body) changed |= demote_in(*s->else_body);
    if (s->kind != StmtKind::atomic || s->ops[0]->kind != StmtKind::alloca) continue;
    Stmt* slot = s->ops[0];
    Stmt* value = s->ops[1];
    auto load = std::make_unique<Stmt>(StmtKind::local_load);
    load->type = Type::scalar(slot->type.prim);
    load->ops = {slot};
    load->loc = s->loc;
    auto op = std::make_unique<Stmt>(StmtKind::binary);
    op->bop = binary_of(s->aop);
    op->type = load->type;
    op->ops = {load.get(), value};
    op->loc = s->loc;
    auto store = std::make_unique<Stmt>(StmtKind::local_store);
    store->ops = {slot, op.get()};
    store->loc = s->loc;
    Stmt* old = b.insert(i, std::move(load));
    b.insert(i + 1, std::move(op));
    b.insert(i + 2, std::move(store));
    // The atomic now sits at i + 3; its users read the old value instead.
    Block* root = &b;
    while (root->owner && root->owner->parent) root = root->owner->parent;
    replace_uses(*root, s, old);
    b.take(i + 3);
    i += 2;
    changed = true;
  }
  return changed;
}

bool demote_atomics(Kernel& k) { return demote_in(k.root); }

}  // namespace kiln::ir
