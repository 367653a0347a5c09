#include "vm/ir/ndarray_uses.h"

#include <set>

namespace kiln::ir {

namespace {

// The accesses of `f` (the kernel, or a ti.real_func it calls) whose argument
// slot a is the kernel's slot[a] (-1: not one of the kernel's arguments);
// a call passes its argument loads on to the callee's slots.
struct Scan {
  const Kernel& owner;
  std::vector<NdarrayUse> nds;
  std::set<std::pair<int, std::vector<int>>> seen;  // (function, slots) scanned: calls may recurse

  NdarrayUse* find(int arg) {
    for (auto& b : nds)
      if (b.arg == arg) return &b;
    return nullptr;
  }

  void scan(const Kernel& f, const std::vector<int>* slot) {
    auto kernel_slot = [&](int a) { return !slot ? a : (size_t)a < slot->size() ? (*slot)[(size_t)a] : -1; };
    walk(const_cast<Block&>(f.root), [&](Stmt* s) {
      if (s->kind == StmtKind::global_ptr && s->access->ext_arg >= 0) {
        int a = kernel_slot(s->access->ext_arg);
        if (a >= 0 && !find(a))
          nds.push_back(NdarrayUse{a, (int)s->ops.size(), prim_bits(s->type.prim) / 8 * s->access->ext_comps, false,
                                   s->access->field});
      }
      bool writes = s->kind == StmtKind::global_store || s->kind == StmtKind::atomic;
      if (writes && s->ops[0]->kind == StmtKind::global_ptr && s->ops[0]->access->ext_arg >= 0)
        if (NdarrayUse* b = find(kernel_slot(s->ops[0]->access->ext_arg))) b->written = true;
      if (s->kind != StmtKind::call || s->index < 0 || (size_t)s->index >= owner.funcs.size()) return;
      std::vector<int> passed;
      for (const Stmt* o : s->ops) passed.push_back(o->kind == StmtKind::arg_load ? kernel_slot(o->index) : -1);
      if (seen.insert({s->index, passed}).second) scan(*owner.funcs[(size_t)s->index], &passed);
    });
  }
};

}  // namespace

std::vector<NdarrayUse> ndarray_uses(const Kernel& k) {
  Scan sc{k, {}, {}};
  sc.scan(k, nullptr);
  return std::move(sc.nds);
}

}  // namespace kiln::ir
