#include "vm/ir/ndarray_uses.h"

namespace kiln::ir {

std::vector<NdarrayUse> ndarray_uses(const Kernel& k) {
  std::vector<NdarrayUse> nds;
  auto find = [&](int arg) -> NdarrayUse* {
    for (auto& b : nds)
      if (b.arg == arg) return &b;
    return nullptr;
  };
  walk(const_cast<Block&>(k.root), [&](Stmt* s) {
    if (s->kind == StmtKind::global_ptr && s->access.ext_arg >= 0 && !find(s->access.ext_arg))
      nds.push_back(NdarrayUse{s->access.ext_arg, (int)s->ops.size(),
                               prim_bits(s->type.prim) / 8 * s->access.ext_comps, false, s->access.field});
    bool writes = s->kind == StmtKind::global_store || s->kind == StmtKind::atomic;
    if (writes && s->ops[0]->kind == StmtKind::global_ptr && s->ops[0]->access.ext_arg >= 0)
      if (NdarrayUse* b = find(s->ops[0]->access.ext_arg)) b->written = true;
  });
  return nds;
}

}  // namespace kiln::ir
