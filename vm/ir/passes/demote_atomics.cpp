// Atomics on locals (an alloca still private to one task after offloading)
// need no atomicity: rewrite them as load, op, store. The statement's value,
// the old contents, is the load.
//
// Blocks are rebuilt in one pass and the atomics' users renamed as they are
// reached (uses follow definitions in pre-order; the pass runs before
// make_thread_local adds TLS blocks), so it stays linear in the kernel's size.
#include <unordered_map>

#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

struct Demoter {
  bool changed = false;
  std::unordered_map<const Stmt*, Stmt*> old_value;  // demoted atomic -> its load

  void run(Block& b) {
    std::vector<std::unique_ptr<Stmt>> in = take_all(b);
    for (auto& owned : in) {
      Stmt* s = owned.get();
      rename_operands(*s, old_value);
      if (s->body) run(*s->body);
      if (s->else_body) run(*s->else_body);
      if (s->kind != StmtKind::atomic || s->ops[0]->kind != StmtKind::alloca) {
        b.stmts.push_back(std::move(owned));
        continue;
      }
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
      old_value[s] = b.add(std::move(load));
      b.add(std::move(op));
      b.add(std::move(store));
      changed = true;  // the atomic itself goes with `in`
    }
  }
};

}  // namespace

bool demote_atomics(Kernel& k) {
  Demoter d;
  d.run(k.root);
  return d.changed;
}

}  // namespace kiln::ir
