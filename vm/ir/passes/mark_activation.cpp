// Marks the global pointers that are written (stored to, or updated
// atomically) so that engines activate sparse cells on those accesses only:
// in Taichi writes activate and reads of inactive cells give 0 without
// activating anything. Dense accesses ignore the flag.
#include "vm/ir/passes/passes.h"

namespace kiln::ir {

void mark_activation(Kernel& k) {
  walk(k.root, [](Stmt* s) {
    bool writes = s->kind == StmtKind::global_store || s->kind == StmtKind::atomic;
    // A cell access (the struct-for's visited cell) is active already.
    if (writes && !s->ops.empty() && s->ops[0]->kind == StmtKind::global_ptr && !s->ops[0]->access->in_cell)
      s->ops[0]->access->activate = true;
  });
}

}  // namespace kiln::ir
