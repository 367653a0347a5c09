// The optimizer: folding and CSE happen as each instruction is emitted (so
// the recorder never stores a foldable op); peeling and DCE run once the
// iteration is recorded.
#pragma once
#include <functional>
#include <vector>

#include "jit/trace.h"

namespace kiln::jit {

class Emitter {
 public:
  explicit Emitter(Trace& t) : t_(t) {}

  // A value: folded when every operand is a constant, else an existing
  // identical instruction (CSE), else a new one.
  Ref emit(IrOp op, bc::CT t, Ref a = kNoRef, Ref b = kNoRef, Ref c = kNoRef, int64_t k = 0);
  Ref kval(uint64_t bits) { return emit(IrOp::kval, bc::CT::i64, kNoRef, kNoRef, kNoRef, (int64_t)bits); }
  // Memory effects: new instructions always; loads after them see a new epoch.
  Ref effect(IrOp op, Ref a, Ref b, int64_t k);
  // A guard with its snapshot. A guard implied by an earlier identical one, or
  // on a constant that passes, emits nothing. Returns false when the guard is
  // on a constant that fails (the recording is then wrong: abort).
  bool guard(IrOp op, Ref a, Ref b, Snapshot snap);
  // Probes that add nothing (if-conversion, record_ifconv.cpp): whether
  // guard(op, a, b) would emit nothing, and the load of addr (a prim) already
  // emitted with no memory effect since, or kNoRef.
  bool implied(IrOp op, Ref a, Ref b);
  Ref loaded(Ref addr, int64_t prim);
  // Runs the compiled inner loop trace k after writing `flush` into the
  // frame; the value is the pc that trace returned. Loads after it see a new
  // epoch, and so do rloads.
  Ref call_trace(int64_t k, Snapshot flush);
  // A fresh instruction with no folding (loop, phi, copy).
  Ref raw(IrOp op, Ref a = kNoRef, Ref b = kNoRef);

  // While peeling: may a CSE hit reuse this earlier instruction? (Pre-loop
  // values that change per iteration must be recomputed, not reused.)
  std::function<bool(Ref)> may_reuse;

 private:
  struct Key {
    IrOp op;
    bc::CT t;
    Ref a, b, c;
    int64_t k;
    uint32_t epoch;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      uint64_t h = (uint64_t)k.op * 0x9e3779b97f4a7c15ull ^ (uint64_t)k.t << 7;
      h = (h ^ (uint64_t)(uint32_t)k.a) * 0x100000001b3ull;
      h = (h ^ (uint64_t)(uint32_t)k.b) * 0x100000001b3ull;
      h = (h ^ (uint64_t)(uint32_t)k.c) * 0x100000001b3ull;
      h = (h ^ (uint64_t)k.k) * 0x100000001b3ull;
      return h ^ k.epoch;
    }
  };
  // Key -> Ref: the entries in insertion order, and an open-addressing
  // index into them (linear probing, at most half full). std::unordered_map's
  // node per insert and bucket walk were ~7% of a trace's record + compile.
  class CseTable {
   public:
    // k's index slot (the table grown first, so that one more entry fits):
    // where k's entry is, or the empty slot it would take. A lookup that
    // misses and then inserts probes once.
    size_t slot(const Key& k);
    const Ref* at(size_t s) const { return index_[s] >= 0 ? &entries_[index_[s]].second : nullptr; }
    void put(size_t s, const Key& k, Ref r);  // at slot(k), nothing put since: inserts or replaces

   private:
    size_t probe(const Key& k) const;     // k's index slot, or the empty one where it would go
    std::vector<std::pair<Key, Ref>> entries_;
    std::vector<int32_t> index_;          // per slot: an entry, or -1; a power of two long (or empty)
  };
  Ref lookup_or_add(const Key& key, const Ins& ins);
  bool implied_at(size_t slot, Ref a, Ref b);
  void canonical_guard(IrOp& op, Ref& a) const;
  bool nz_implies(Ref d, Ref a, int depth = 8) const;
  int const_guard(IrOp op, Ref a, Ref b) const;
  bool grows_past(Ref old, Ref len) const;

  Trace& t_;
  uint32_t epoch_ = 0;
  CseTable cse_;
};

// Peels the recorded iteration: appends `loop`, then the iteration again with
// every entry value (sload) replaced by the first iteration's final value of
// its register, so whatever is invariant CSEs to the first copy and leaves the
// loop; then phis for the registers carried around the loop. `end_regs` is
// the register -> ref map at the end of the recorded iteration.
// `live` (optional) says which registers a snapshot at a pc must hold.
using LiveFn = std::function<bool(uint32_t pc, uint16_t reg)>;
// False when a guard of the second iteration folds to a constant that
// fails: every iteration after the first would leave there, so there is no
// loop to compile (the recording is then abandoned).
bool peel(Trace& t, Emitter& e, const std::vector<Ref>& end_regs, const LiveFn& live = nullptr);

// Clears Ins::live of instructions nothing observable depends on, and of
// phis whose destination the loop never reads.
void dce(Trace& t);

}  // namespace kiln::jit
