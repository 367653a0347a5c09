// The recorder's state while one recording runs (recorder.h is the
// interface), shared by the files that record one family of ops each:
// recorder.cpp the main loop (arithmetic, memory, branches, the loop's
// back edge), record_ifconv.cpp if-conversion, record_inner.cpp inner loops
// (calls, unrolling, stitching, side traces' ends), record_runtime.cpp ops
// over runtime state (ti.random streams, autodiff tapes, sparse SNodes).
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "jit/opt.h"
#include "jit/recorder.h"

namespace kiln::jit {

// The IR op and compute type of a typed bytecode op of the pure families
// (add_i32 ... round_f64); false for any other op.
bool find_family(bc::Op op, IrOp& ir, bc::CT& t);
inline bool in_range(bc::Op op, bc::Op first, bc::Op last) { return (int)op >= (int)first && (int)op <= (int)last; }

// One recording: the frame it executes on, the trace it emits, and what
// each register holds in the trace.
struct Rec {
  const bc::Function& fn;
  uint64_t* R;
  const TraceEnv& env;
  const Params& p;
  const Liveness* live;
  Recording out;
  Trace& t = out.trace;
  Emitter e{t};
  std::vector<Ref> map;  // register -> its current value's ref (kNoRef: untouched)

  const InnerTraces& inner;
  const RecordArgs& args;
  uint32_t loop_lo = 0, loop_hi = UINT32_MAX;  // the root loop's pcs: a side trace stays inside
  std::vector<bool> in_frame;          // written by an inner loop trace: read it back with rload
  bool called = false;                 // a calltr was recorded
  bool stitched = false;               // ended with a link into an inner loop's trace
  uint32_t own_loop = 0;               // the loop whose inner loops this recording may link into
  std::unordered_map<uint32_t, int> unrolled;  // inner loop head -> iterations recorded inline

  Rec(const bc::Function& f, uint64_t* r, const TraceEnv& en, const Params& pp, const RecordArgs& a)
      : fn(f), R(r), env(en), p(pp), live(a.live), inner(a.inner), args(a) {
    map.assign(fn.num_regs < 3 ? 3 : fn.num_regs, kNoRef);
    in_frame.assign(map.size(), false);
  }

  Ref get(uint16_t r) {
    if (map[r] != kNoRef) return map[r];
    if (int32_t pc = live ? live->const_def(r) : -1; pc >= 0) {  // a constant register: folded
      const bc::Insn& K = fn.code[pc];
      return e.kval(K.op == bc::Op::kimm ? (uint64_t)(int64_t)K.d() : fn.consts[K.d()]);
    }
    return map[r] = e.emit(in_frame[r] ? IrOp::rload : IrOp::sload, bc::CT::i64, kNoRef, kNoRef, kNoRef, r);
  }
  void set(uint16_t r, Ref v, uint64_t bits) {
    map[r] = v;
    R[r] = bits;
  }
  Snapshot snap(uint32_t pc) {
    Snapshot s;
    s.pc = pc;
    for (size_t r = 0; r < map.size(); r++) {
      Ref v = map[r];
      if (v == kNoRef || (t.ins[v].op == IrOp::sload && t.ins[v].k == (int64_t)r)) continue;
      if (live && !live->live(pc, (uint16_t)r)) continue;
      s.regs.push_back({(uint16_t)r, v});
    }
    return s;
  }
  // A pure op: executed with the same semantics it is emitted with.
  bool pure(IrOp op, bc::CT ct, uint16_t dst, uint16_t ra, int rb, int64_t k = 0) {
    uint64_t v;
    if (!eval_pure(op, ct, k, R[ra], rb >= 0 ? R[rb] : 0, 0, v)) return false;
    Ref ref = e.emit(op, ct, get(ra), rb >= 0 ? get((uint16_t)rb) : kNoRef, kNoRef, k);
    set(dst, ref, v);
    return true;
  }
  // fma_f32/f64 a, b, c: a = fma(b, c, a), fast_math's contraction (pure, never raises).
  void fma(const bc::Insn& I) {
    bc::CT ft = I.op == bc::Op::fma_f32 ? bc::CT::f32 : bc::CT::f64;
    uint64_t v;
    eval_pure(IrOp::fma, ft, 0, R[I.a], R[I.b], R[I.c], v);
    set(I.a, e.emit(IrOp::fma, ft, get(I.a), get(I.b), get(I.c)), v);
  }
  bool abort(uint32_t pc, std::string why) {
    out.ok = false;
    out.resume_pc = pc;
    out.why = std::move(why);
    return false;
  }
  bool abort_transient(uint32_t pc, std::string why) {
    out.transient = true;
    return abort(pc, std::move(why));
  }
  bool inner_cold(uint32_t pc) {
    out.inner_cold = true;
    return abort_transient(pc, "inner loop not compiled yet");
  }
  uint32_t done_pc = UINT32_MAX;  // the loop ended with the recorded iteration: resume here
  bool run(uint32_t head);
  bool end_at_exit(uint32_t pc);
  bool stitch(uint32_t body);
  bool call_inner(uint32_t& pc, uint32_t body, uint32_t last, TraceFn f);
  bool unroll_more(uint32_t pc, uint32_t body);
  bool counted_inner(uint32_t& pc, const bc::Insn& I);
  bool inner_back_edge(uint32_t& pc, const bc::Insn& I);
  bool random(uint32_t pc, const bc::Insn& I);
  Ref mix(Ref z);
  bool tape(uint32_t pc, const bc::Insn& I);
  bool sparse(uint32_t pc, const bc::Insn& I);
  void cell_index(const bc::Insn& I);
  bool if_convert(uint32_t& pc, const bc::Insn& I, bool nested = false);
  const char* address(uint32_t pc, const bc::Insn& I, bool block);
  bool straight(uint32_t lo, uint32_t hi);
};

}  // namespace kiln::jit
