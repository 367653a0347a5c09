// Atomics that no other thread can race on need no atomicity: rewrite them
// as load, op, store. The statement's value, the old contents, is the load.
// Two kinds qualify:
//  - on locals (an alloca still private to one task after offloading);
//  - on global data that each iteration of a parallel range_for task owns:
//    `x[i] += e` where i is the task's own loop index (or `x[i, j] += e` with
//    the i, j a 2-D/3-D ndrange or struct-for splits it into) and every
//    access to x in the task is that x[i] (Taichi's uniquely accessed
//    pointers), as in `for i in x: v[i] += a[i] * dt` and in gradient
//    kernels, whose adjoints of x[i] are `x.grad[i] += ...`. Distinct iterations then touch distinct
//    elements, so each element sees its updates in program order on every
//    engine;
//  - in a struct-for over sparse data, `x[i, j] += e` at the loop's own cell
//    (struct_for_access made it an in-cell access) when every access to x in
//    the task is: the list holds each cell once, so iterations own their cells.
// ndarrays (two arguments may be one array) and other sparse accesses are left
// alone, as are tasks with SNode ops (activation, appends) on their data.
//
// Blocks are rebuilt in one pass and the atomics' users renamed as they are
// reached (uses follow definitions in pre-order; the pass runs before
// make_thread_local adds TLS blocks), so it stays linear in the kernel's size.
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "vm/ir/passes/own_elements.h"
#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

using own::OwnElements;

struct Demoter {
  bool changed = false;
  std::unordered_map<const Stmt*, Stmt*> old_value;  // demoted atomic -> its load
  std::unordered_set<const Stmt*> owned_ptrs;        // global pointers no other thread uses

  void find_owned(Kernel& k) {
    for (auto& t : k.root.stmts) {
      if (t->kind != StmtKind::offloaded || (t->task != Task::range_for && t->task != Task::struct_for) || !t->body) continue;
      OwnElements o{t.get()};
      o.scan(*t->body);
      if (o.opaque) continue;
      for (const Stmt* p : o.ptrs)
        if (o.owned(p)) owned_ptrs.insert(p);
    }
  }

  void run(Block& b) {
    StmtList in = take_all(b);
    for (auto& owned : in) {
      Stmt* s = owned.get();
      rename_operands(*s, old_value);
      if (s->body) run(*s->body);
      if (s->else_body) run(*s->else_body);
      bool local = s->kind == StmtKind::atomic && s->ops[0]->kind == StmtKind::alloca;
      bool owned_global = s->kind == StmtKind::atomic && owned_ptrs.count(s->ops[0]);
      if (!local && !owned_global) {
        b.stmts.push_back(std::move(owned));
        continue;
      }
      Stmt* slot = s->ops[0];
      Stmt* value = s->ops[1];
      auto load = std::make_unique<Stmt>(local ? StmtKind::local_load : StmtKind::global_load);
      load->type = Type::scalar(slot->type.prim);
      load->ops = {slot};
      load->loc = s->loc;
      auto op = std::make_unique<Stmt>(StmtKind::binary);
      op->bop = binary_of(s->aop);
      op->type = load->type;
      op->ops = {load.get(), value};
      op->loc = s->loc;
      auto store = std::make_unique<Stmt>(local ? StmtKind::local_store : StmtKind::global_store);
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
  d.find_owned(k);
  d.run(k.root);
  return d.changed;
}

}  // namespace kiln::ir
