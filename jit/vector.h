// Vector loops: when a root trace's loop body allows lanes, the backend runs
// it eight iterations at a time in AVX2 ymm registers (sixteen in zmm where
// it divides on an AVX-512 host: jit/asm_wide.cpp) before the scalar loop
// takes the last few. "Allows lanes" is decided here, on the optimized IR:
//
// - the loop has a counter stepping by one to an invariant end (the shape
//   bounds.h also needs), tested at the body's end (`next < end`, a for
//   loop) or as `counter < end` anywhere (a while loop's test at the top:
//   within the vector loop's range it always holds), and no call, atomic or
//   inner trace; its bounds checks were hoisted;
// - a guard besides the loop test (`if x[i] > 0:` around a break, a
//   `continue`, any branch the recorder kept) tests an i32 lane value (a
//   compare's 0/1) and comes before every store: the chunk's lanes are
//   tested at once where the guard stands, and if any lane fails, the
//   vector loop leaves at the chunk's first counter with nothing of the
//   chunk stored or added (a sum's add waits until after the last guard),
//   and the scalar loop runs from there to the failing iteration's exit, as
//   it would have without lanes;
// - every value a store or a reduction needs is 32-bit (f32 or i32 lanes;
//   or, four iterations at a time, all of them f64 or i64: VecPlan::f64) and
//   computed by an op with an exact packed form (add, sub, mul, div, sqrt,
//   neg, abs, i32 -> f32, bitwise ops, integer mul, f32/i32 compares giving
//   0/1, sel);
// - stores are contiguous in the counter (root + k + 4*i) or (32-bit lanes)
//   whole elements of a field of vec2/3/4 (interleaved_stores), loads
//   contiguous or gathered at a constant stride (a field of vectors or structs), and no
//   two accesses of one array can see each other's lanes out of order: an
//   access Y after X in the body, one of them a store, must not reach the
//   bytes X reaches in the 7 iterations before (0 < dY - dX < 32; the 15
//   before in a 16-lane loop, else it keeps 8: VecPlan::lanes8);
// - values carried around the loop are the counter, folds (VecPlan::Fold:
//   integer sums, products and bitwise folds, which wrap and reorder freely,
//   and max/min, so eight partial folds are exact) or values only exits
//   read (the scalar iteration that always follows rewrites them),
//   values whose slot only exits read (VecPlan::lasts),
//   and float sums that fast_math split (vm/ir/passes/split_sums.cpp): R
//   partials rotating one place per add (p0 = p1, ..., pR-1 = p0 + e), R =
//   16 for f32 and 8 for f64, one or two registers of lanes. W adds in W
//   lanes rotate the partials by W, so lane k of register h holds partial
//   h * W + k and the body's copies alternate the registers (one zmm of 16
//   holds them all): the bits of the scalar loop. A float sum in program order stays scalar: reordering it
//   would change what is printed.
//
// The vector loop runs while at least one iteration remains after it, so the
// scalar body always runs last and every exit keeps its meaning; except a
// 16-lane loop whose loop-test exit names only what its lanes hold (split
// sums' partials, the counter's end, invariants), which runs the last
// iteration in lanes too and leaves through that exit itself
// (asm_vector_frame.cpp: VectorLoop::lane_exit).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "jit/flat_map.h"
#include "jit/scratch.h"
#include "jit/trace.h"

namespace kiln::jit {

struct VecPlan {
  bool ok = false;
  std::string why;                   // when not: the first reason (for dumps and tests)
  Ref iv = kNoRef;                   // the counter's slot (what the body reads)
  Ref end = kNoRef;                  // the loop's invariant end
  // ndrange rows: a body that splits the counter as q = i / M, r = i % M
  // (M constant) may address q * stride + r contiguously: the vector loop
  // then runs within one row at a time and is re-entered from the scalar
  // back edge at the next row's start.
  Ref row_q = kNoRef, row_r = kNoRef;
  int64_t row_m = 0;                 // M, or 0: no rows
  // Planes of rows (a 3-D ndrange: i = counter / (M * P), j = q % P): the
  // plane p = q / P (as q / P or counter / (M * P)) and q % P (= q - P * p)
  // address linearly in q and p, and p changes every P rows, where the
  // vector loop adds each root's cp (Access::cp). 0: no planes.
  // As values (a boundary test `k == 0`, coordinates in the arithmetic)
  // they are uniform over a row as q is: kinds plane and in_plane, each
  // broadcast from its frame slot as the loop enters a row.
  int64_t row_p = 0;
  std::vector<Ref> plane_refs, in_plane_refs;  // the body's values p and q % P
  // Volumes of planes (a 4-D ndrange: h = counter / (M * P * V), i = p % V):
  // v = p / V (as p / V, q / (P * V) or counter / (M * P * V)) and p % V
  // (= p - V * v), the same one level up: every V planes the vector loop
  // adds each root's cv (Access::cv). 0: no volumes.
  int64_t row_v = 0;
  std::vector<Ref> vol_refs, in_vol_refs;  // the body's values v and p % V
  static bool has(const std::vector<Ref>& v, Ref r) { return std::find(v.begin(), v.end(), r) != v.end(); }
  bool is_plane(Ref r) const { return has(plane_refs, r); }
  bool is_in_plane(Ref r) const { return has(in_plane_refs, r); }
  bool is_vol(Ref r) const { return has(vol_refs, r); }
  bool is_in_vol(Ref r) const { return has(in_vol_refs, r); }
  // Row roots: with rows, an access's root may be an address the body loads
  // from base + sq * q + k (base invariant): the same for a whole row, as a
  // struct-for's row address is when its blocks' cells run as one loop
  // (vm/bytecode/flat_rows.h). The vector loop loads it as it enters a row.
  struct RowRoot {
    Ref base;
    int32_t k, sq;
  };
  FlatMap<Ref, RowRoot> row_roots;  // by the load
  // 64-bit lanes (named for f64, their first type): a loop whose values are
  // all f64 (loads, stores, + - * / sqrt neg abs, split f64 sums) or i64/u64
  // (loads, stores, + - neg & | ^, i64 sums), and invariants, runs four
  // iterations at a time, one value per 64-bit lane (no rows, no gathers, no
  // counter as a value).
  bool f64 = false;
  int width() const { return f64 ? 4 : 8; }
  // Accesses that 8 lanes keep in order but 16 would not (an access Y after
  // X reaching X's bytes of 8 to 15 iterations before): no zmm loop.
  bool lanes8 = false;
  enum Kind : uint8_t { none, uniform, iota, iota_r, rowq, plane, in_plane, vol, in_vol, lane, reduce };
  // (kind, order and access: in the compile's scratch block, scratch.h)
  ScratchVec<uint8_t> kind;          // per ref: how the vector loop holds it
  ScratchVec<Ref> order;             // loads, ops, guards, stores and reduction adds, in body order
  bool guards = false;               // order has guards besides the loop test
  struct Access {
    Ref root;                        // an invariant address the body reads
    int32_t disp;                    // + disp + 4 * (by_r ? r : counter) (f64: 8 * counter)
    int32_t cq = 0;                  // + cq * q
    bool by_r = false;
    // A gathered load (an array of structs: pos[j].x): root + disp +
    // stride * counter, stride bytes apart lane to lane; 0: contiguous.
    int32_t stride = 0;
    int32_t cp = 0;                  // + cp * p (planes of rows: row_p)
    int32_t cv = 0;                  // + cv * v (volumes of planes: row_v)
  };
  ScratchVec<Access> access;         // per ref (loads and stores)
  // Interleaved loads: gathered loads of one array at a stride of S = 8, 12
  // or 16 bytes that read every 32-bit component of its elements (a field of
  // vec2, vec3 or vec4 read whole) load 8 elements as S / 4 contiguous
  // vectors and shuffle them apart (jit/asm_interleave.cpp) instead of
  // gathering each component: the first of them in body order -> the loads
  // of components 0, 1, ..., S / 4 - 1.
  FlatMap<Ref, std::vector<Ref>> interleaved;
  bool in_group(Ref load) const {          // a component of an interleaved group
    for (auto& [first, comp] : interleaved)
      for (Ref c : comp)
        if (c == load) return true;
    return false;
  }
  // Interleaved stores (x[i] += v[i] * dt over vec3 fields): stores at a
  // stride of S = 8, 12 or 16 bytes, each store of an element's component
  // one of a group that stores all S / 4 of them in the same iteration with
  // no guard and no other access of the array between its first and last,
  // store 8 elements as S / 4 contiguous vectors, the components shuffled
  // together (jit/asm_interleave.cpp: interleave_store): the last of them in
  // body order, where the group is stored -> the stores of components 0,
  // 1, ..., S / 4 - 1. A store at a stride outside such a group has no lanes.
  FlatMap<Ref, std::vector<Ref>> interleaved_stores;
  Ref store_group(Ref store) const {       // the group's last store, or kNoRef
    for (auto& [last, comp] : interleaved_stores)
      for (Ref c : comp)
        if (c == store) return last;
    return kNoRef;
  }
  std::vector<std::pair<Ref, Ref>> sums;  // (the accumulator's slot, the body's add: its value at the back edge)
  // Folds (a carried value that is not a split float sum): the slot's value
  // at the back edge is the slot folded with terms by a chain of steps, each
  // reading the one before: integer adds and subs, or max, min, and, or,
  // xor (those also of i64 in 64-bit lanes) or mul of i32/u32, or float
  // max/min; or conditional adds (`if c: n += e`: sel(c, prev + e, prev)).
  // An i64 sum of 32-bit terms in 32-bit lanes (`s += x[i]` with s i64,
  // x i32) widens each term's 8 lanes into two registers of 4 i64 partials.
  // Each is exact in any order, so each lane folds its iterations' terms
  // into its own accumulator and the lanes fold together after the loop:
  // integer ops wrap, and maximumNumber/minimumNumber give the same bits in
  // any order (-0 < +0) but for which NaN an all-NaN fold returns: with the
  // slot as every step's first operand that is the slot's own NaN, which
  // every lane starts from (max, min, and, or start at the slot's value,
  // add and xor at 0, mul at 1); else the last iteration's term, and the
  // scalar body always runs the last iteration.
  //
  // A float sum (add, sub or conditional add) that fast_math did not split
  // (fast_math=False, or a field element's sum kept in program order:
  // promote_elements) is `ordered`: its one step's terms are computed in
  // lanes and added to a scalar accumulator lane by lane, in iteration
  // order, so every rounding is the scalar loop's (what g++ does with such
  // a loop: a fold-left reduction). Lanes a condition or the loop's end
  // leaves out add -0.0 (subs +0.0), which leaves every value as it is
  // (a signalling NaN accumulator would come out quiet). An fma step
  // (fast_math's contraction of s += a * b) folds fma(a_k, b_k, s) lane by
  // lane; a loop with an ordered sum leaves its last iterations to the
  // scalar body (no masked end).
  struct Fold {
    IrOp op;  // add (adds, subs, conditional adds), max, min, band, bor, bxor, mul
    bc::CT t; // the lanes' type
    bool ordered = false;
  };
  FlatMap<Ref, Fold> folds;         // by slot
  struct Step {
    Ref slot;                        // the accumulator's
    Ref term;                        // what it folds in
    IrOp op;                         // add, sub, max, min, band, bor, bxor, mul (split sums: their add, sub or fma)
    bool term_first = false;         // (float max/min) the term is the op's first operand
    Ref cond = kNoRef, add = kNoRef; // a conditional add: the sel's condition and its add (or sub)
    bool when_zero = false;          // ... which it takes where cond == 0
    char widen = 0;                  // an i64 sum in 32-bit lanes: its term sign- ('s') or zero-extended ('z')
    Ref term2 = kNoRef;              // an ordered sum's fma(term, term2, prev): the second factor
  };
  FlatMap<Ref, Step> steps;         // by the step's op (split sums' adds too)
  // Split float sums: the first partial's slot -> the W partials, lane order
  // (its add, sub or fma is the sum's `add`; an i32 sum has no entry).
  FlatMap<Ref, std::vector<Ref>> partials;
  // Last values: a carried value the body does not read but an exit does
  // (`last = i` or `last = x[i]` before or after a `break`): the scalar
  // loop that goes on after the vector loop, at the chunk where it stopped,
  // needs the slot as the iteration before left it. Its val is the counter,
  // an invariant or a lane value; a lane value's lanes are copied into a
  // hold register after each copy of the body (past its last guard: a
  // failing chunk leaves it as the previous whole chunk did), and lane W-1
  // goes to the slot after the loop; the counter's is the counter - 1, an
  // invariant's itself, once a chunk ran. Such a loop leaves its last
  // iterations to the scalar body (no masked end: the last active lane
  // would vary).
  struct Last {
    Ref slot, val;
    bool zext = false;  // a lane value held zero-extended in a register (f32, u32), else sign-extended
  };
  std::vector<Last> lasts;
  // An ordered sum's step without a condition (add, sub or fma): a body
  // copy's run of them folds lane by lane across all of them at once, at
  // the body's end (LaneBody::ordered_run), each sum in its own order.
  bool batched_step(Ref op) const {
    auto s = steps.find(op);
    if (s == steps.end() || s->second.cond != kNoRef) return false;
    auto f = folds.find(s->second.slot);
    return f != folds.end() && f->second.ordered;
  }
  Ref sum_slot(Ref add) const {            // the slot a sum's add or a fold's step accumulates into
    auto s = steps.find(add);
    return s == steps.end() ? kNoRef : s->second.slot;
  }
};

VecPlan plan_vector(const Trace& t);

}  // namespace kiln::jit
