// The vector loop (vector.h): emitted once, between the peeled iteration and
// the scalar loop, when the plan says the body allows lanes. It runs the
// body eight counters at a time in ymm registers while more than eight
// iterations remain (or until Ctrl-C), then leaves the counter and the sums
// where the scalar loop reads them. (vector_loop.h: the phases' files.)
//
// The scalar code's registers are saved to the frame around it, so the
// vector loop has all 16 ymm and 11 general registers to itself; values
// come in through frame temporaries written while every home is intact.
#include "jit/backend.h"
#include "jit/vector_loop.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

bool host_has_avx2() {
  static const bool yes = CpuInfo::host().hasFeature(CpuFeatures::X86::kAVX2);
  return yes;
}

bool prefetch_plain_streams() {
  static const bool yes = !CpuInfo::host().isVendor("AMD");
  return yes;
}

bool host_has_fma3() {
  static const bool yes = CpuInfo::host().hasFeature(CpuFeatures::X86::kFMA);
  return yes;
}

// How many copies of the body one pass of the vector loop runs: four of a
// small body (a memory-bound loop waits on the loop's own overhead), two of
// a larger one, one of a large one (code size); fewer when a copy's
// displacement would pass 32 bits. At least `least` copies (a split sum in
// two registers alternates them copy by copy), else 0: no vector loop.
static int unroll_of(const Trace& t, const VecPlan& p, int W, int least) {
  int n = (int)p.order.size();
  int u = std::max(n <= 16 ? 4 : n <= 48 ? 2 : 1, least);
  // A sparse block's row of 64 cells (row roots): one pass of eight copies
  // runs it whole, where four took two passes, each with its tests and poll.
  if (!p.row_roots.empty() && n <= 16 && p.row_m % 64 == 0) u = 8;
  auto fits = [&](int u) {
    bool ok = true;
    for (Ref i : p.order) {
      if (t.ins[i].op != IrOp::load && t.ins[i].op != IrOp::store) continue;
      const VecPlan::Access& acc = p.access[i];
      int64_t d = acc.disp + int64_t(W) * (acc.stride ? acc.stride : p.f64 ? 8 : 4) * (u - 1);
      ok &= d == (int32_t)d;
    }
    return ok;
  };
  for (; u > least; u /= 2)
    if (fits(u)) return u;
  return least == 1 || fits(least) ? least : 0;
}

bool Gen::vector_loop(const VecPlan& p, int32_t area, int32_t area_end) {
  VectorLoop v{*this, a, t, p};
  return v.shape() && v.frame(area, area_end) && v.emit();
}

// Lanes, copies a pass, masked ends and registers; false where the loop
// does not fit them.
bool VectorLoop::shape() {
  rows = p.row_m != 0;
  // 16 lanes in zmm registers where the body divides on an AVX-512 host
  // (asm_wide.cpp), else 8 (4 of 64 bits) in ymm.
  wide = wide_lanes(t, p);
  W = wide ? 16 : p.width();
  g.vec_width = W;
  // A split sum's partials: one register of lanes (zmm: 16 f32), or two
  // (ymm: 16 f32 or 8 f64), which the copies of the body alternate: W adds
  // rotate the partials by W, so copy u adds into register u % 2 and a pass
  // of an even number of copies leaves them in place (a pass of one swaps
  // the two back).
  regs = partial_regs(t, p);
  for (auto& [p0, ring] : p.partials)
    if ((int)ring.size() != regs * W || regs > 2) return false;
  unroll = unroll_of(t, p, W, regs);
  if (unroll == 0) return false;
  // Rows end in lanes under a mask (and the next row starts in the same
  // vector loop) unless a sum is carried: a masked add would have to leave
  // the other lanes' partials where they are.
  row_tails = rows && p.sums.empty() && p.lasts.empty() && assign(t, p, r, true);
  // A plain loop (no rows) runs its last iterations but one (the scalar
  // body always runs last) as one masked body instead of up to seven scalar
  // iterations: a sparse block's 64 cells after the peeled one were 7
  // vectors and 7 scalar iterations. Not with split float sums (a partial
  // batch of adds would rotate the partials), interleaved loads or stores
  // (whole vectors past the end) or 64-bit lanes; an i32 sum adds its masked term.
  bool ordered = false;  // (an ordered sum's fma step has no masked form: vector.h)
  for (auto& [slot, f] : p.folds) ordered |= f.ordered;
  plain_tails = !wide && !rows && !p.f64 && !ordered && p.partials.empty() && p.interleaved.empty() && p.interleaved_stores.empty() &&
                p.lasts.empty() &&
                assign(t, p, r = VecRegs{}, true);
  if (!row_tails && !plain_tails && !assign(t, p, r = VecRegs{}, false)) return false;
  // A 16-lane loop's last iterations but one run as one body under an
  // AVX-512 mask (k1; k2-k5 an interleaved group's raw vectors): loads
  // zeroed past the end, stores and sums' adds merged, and each split sum's
  // partials then rotated by the m adds (vpermps), as m scalar iterations
  // would leave them. nbody's inner loop of 4095 iterations after the peeled
  // one ran 15 scalar iterations, each ~125 instructions (the 48 partials'
  // rotation through the frame), for 255 passes of 16 lanes.
  wide_tails = wide && !rows;
  // ... and where the loop's exit takes only what the lanes hold, its last
  // iteration too, leaving through the exit from there (lane_exit).
  if (wide_tails) lane_exit_snap = exit_in_lanes();
  return true;
}

bool VectorLoop::emit() {
  es = p.f64 ? 8 : 4;
  Label guard_fail[8];  // (copy u of a pass: unroll_of gives at most 8)
  for (Label& l : guard_fail) l = a.newLabel();
  const LaneBody body{a, t, p, r, W, regs, es, wide, t_mask, guard_fail, t_terms};
  lb = &body;
  g.vec_entry = a.newLabel();
  a.bind(g.vec_entry);
  Label skip = a.newLabel();
  if (p.guards) {  // not within a guard's back-off (asm_lane_guards.cpp)
    g.vec_guards = true;
    g.ld(x86::rax, p.iv);
    lane_guard_entry(a, skip);
  }
  a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, lane_runs)));
  for (auto& [ref, off] : temp)
    if (!from_slot(ref)) g.spill_to(mem(off), ref);
  save_registers();
  Label top = a.newLabel();
  done = a.newLabel();
  sums_in();
  if (t_terms >= 0) lb->ordered_init();
  lb->lasts_init(temp);
  counter_in();
  roots_and_constants();
  find_streams();
  Ref head = plain_tails || wide_tails || row_tails ? lb->head_access() : -1;  // (asm_lane_head.cpp)
  Label row_start = a.newLabel();  // (each row's head: row_tail comes back here)
  a.bind(row_start);
  if (head >= 0) lb->aligned_head(head);
  Label first = unroll > 1 ? a.newLabel() : top;
  Label row_end = row_tails || plain_tails || wide_tails ? a.newLabel() : done;
  if (unroll > 1) pass_loop(first, unroll, top, true);
  pass_loop(top, 1, row_end, unroll == 1 || rows);
  if (row_tails) row_tail(row_end, head >= 0 ? row_start : first);
  if (plain_tails) plain_tail(row_end);
  if (wide_tails) wide_tail(row_end);
  if (p.guards)  // (their partials as after u copies)
    lane_guard_exits(a, guard_fail, unroll, W, rows, t_iv, done, [&](int u) {
      if (u % regs != 0) swap_partials();
    });
  a.bind(done);
  if (lane_exit_snap >= 0) lane_exit();  // (when every iteration ran: not after Ctrl-C's poll)
  if (t_terms >= 0) lb->ordered_flush(t_iv);
  lb->lasts_out(temp, t_iv, t_lanes);
  a.mov(mem(t_iv), x86::rax);
  if (rows) {  // the next row starts at counter + (M - r): the back edge comes back here then
    a.mov(x86::rdi, p.row_m);
    a.sub(x86::rdi, x86::rdx);
    a.add(x86::rdi, x86::rax);
    a.mov(mem(t_next), x86::rdi);
    g.vec_next_row = t_next;
  }
  partials_out();
  for (auto& [slot, add] : p.sums)  // each fold's lanes, folded (any order is exact: vector.h)
    if (!p.partials.count(slot)) lb->fold_out(slot, t_lanes, temp[slot]);
  a.vzeroupper();  // the scalar code's SSE must not pay for dirty upper halves
  restore_registers();
  values_out();
  if (p.guards) lane_guard_skipped(a, skip, rows, t_next);
  lb = nullptr;
  return true;
}

}  // namespace kiln::jit
