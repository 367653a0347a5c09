// While loops in vector lanes (docs/perf/lanes.md, "While loops in vector
// lanes, session 31"): the loop trace of a jammed while loop (kJamWhileLanes,
// vm/ir/passes/jam_while.cpp) runs its K copies in the K lanes of one
// register.
//
// Such a trace's body is K copies of one chain of pure ops, each copy's
// values carried in phis of its own, every update a select on the copy's
// live flag (record_ifconv.cpp converts the copies' `if live:` turns), and
// one guard: the or of the K live flags (the jammed loop's `if not (live0 |
// live1 | ...): break`). plan_while_lanes finds the copies (the phis whose
// values read each other), checks that the K chains are the same ops (in
// whatever order the recorder put each copy's), and packs them: op j of the
// plan is the K copies' op j,
// one vector op; an operand is packed (another position), carried (a phi's
// lanes), per copy (a value from before the loop, one per copy: K scalars
// packed at entry) or shared (one value, broadcast).
//
// The lane loop (asm_while_lanes.cpp) runs before the scalar loop of the
// trace, at its head: it runs iterations in lanes while every guard passes
// in every copy (the or of the live flags: any lane's; a guard of each copy:
// all lanes'), committing an iteration's values to the carried registers
// only then; where one fails, or on Ctrl-C, it writes the carried lanes back
// to the phis' scalar homes and the scalar loop runs that iteration again, as
// the trace did, and exits by its own guard with its own snapshot. So every
// value the scalar code sees is one the scalar loop would have computed: same
// ops, same order per lane, f32 in f32. 32-bit lanes (4 in xmm, 8 in ymm),
// or 4 64-bit ones in ymm where the copies compute in f64.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "jit/trace.h"

namespace kiln::jit {

struct WhilePlan {
  bool ok = false;
  std::string why;  // why not, when !ok
  int K = 0;        // copies = lanes: 4 (xmm) or 8 (ymm) of 32 bits, 4 (ymm) of 64
  // The lane size: 4, or 8 where the copies compute in f64. In 64-bit lanes
  // a 32-bit integer is held in the low half of its lane, the high half 0
  // (every integer op keeps it so: asm_while_lanes.cpp).
  int es = 4;

  enum Src : uint8_t { kNone, kPacked, kCarried, kPerCopy, kShared };
  struct Operand {
    Src src = kNone;
    int idx = -1;       // packed: its position; carried: its index; per_copy: its index
    Ref ref = kNoRef;   // shared: the value
    bc::CT t = bc::CT::i32;  // its type as the op reads it (u64: unknown, as below)
  };
  struct Op {
    std::vector<Ref> refs;           // copy c's op
    std::array<Operand, 3> opd;      // a, b, c
    bc::CT t = bc::CT::i32;          // the lane type of its value (f32, f64, i32, u32; u64: unknown, below)
  };
  std::vector<Op> ops;  // in body order (copy 0's)
  // A carried value of unknown type (u64: a select of values from before
  // the loop and constants, as a copy's live flag) is taken as an i32: the
  // lane loop runs only where each copy's value is a sign-extended 32-bit
  // one, and writes it back so (its selects' constants are such values).
  struct Carried {
    std::vector<Ref> slot;  // copy c's phi slot
    int val = -1;           // the position of its value around the back edge
    bc::CT t = bc::CT::i32;
  };
  std::vector<Carried> carried;
  std::vector<std::vector<Ref>> per_copy;  // per_copy[i][c]
  // A guard, tested once position `pos` is computed: `any` (the or of the
  // copies' values: passes where some lane's value is nonzero (nz) or every
  // one is zero (!nz)), else one guard a copy (passes where every lane's is
  // nonzero (nz) or zero (!nz)).
  struct Guard {
    int pos;
    bool any, nz;
  };
  std::vector<Guard> guards;
};

// The plan of a loop trace (t.loop_ref >= 0); !ok with `why` where its body
// is not K copies of one chain of pure 32-bit ops.
WhilePlan plan_while_lanes(const Trace& t);

// The lane loop (asm_while_lanes.cpp), at the trace's `loop` op: false where
// it cannot be emitted (too many values for 14 registers, a value from
// before the loop that is not computed there), with nothing emitted that
// matters (the scalar loop then runs alone). Frame temporaries in
// [area, area_end).
struct Gen;
bool while_lanes(Gen& g, const WhilePlan& p, int32_t area, int32_t area_end);

}  // namespace kiln::jit
