// Which values the backend computes only where they are needed at an exit
// (LuaJIT's sinking, for pure values): a value that only snapshots (and
// other such values) read costs nothing in the loop; its exit stubs
// recompute it from operands that stay live until then. Compares that
// become their guard's flags (fused) are recomputed the same way when a
// snapshot also needs their 0/1 value.
#pragma once
#include <utility>
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
  // A 64-bit `add X, #c` (c fits 32 bits) that only loads and stores read as
  // their address, on its side of the loop head, and no exit: each reads
  // [X + c] (a sparse row's column, a struct member) instead of a register
  // the add computed. Also in `sunk`. Only in traces without a vector loop,
  // whose lanes read values from their homes.
  std::vector<bool> addrfold;
  // A 64-bit `sub X, #1` that only `band X, (X - 1)` reads, on its side of
  // the loop head, and no exit: the band is BMI1's blsr of X (a word row's
  // loop clearing the bit it visited: three instructions, two of them on the
  // loop-carried chain, become one). Also in `sunk`. Only in traces without
  // a vector loop (whose 64-bit lanes would read the sub).
  std::vector<bool> blsrfold;
  // A 64-bit `mul X, #k` (k = 2, 4 or 8) that only 64-bit adds of a
  // non-constant read, on its side of the loop head, and no exit: each add
  // is `lea d, [B + X*k]` (a word row's cell address: the bit number times
  // the cell size plus the word's address). Also in `sunk`; no vector loop.
  std::vector<bool> scalefold;
  std::vector<bool> remat(size_t n) const {
    std::vector<bool> r(n, false);
    for (size_t i = 0; i < n; i++) r[i] = (i < sunk.size() && sunk[i]) || (i < fused.size() && fused[i]);
    return r;
  }
};

// fold_negs: the backend has FMA3's fused forms (negfold stays empty otherwise);
// blend: it has AVX's vcmpss/vblendvps (float selects' compares stay values otherwise);
// fold_addrs: the trace has no vector loop (addrfold, blsrfold and scalefold stay empty otherwise).
SinkPlan plan_sinking(const Trace& t, bool fold_negs = false, bool blend = false, bool fold_addrs = false);

// The band `x & (x - 1)` of a 64-bit x: its x (kNoRef when `in` is not one).
Ref lowest_bit_cleared(const Trace& t, const Ins& in);
// A 64-bit `mul X, #k`, k = 2, 4 or 8: X and log2(k) (kNoRef when not one).
std::pair<Ref, int> index_scale(const Trace& t, const Ins& in);

// The register operand and displacement of a folded address (SinkPlan::addrfold).
inline std::pair<Ref, int32_t> folded_address(const Trace& t, Ref r) {
  const Ins& in = t.ins[r];
  return t.is_const(in.b) ? std::pair<Ref, int32_t>{in.a, (int32_t)t.ins[in.b].k}
                          : std::pair<Ref, int32_t>{in.b, (int32_t)t.ins[in.a].k};
}

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
