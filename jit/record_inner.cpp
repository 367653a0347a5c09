// Inner loops while recording (record_state.h): a call of an inner loop's
// trace, an inner loop unrolled inline, a side trace's jump into an inner
// trace (stitching), and a side trace's end where it leaves its loop.
#include "jit/record_state.h"

#include "jit/liveness.h"
#include "jit/rtcall.h"

namespace kiln::jit {

using bc::CT;
using bc::Op;

// An inner loop with a compiled trace: flush the registers it may read
// into the frame, run its trace (now, as recording executes), and guard that
// it left where it left this time. Afterwards the frame holds every register.
bool Rec::call_inner(uint32_t& pc, uint32_t body, uint32_t last, TraceFn f) {
  Ref ret = e.call_trace((int64_t)(uintptr_t)f, snap(body));
  uint32_t& calls = const_cast<TraceEnv&>(env).calls;  // its exits must return here, as the code's will
  calls++;
  uint32_t next = f(R, &env);
  calls--;
  rethrow_pending();  // while recording, an error is the interpreter's to report
  Snapshot anywhere;
  anywhere.pc_ref = ret;  // the frame is complete: resume wherever the inner trace stopped
  Ref same = e.emit(IrOp::eq, CT::u32, ret, e.kval(next));
  if (!e.guard(IrOp::guard_nz, same, kNoRef, std::move(anywhere))) return abort(pc, "constant guard failed");
  std::vector<bool> w = written_regs(fn, body, last);
  for (size_t r = 0; r < map.size(); r++)
    if (r >= w.size() || w[r]) {
      map[r] = kNoRef;
      in_frame[r] = true;
    }
  called = true;
  pc = next;
  return true;
}

// An inner loop without a trace is recorded inline, iteration by iteration,
// up to `unroll` iterations (short loops over vector components, say).
bool Rec::unroll_more(uint32_t pc, uint32_t body) {
  if (++unrolled[body] > p.unroll) return inner_cold(pc);
  return true;
}

// fori: enter the loop (a guard on its condition), then call its trace or
// unroll it. A loop with constant bounds and few trips is always unrolled.
bool Rec::counted_inner(uint32_t& pc, const bc::Insn& I) {
  CT it = I.op == Op::fori_i32 ? CT::i32 : CT::i64;
  uint64_t more;
  eval_pure(IrOp::lt, it, 0, R[I.a], R[I.a + 1], 0, more);
  Ref lo = get(I.a), hi = get(I.a + 1);
  Ref cond = e.emit(IrOp::lt, it, lo, hi);
  uint32_t exit = (uint32_t)I.d(), body = pc + 1;
  if (!e.guard(more ? IrOp::guard_nz : IrOp::guard_z, cond, kNoRef, snap(more ? exit : body)))
    return abort(pc, "constant guard failed");
  if (!more) {
    pc = exit;
    return true;
  }
  int64_t trips = it == CT::i32 ? (int64_t)(int32_t)R[I.a + 1] - (int32_t)R[I.a] : (int64_t)(R[I.a + 1] - R[I.a]);
  bool small_const = t.is_const(lo) && t.is_const(hi) && trips <= p.unroll;
  TraceFn f = inner ? inner(body) : nullptr;
  if (f && !small_const && stitch(body)) return true;
  if (f && !small_const) return call_inner(pc, body, exit - 1, f);
  if (trips > p.unroll) return inner_cold(pc);
  pc = body;
  return true;
}

// forl of an inner loop being unrolled: the increment and a guard on
// staying in (or leaving) the loop.
// An abort must come before the frame changes: the interpreter resumes at
// this very op.
bool Rec::inner_back_edge(uint32_t& pc, const bc::Insn& I) {
  CT it = I.op == Op::forl_i32 ? CT::i32 : CT::i64;
  uint64_t nv, more;
  eval_pure(IrOp::add, it, 0, R[I.a], 1, 0, nv);
  eval_pure(IrOp::lt, it, 0, nv, R[I.a + 1], 0, more);
  uint32_t body = (uint32_t)I.d();
  if (more && !unroll_more(pc, body)) return false;
  Ref next = e.emit(IrOp::add, it, get(I.a), e.kval(1));
  Ref cond = e.emit(IrOp::lt, it, next, get(I.a + 1));
  set(I.a, next, nv);
  R[I.a + 2]++;  // the hot counter: not part of the trace
  // (a guard on what was just computed cannot fail)
  e.guard(more ? IrOp::guard_nz : IrOp::guard_z, cond, kNoRef, snap(more ? pc + 1 : body));
  pc = more ? body : pc + 1;
  return true;
}

// A side trace entering an inner loop of its loop (not one being unrolled)
// that has a trace ends there with a jump into that trace (LuaJIT's
// stitching): no call, and the inner trace's exits back into this loop grow
// side traces of their own (ExitInfo::outer_head) that link into it again.
bool Rec::stitch(uint32_t body) {
  const void* warm = args.link_to && args.inner_warm ? args.inner_warm(body) : nullptr;
  if (!warm || enclosing_loop(fn, body) != own_loop) return false;
  Ins link;
  link.op = IrOp::link;
  link.k = (int64_t)(uintptr_t)warm;
  link.snap = (int32_t)t.snaps.size();
  t.snaps.push_back(snap(body));
  t.ins.push_back(link);
  dce(t);
  stitched = true;
  out.ok = true;
  out.resume_pc = body;
  return true;
}

// A side trace that left its loop: it ends with the frame as the interpreter
// needs it at pc, and returns pc (a `link` to no trace).
bool Rec::end_at_exit(uint32_t pc) {
  Ins end;
  end.op = IrOp::link;
  end.k = 0;
  end.snap = (int32_t)t.snaps.size();
  t.snaps.push_back(snap(pc));
  t.ins.push_back(end);
  dce(t);
  out.ok = true;
  out.resume_pc = pc;
  return true;
}

}  // namespace kiln::jit
