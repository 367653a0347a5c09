// Bounds-guard hoisting: a guard `x <u C` inside the loop whose x is a
// monotone function of the loop counter (i, i+1, i*256+j, ndrange's i/62 and
// i%62, ...) holds for every iteration once it holds for the smallest and the
// largest counter the loop can reach. Those two checks run once, before
// `loop`; the loop body then has no per-element bounds guard (jacobi had six).
//
// The counter is a register the iteration bumps by exactly one and whose next
// value it compares `lt` an invariant end E: in the body it lies in
// [first body value, E-1]. Intervals are carried in exact i64 arithmetic;
// every step that could wrap in the body's own type (i32 adds, i64 products)
// adds a guard that it does not, so a hoisted check never passes where the
// per-iteration guard would have failed.
//
// A hoisted guard that fails exits at the loop head of the second iteration
// with the state the head snapshot describes; the interpreter then runs the
// iterations and reports the out-of-bounds access where it happens.
#pragma once
#include <vector>

#include "jit/opt.h"

namespace kiln::jit {

// Emits, at the current end of the trace (the first iteration's end), the
// hoisted checks for the first iteration's guards below `n1` that qualify;
// returns, per ref below n1, whether that guard's body copy is implied.
// `variant` marks first-iteration values that change between iterations.
std::vector<bool> hoist_bounds(Trace& t, Emitter& e, Ref n1, const std::vector<Ref>& end_regs,
                               const std::vector<bool>& variant, const Snapshot& head);

}  // namespace kiln::jit
