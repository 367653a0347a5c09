// Which values the backend computes only where they are needed at an exit
// (LuaJIT's sinking, for pure values): a value that only snapshots (and
// other such values) read costs nothing in the loop; its exit stubs
// recompute it from operands that stay live until then. Compares that
// become their guard's flags (fused) are recomputed the same way when a
// snapshot also needs their 0/1 value.
#pragma once
#include <vector>

#include "jit/trace.h"

namespace kiln::jit {

struct SinkPlan {
  std::vector<bool> sunk;   // computed at exits only (a folded neg: never)
  std::vector<bool> fused;  // a compare emitted as its guard's flags, or as float selects' masks
  // A float neg that only fmas read, on its side of the loop head, and no
  // exit: each fma reads its operand and flips the sign in the instruction
  // (vfmsub, vfnmadd, vfnmsub: the same single rounding as fma(a, b, -c)).
  // Also in `sunk`, so it is neither emitted nor given a register.
  std::vector<bool> negfold;
  std::vector<bool> remat(size_t n) const {
    std::vector<bool> r(n, false);
    for (size_t i = 0; i < n; i++) r[i] = (i < sunk.size() && sunk[i]) || (i < fused.size() && fused[i]);
    return r;
  }
};

// fold_negs: the backend has FMA3's fused forms (negfold stays empty otherwise);
// blend: it has AVX's vcmpss/vblendvps (float selects' compares stay values otherwise).
SinkPlan plan_sinking(const Trace& t, bool fold_negs = false, bool blend = false);

// Calls f(ref) for every value an exit with snapshot s must compute or
// read: its entries and, through recomputed values, their operands.
template <class F>
void snapshot_needs(const Trace& t, const Snapshot& s, const std::vector<bool>& remat, F&& f) {
  std::vector<Ref> stack;
  std::vector<Ref> seen;
  for (auto& [reg, ref] : s.regs) stack.push_back(ref);
  if (s.pc_ref >= 0) stack.push_back(s.pc_ref);
  while (!stack.empty()) {
    Ref r = stack.back();
    stack.pop_back();
    bool dup = false;
    for (Ref x : seen) dup |= x == r;
    if (dup) continue;
    seen.push_back(r);
    f(r);
    if (r < (Ref)remat.size() && remat[r])
      for (Ref o : {t.ins[r].a, t.ins[r].b, t.ins[r].c})
        if (o >= 0) stack.push_back(o);
  }
}

}  // namespace kiln::jit
