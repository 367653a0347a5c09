// Which values the backend computes only where they are needed at an exit
// (LuaJIT's sinking, for pure values): a value that only snapshots (and
// other such values) read costs nothing in the loop; its exit stubs
// recompute it from operands that stay live until then. Compares that
// become their guard's flags (fused) are recomputed the same way when a
// snapshot also needs their 0/1 value.
#pragma once
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "jit/scratch.h"
#include "jit/trace.h"

namespace kiln::jit {

// One flag per ref, a byte each: the backend reads these per operand of
// every instruction, and std::vector<bool>'s bit extraction was ~10% of a
// trace's record + compile instructions (callgrind, session 21). In the
// compile's scratch block (scratch.h).
using RefFlags = ScratchVec<uint8_t>;

// The per-ref vectors the backend reads (these flags, the register
// allocation) have one entry past the trace's last instruction: the back
// edge's spare slot, ref t.ins.size() (backend.cpp), a value that is none of
// them. Made that size from the start, compile_trace need not grow each of
// them by one (a reallocation and copy apiece, 13 a compile).
inline size_t ref_slots(const Trace& t) { return t.ins.size() + 1; }

struct SinkPlan {
  RefFlags sunk;   // computed at exits only (a folded neg: never)
  RefFlags fused;  // a compare emitted as its guard's flags, or as float selects' masks
  // A float neg that only fmas read, on its side of the loop head, and no
  // exit: each fma reads its operand and flips the sign in the instruction
  // (vfmsub, vfnmadd, vfnmsub: the same single rounding as fma(a, b, -c)).
  // Also in `sunk`, so it is neither emitted nor given a register.
  RefFlags negfold;
  // A 64-bit `add X, #c` (c fits 32 bits) that only loads and stores read as
  // their address, on its side of the loop head, and no exit: each reads
  // [X + c] (a sparse row's column, a struct member) instead of a register
  // the add computed. Also in `sunk`. Only in traces without a vector loop,
  // whose lanes read values from their homes.
  RefFlags addrfold;
  // A 64-bit `sub X, #1` that only `band X, (X - 1)` reads, on its side of
  // the loop head, and no exit: the band is BMI1's blsr of X (a word row's
  // loop clearing the bit it visited: three instructions, two of them on the
  // loop-carried chain, become one). Also in `sunk`. Only in traces without
  // a vector loop (whose 64-bit lanes would read the sub).
  RefFlags blsrfold;
  // A 64-bit `mul X, #k` (k = 2, 4 or 8) that only 64-bit adds of a
  // non-constant read, on its side of the loop head, and no exit: each add
  // is `lea d, [B + X*k]` (a word row's cell address: the bit number times
  // the cell size plus the word's address). Also in `sunk`; no vector loop.
  RefFlags scalefold;
  RefFlags remat() const {
    RefFlags r(sunk.size());
    for (size_t i = 0; i < r.size(); i++) r[i] = sunk[i] | fused[i];
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

// What each snapshot's exit must compute or read: its entries and, through
// recomputed (`remat`) values, their operands; each value once. Walked once
// per snapshot: the allocator reads a snapshot's list at every guard that
// shares it, and the exits again.
class SnapshotNeeds {
 public:
  SnapshotNeeds() = default;
  SnapshotNeeds(const Trace& t, const RefFlags& remat);
  std::span<const Ref> operator[](size_t snap) const {
    return {refs_.data() + start_[snap], refs_.data() + start_[snap + 1]};
  }

 private:
  ScratchVec<uint32_t> start_;  // per snapshot, and one past the last: its list's first index in refs_
  ScratchVec<Ref> refs_;
};

}  // namespace kiln::jit
