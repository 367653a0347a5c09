// Bytecode -> trace IR, executing as it goes (recorder.h). Ops the trace IR
// cannot express abort the recording with a reason; the interpreter then
// simply continues at that op.
#include "jit/recorder.h"

#include <algorithm>

#include <cstring>
#include <unordered_map>

#include "jit/opt.h"
#include "jit/rtcall.h"
#include "jit/sparse_walk.h"
#include "vm/runtime/program.h"
#include "vm/runtime/rng.h"

namespace kiln::jit {

using bc::CT;
using bc::Op;

namespace {

// The typed bytecode families and the IR op each becomes.
struct Family {
  Op first;
  IrOp ir;
  int n;       // variants: 6 (all CTs), 4 (ints), 2 (floats)
  CT first_t;
};
const Family kFamilies[] = {
    {Op::add_i32, IrOp::add, 6, CT::i32},       {Op::sub_i32, IrOp::sub, 6, CT::i32},
    {Op::mul_i32, IrOp::mul, 6, CT::i32},       {Op::div_i32, IrOp::div, 6, CT::i32},
    {Op::floordiv_i32, IrOp::floordiv, 6, CT::i32}, {Op::mod_i32, IrOp::mod, 6, CT::i32},
    {Op::raw_mod_i32, IrOp::raw_mod, 6, CT::i32}, {Op::pow_i32, IrOp::pow, 6, CT::i32},
    {Op::max_i32, IrOp::max, 6, CT::i32},       {Op::min_i32, IrOp::min, 6, CT::i32},
    {Op::atan2_f32, IrOp::atan2, 2, CT::f32},   {Op::band_i32, IrOp::band, 4, CT::i32},
    {Op::bor_i32, IrOp::bor, 4, CT::i32},       {Op::bxor_i32, IrOp::bxor, 4, CT::i32},
    {Op::shl_i32, IrOp::shl, 4, CT::i32},       {Op::shr_i32, IrOp::shr, 4, CT::i32},
    {Op::sar_i32, IrOp::sar, 4, CT::i32},       {Op::cmp_lt_i32, IrOp::lt, 6, CT::i32},
    {Op::cmp_le_i32, IrOp::le, 6, CT::i32},     {Op::cmp_eq_i32, IrOp::eq, 6, CT::i32},
    {Op::cmp_ne_i32, IrOp::ne, 6, CT::i32},     {Op::neg_i32, IrOp::neg, 6, CT::i32},
    {Op::abs_i32, IrOp::abs, 6, CT::i32},       {Op::lnot_i32, IrOp::lnot, 6, CT::i32},
    {Op::bnot_i32, IrOp::bnot, 4, CT::i32},     {Op::sqrt_f32, IrOp::sqrt, 2, CT::f32},
    {Op::rsqrt_f32, IrOp::rsqrt, 2, CT::f32},   {Op::sin_f32, IrOp::sin, 2, CT::f32},
    {Op::cos_f32, IrOp::cos, 2, CT::f32},       {Op::tan_f32, IrOp::tan, 2, CT::f32},
    {Op::asin_f32, IrOp::asin, 2, CT::f32},     {Op::acos_f32, IrOp::acos, 2, CT::f32},
    {Op::atan_f32, IrOp::atan, 2, CT::f32},     {Op::tanh_f32, IrOp::tanh, 2, CT::f32},
    {Op::exp_f32, IrOp::exp, 2, CT::f32},       {Op::log_f32, IrOp::log, 2, CT::f32},
    {Op::floor_f32, IrOp::floor, 2, CT::f32},   {Op::ceil_f32, IrOp::ceil, 2, CT::f32},
    {Op::round_f32, IrOp::round, 2, CT::f32},
};

bool find_family(Op op, IrOp& ir, CT& t) {
  for (const Family& f : kFamilies)
    if ((int)op >= (int)f.first && (int)op < (int)f.first + f.n) {
      ir = f.ir;
      t = (CT)((int)f.first_t + ((int)op - (int)f.first));
      return true;
    }
  return false;
}

bool in_range(Op op, Op first, Op last) { return (int)op >= (int)first && (int)op <= (int)last; }

}  // namespace

// The last op of the loop whose body starts at `body`: its forl, or for a
// while loop (a `loop` op before the body) the last jmp back to that op.
uint32_t loop_last(const bc::Function& fn, uint32_t body) {
  const bool while_loop = body > 0 && fn.code[body - 1].op == Op::loop;
  uint32_t last = body;
  for (uint32_t q = body; q < fn.code.size(); q++) {
    const bc::Insn& J = fn.code[q];
    bool back = while_loop ? J.op == Op::jmp && (uint32_t)J.d() == body - 1
                           : (J.op == Op::forl_i32 || J.op == Op::forl_i64) && (uint32_t)J.d() == body;
    if (back) last = q;
  }
  return last;
}

uint32_t loop_first(const bc::Function& fn, uint32_t body) {
  return body > 0 && fn.code[body - 1].op == Op::loop ? body - 1 : body;
}

uint32_t enclosing_loop(const bc::Function& fn, uint32_t body) {
  uint32_t lo = loop_first(fn, body), hi = loop_last(fn, body), best = UINT32_MAX, best_lo = 0;
  for (const bc::LoopInfo& li : fn.loops) {
    uint32_t b = li.counted ? (uint32_t)fn.code[li.head].d() : li.head + 1;
    if (b == body || b >= fn.code.size()) continue;
    uint32_t l = loop_first(fn, b), h = loop_last(fn, b);
    if (l <= lo && hi <= h && (best == UINT32_MAX || l > best_lo)) best = b, best_lo = l;
  }
  return best;
}

namespace {

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
      return e.kval(K.op == Op::kimm ? (uint64_t)(int64_t)K.d() : fn.consts[K.d()]);
    }
    return map[r] = e.emit(in_frame[r] ? IrOp::rload : IrOp::sload, CT::i64, kNoRef, kNoRef, kNoRef, r);
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
  bool pure(IrOp op, CT ct, uint16_t dst, uint16_t ra, int rb, int64_t k = 0) {
    uint64_t v;
    if (!eval_pure(op, ct, k, R[ra], rb >= 0 ? R[rb] : 0, 0, v)) return false;
    Ref ref = e.emit(op, ct, get(ra), rb >= 0 ? get((uint16_t)rb) : kNoRef, kNoRef, k);
    set(dst, ref, v);
    return true;
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
  bool if_convert(uint32_t& pc, const bc::Insn& I);
  bool straight(uint32_t lo, uint32_t hi);
};

// If-conversion: a short branch diamond (or a lone `if` block) of pure ops
// that cannot raise becomes both blocks computed and a `sel` per register
// they write, instead of a guard. A branch whose direction changes from one
// iteration to the next (Collatz's parity) would otherwise leave the trace
// for a side trace at every other iteration.
bool Rec::straight(uint32_t lo, uint32_t hi) {
  for (uint32_t q = lo; q < hi; q++) {
    const bc::Insn& I = fn.code[q];
    IrOp ir;
    CT ct;
    if (find_family(I.op, ir, ct)) {
      bool is_int = ct != CT::f32 && ct != CT::f64;
      bool divides = ir == IrOp::div || ir == IrOp::floordiv || ir == IrOp::mod || ir == IrOp::raw_mod;
      // A division by a register that is not constant would need a guard
      // (raise on zero), and a guard cannot run for a block not taken.
      if ((is_int && divides && !t.is_const(get(I.c))) || (is_int && ir == IrOp::pow)) return false;
      if (!pure(ir, ct, I.a, I.b, kIrOps[(int)ir].nops > 1 ? I.c : -1)) return false;
    } else if (in_range(I.op, Op::sext8, Op::f64_u64)) {
      pure(IrOp::conv, CT::i64, I.a, I.b, -1, (int64_t)I.op);
    } else if (I.op == Op::mov) {
      set(I.a, get(I.b), R[I.b]);
    } else if (I.op == Op::kimm) {
      set(I.a, e.kval((uint64_t)(int64_t)I.d()), (uint64_t)(int64_t)I.d());
    } else if (I.op == Op::kload) {
      set(I.a, e.kval(fn.consts[I.d()]), fn.consts[I.d()]);
    } else if (I.op != Op::nop) {
      return false;
    }
  }
  return true;
}

bool Rec::if_convert(uint32_t& pc, const bc::Insn& I) {
  const bc::Insn* code = fn.code.data();
  uint32_t target = (uint32_t)I.d();
  if (target <= pc + 1 || target > loop_hi) return false;
  // then = [pc+1, then_hi) falls through; else = [target, end) is jumped to.
  uint32_t then_hi = target, end = target;
  const bc::Insn& J = code[target - 1];
  if (J.op == Op::jmp && (uint32_t)J.d() >= target && (uint32_t)J.d() <= loop_hi) {
    then_hi = target - 1;
    end = (uint32_t)J.d();
  }
  constexpr uint32_t kMaxBlock = 12;
  if (then_hi - (pc + 1) > kMaxBlock || end - target > kMaxBlock) return false;
  for (uint32_t q = pc + 1; q < end; q++) {  // registers either block writes
    Op op = code[q].op;
    IrOp ir;
    CT ct;
    bool writes = find_family(op, ir, ct) || in_range(op, Op::sext8, Op::f64_u64) || op == Op::mov ||
                  op == Op::kimm || op == Op::kload;
    if (!writes && op != Op::nop && !(q == then_hi && q + 1 == target && op == Op::jmp)) return false;
  }
  std::vector<uint16_t> w;
  for (uint32_t q = pc + 1; q < end; q++)
    if (q != then_hi || end == target) {
      uint16_t d = code[q].a;
      if (code[q].op != Op::nop && std::find(w.begin(), w.end(), d) == w.end()) w.push_back(d);
    }
  // A diamond that only computes the condition of the next branch (`a and
  // b`: a short-circuit) is better left as guards: that branch is usually
  // predictable, and converting would only add a select before it.
  if (live) {
    for (uint32_t q = end; q < end + 8 && q <= loop_hi; q++) {
      const bc::Insn& N = code[q];
      if (N.op != Op::jz && N.op != Op::jnz) {
        if (N.op == Op::jmp || N.op == Op::loop || N.op == Op::forl_i32 || N.op == Op::forl_i64) break;
        continue;
      }
      bool feeds_more = false;
      for (uint16_t r : w) feeds_more |= live->live(q + 1, r) || live->live((uint32_t)N.d(), r);
      if (!feeds_more) return false;
      break;
    }
  }
  const bool fall = (I.op == Op::jz) == (R[I.a] != 0);  // the then block runs
  Ref cond = get(I.a);
  std::vector<Ref> saved_map(w.size());
  std::vector<uint64_t> saved_r(w.size());
  for (size_t j = 0; j < w.size(); j++) saved_map[j] = map[w[j]], saved_r[j] = R[w[j]];
  auto restore = [&] {
    for (size_t j = 0; j < w.size(); j++) map[w[j]] = saved_map[j], R[w[j]] = saved_r[j];
  };
  // The block not taken first (its values are discarded), then the real one.
  std::vector<Ref> other(w.size()), taken(w.size());
  if (!(fall ? straight(target, end) : straight(pc + 1, then_hi))) {
    restore();
    return false;
  }
  for (size_t j = 0; j < w.size(); j++) other[j] = get(w[j]);
  restore();
  if (!(fall ? straight(pc + 1, then_hi) : straight(target, end))) {
    restore();
    return false;
  }
  for (size_t j = 0; j < w.size(); j++) taken[j] = get(w[j]);
  for (size_t j = 0; j < w.size(); j++) {
    Ref then_v = fall ? taken[j] : other[j], else_v = fall ? other[j] : taken[j];
    Ref v = I.op == Op::jz ? e.emit(IrOp::sel, CT::i64, cond, then_v, else_v)
                           : e.emit(IrOp::sel, CT::i64, cond, else_v, then_v);
    map[w[j]] = v;  // (R already holds the taken block's values)
  }
  pc = end;
  return true;
}

// rng.h's rng_mix as trace ops.
Ref Rec::mix(Ref z) {
  auto u = [&](IrOp op, Ref a, Ref b) { return e.emit(op, CT::u64, a, b); };
  z = u(IrOp::mul, u(IrOp::bxor, z, u(IrOp::shr, z, e.kval(30))), e.kval(0xbf58476d1ce4e5b9ull));
  z = u(IrOp::mul, u(IrOp::bxor, z, u(IrOp::shr, z, e.kval(27))), e.kval(0x94d049bb133111ebull));
  return u(IrOp::bxor, z, u(IrOp::shr, z, e.kval(31)));
}

// ti.random: rng_next and rng_to_reg spelled in trace ops over the stream
// registers, with a guard on whether the iteration index changed (in a
// parallel loop's trace it always does, in an inner loop it never does).
bool Rec::random(uint32_t pc, const bc::Insn& I) {
  const uint16_t S = fn.rng_reg;
  if (S == 0xffff) return abort(pc, "ti.random without a stream");
  Ref idx = get(I.b), st = get(S + 2);
  bool fresh = R[I.b] != R[S + 1];
  Ref same = e.emit(IrOp::eq, CT::u64, idx, get(S + 1));
  if (!e.guard(fresh ? IrOp::guard_z : IrOp::guard_nz, same, kNoRef, snap(pc))) return abort(pc, "constant guard failed");
  if (fresh) st = mix(e.emit(IrOp::bxor, CT::u64, get(S), mix(idx)));
  st = e.emit(IrOp::add, CT::u64, st, e.kval(kRngGamma));
  uint64_t bits = rng_next(R + S, R[I.b]);
  map[S + 1] = idx;
  map[S + 2] = st;
  Ref v = mix(st);
  auto shr = [&](int n) { return e.emit(IrOp::shr, CT::u64, v, e.kval((uint64_t)n)); };
  switch ((Prim)I.c) {
    case Prim::f32:
      v = e.emit(IrOp::mul, CT::f32, e.emit(IrOp::conv, CT::i64, shr(40), kNoRef, kNoRef, (int64_t)Op::u64_f32),
                 e.kval(std::bit_cast<uint32_t>(0x1.0p-24f)));
      break;
    case Prim::f64:
      v = e.emit(IrOp::mul, CT::f64, e.emit(IrOp::conv, CT::i64, shr(11), kNoRef, kNoRef, (int64_t)Op::u64_f64),
                 e.kval(std::bit_cast<uint64_t>(0x1.0p-53)));
      break;
    case Prim::i32: v = e.emit(IrOp::conv, CT::i64, shr(32), kNoRef, kNoRef, (int64_t)Op::sext32); break;
    case Prim::u32: v = shr(32); break;
    default: break;
  }
  set(I.a, v, rng_to_reg(bits, (Prim)I.c));
  return true;
}

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

bool Rec::run(uint32_t head) {
  const bc::Insn* code = fn.code.data();
  const bool while_loop = head > 0 && code[head - 1].op == Op::loop;
  const bool side = args.link_to != nullptr;
  uint32_t pc = side ? args.start : head;
  own_loop = head;
  if (side && args.outer != UINT32_MAX) {
    // From an exit that left the loop: through the enclosing loop (its
    // back edge is passed as an unrolled inner loop's) until the loop is
    // entered again.
    own_loop = args.outer;
    unrolled[args.outer] = 0;
  }
  loop_lo = loop_first(fn, own_loop);  // the extent a side trace stays inside
  loop_hi = loop_last(fn, own_loop);
  for (;;) {
    if ((int64_t)t.ins.size() > p.maxtrace) return abort(pc, "trace too long");
    if (pc < loop_lo || pc > loop_hi) {
      // A side trace that reaches an exit of its loop (a break, the loop's
      // test) ends there and hands the interpreter that pc; a root
      // recording cannot loop from an iteration that left: try another.
      if (side) return end_at_exit(pc);
      return abort_transient(pc, "loop left while recording");
    }
    const bc::Insn I = code[pc];
    const Op op = I.op;
    IrOp ir;
    CT ct;
    if (find_family(op, ir, ct)) {
      bool is_int = ct != CT::f32 && ct != CT::f64;
      bool divides = ir == IrOp::div || ir == IrOp::floordiv || ir == IrOp::mod || ir == IrOp::raw_mod;
      if (is_int && divides) {
        if (R[I.c] == 0) return abort(pc, "integer division by zero");
        if (!e.guard(IrOp::guard_nz, get(I.c), kNoRef, snap(pc))) return abort(pc, "constant guard failed");
      }
      if (is_int && ir == IrOp::pow) {
        // Only a constant non-negative exponent can never raise.
        Ref ex = get(I.c);
        if (!t.is_const(ex) || (ct == CT::i32 ? (int32_t)R[I.c] < 0 : ct == CT::i64 && (int64_t)R[I.c] < 0))
          return abort(pc, "integer pow with a variable exponent");
      }
      int nops = kIrOps[(int)ir].nops;
      if (!pure(ir, ct, I.a, I.b, nops > 1 ? I.c : -1)) return abort(pc, "operation raises");
      pc++;
      continue;
    }
    if (in_range(op, Op::sext8, Op::f64_u64)) {
      pure(IrOp::conv, CT::i64, I.a, I.b, -1, (int64_t)op);
      pc++;
      continue;
    }
    if (in_range(op, Op::ld_i8, Op::ld_f64)) {
      int prim = (int)op - (int)Op::ld_i8;
      Ref v = e.emit(IrOp::load, CT::i64, get(I.b), kNoRef, kNoRef, prim);
      set(I.a, v, load_prim(R[I.b], prim));
      pc++;
      continue;
    }
    if (in_range(op, Op::st_i8, Op::st_f64)) {
      int prim = (int)op - (int)Op::st_i8;
      e.effect(IrOp::store, get(I.a), get(I.b), prim);
      store_prim(R[I.a], R[I.b], prim);
      pc++;
      continue;
    }
    if (in_range(op, Op::atom_add_i8, Op::atom_mul_f64)) {
      // add, sub, min, max (12 types each), and, or, xor (8 each), mul (12): sem::AOp's order
      int idx = (int)op - (int)Op::atom_add_i8, aop, prim;
      if (idx < 48) aop = idx / 12, prim = idx % 12;
      else if (idx < 72) aop = 4 + (idx - 48) / 8, prim = (idx - 48) % 8;
      else aop = 7, prim = idx - 72;
      int64_t k = prim | aop << 8;
      Ref v = e.effect(IrOp::atomic, get(I.b), get(I.c), k);
      set(I.a, v, atomic_call(R[I.b], R[I.c], (uint64_t)k));
      pc++;
      continue;
    }
    switch (op) {
      case Op::nop: break;
      case Op::mov: set(I.a, get(I.b), R[I.b]); break;
      case Op::kimm: set(I.a, e.kval((uint64_t)(int64_t)I.d()), (uint64_t)(int64_t)I.d()); break;
      case Op::kload: set(I.a, e.kval(fn.consts[I.d()]), fn.consts[I.d()]); break;
      case Op::arg: set(I.a, e.emit(IrOp::arg, CT::i64, kNoRef, kNoRef, kNoRef, I.d()), env.args[I.d()]); break;
      case Op::sel: {
        uint64_t v = R[I.a] != 0 ? R[I.b] : R[I.c];
        set(I.a, e.emit(IrOp::sel, CT::i64, get(I.a), get(I.b), get(I.c)), v);
        break;
      }
      case Op::fma_f32:
      case Op::fma_f64: {
        CT ft = op == Op::fma_f32 ? CT::f32 : CT::f64;
        uint64_t v;
        eval_pure(IrOp::fma, ft, 0, R[I.a], R[I.b], R[I.c], v);
        set(I.a, e.emit(IrOp::fma, ft, get(I.a), get(I.b), get(I.c)), v);
        break;
      }
      case Op::addr_base: {
        if (I.b >= env.num_trees || !env.tree_bases[I.b]) return abort(pc, "tree without memory");
        Ref b = e.emit(IrOp::base, CT::i64, kNoRef, kNoRef, kNoRef, I.b);
        if (!e.guard(IrOp::guard_nz, b, kNoRef, snap(pc))) return abort(pc, "constant guard failed");
        uint64_t k = fn.consts[I.c];
        set(I.a, e.emit(IrOp::add, CT::i64, b, e.kval(k)), (uint64_t)env.tree_bases[I.b] + k);
        break;
      }
      case Op::addr_idx: {
        const bc::AddrTerm& term = fn.terms[I.c];
        if (term.div == 0) return abort(pc, "address term divides by zero");
        Ref i = get(I.b);
        int64_t iv = (int64_t)R[I.b] / term.div;
        if (term.div != 1) i = e.emit(IrOp::div, CT::i64, i, e.kval((uint64_t)term.div));
        if (term.mod) {
          i = e.emit(IrOp::raw_mod, CT::i64, i, e.kval((uint64_t)term.mod));
          iv %= term.mod;
        }
        i = e.emit(IrOp::mul, CT::i64, i, e.kval((uint64_t)term.stride));
        set(I.a, e.emit(IrOp::add, CT::i64, get(I.a), i), R[I.a] + (uint64_t)(iv * term.stride));
        break;
      }
      case Op::bound: {
        uint64_t shape = (uint64_t)fn.accesses[I.c].shape[I.b];
        if (R[I.a] >= shape) return abort(pc, "index out of bounds");
        if (!e.guard(IrOp::guard_ult, get(I.a), e.kval(shape), snap(pc))) return abort(pc, "constant guard failed");
        break;
      }
      case Op::bndx: {
        // an ndarray bound: the shape is a launch argument, so the guard compares two values
        if (R[I.a] >= R[I.b]) return abort(pc, "index out of bounds");
        if (!e.guard(IrOp::guard_ult, get(I.a), get(I.b), snap(pc))) return abort(pc, "constant guard failed");
        break;
      }
      case Op::gtemp:
        set(I.a, e.emit(IrOp::gtemp, CT::i64, kNoRef, kNoRef, kNoRef, I.d()), (uint64_t)&env.temps[I.d()]);
        break;
      case Op::jmp:
        pc = (uint32_t)I.d();
        if (while_loop && pc == head - 1) goto closed;
        continue;
      case Op::jz:
      case Op::jnz: {
        if (p.ifconv && if_convert(pc, I)) continue;
        bool zero = R[I.a] == 0;
        bool taken = (op == Op::jz) == zero;
        uint32_t other = taken ? pc + 1 : (uint32_t)I.d();
        if (!e.guard(zero ? IrOp::guard_z : IrOp::guard_nz, get(I.a), kNoRef, snap(other)))
          return abort(pc, "constant guard failed");
        pc = taken ? (uint32_t)I.d() : pc + 1;
        continue;
      }
      case Op::forl_i32:
      case Op::forl_i64: {
        if ((uint32_t)I.d() != head) {
          if (!inner_back_edge(pc, I)) return false;
          continue;
        }
        bool i32 = op == Op::forl_i32;
        CT it = i32 ? CT::i32 : CT::i64;
        Ref next = e.emit(IrOp::add, it, get(I.a), e.kval(1));
        uint64_t nv;
        eval_pure(IrOp::add, it, 0, R[I.a], 1, 0, nv);
        set(I.a, next, nv);
        R[I.a + 2]++;  // the hot counter: not part of the trace
        uint64_t more;
        eval_pure(IrOp::lt, it, 0, R[I.a], R[I.a + 1], 0, more);
        Ref cond = e.emit(IrOp::lt, it, next, get(I.a + 1));
        // The recorded iteration may be the loop's last: the trace is still
        // one iteration of it, and the guard that fails now leaves it.
        if (!e.guard(IrOp::guard_nz, cond, kNoRef, snap(pc + 1))) return abort_transient(pc + 1, "loop left while recording");
        if (!more) done_pc = pc + 1;
        goto closed;
      }
      case Op::rand:
        if (!random(pc, I)) return false;
        break;
      case Op::stk_init: {  // the tape's address in the frame, emptied
        const bc::StackDesc& d = fn.stacks[(size_t)I.d()];
        uint32_t slot = fn.frame_regs() + d.offset;
        Ref addr = e.emit(IrOp::faddr, CT::i64, kNoRef, kNoRef, kNoRef, slot);
        e.effect(IrOp::store, addr, e.kval(d.capacity), (int64_t)Prim::i64);
        e.effect(IrOp::store, e.emit(IrOp::add, CT::i64, addr, e.kval(8)), e.kval(0), (int64_t)Prim::i64);
        uint64_t* st = R + slot;
        st[0] = d.capacity;
        st[1] = 0;
        set(I.a, addr, (uint64_t)(uintptr_t)st);
        break;
      }
      case Op::stk_push:
      case Op::stk_pop:
      case Op::stk_top: {
        // Autodiff tapes ([capacity, count, values...], vm/interp) inline:
        // loads and stores of the count and the slot, and a guard that
        // exits to the interpreter (which raises) on overflow or underflow.
        uint16_t tape = op == Op::stk_top ? I.b : I.a;
        uint64_t* st = reinterpret_cast<uint64_t*>(R[tape]);
        bool bad = op == Op::stk_push ? st[1] >= st[0] : st[1] == 0;
        if (bad) return abort(pc, "autodiff tape overflow or underflow");
        const int64_t i64 = (int64_t)Prim::i64;
        Ref addr = get(tape);
        Ref count_at = e.emit(IrOp::add, CT::i64, addr, e.kval(8));
        Ref count = e.emit(IrOp::load, CT::i64, count_at, kNoRef, kNoRef, i64);
        if (op == Op::stk_push) {
          Ref cap = e.emit(IrOp::load, CT::i64, addr, kNoRef, kNoRef, i64);
          if (!e.guard(IrOp::guard_ult, count, cap, snap(pc))) return abort(pc, "constant guard failed");
        } else if (!e.guard(IrOp::guard_nz, count, kNoRef, snap(pc))) {
          return abort(pc, "constant guard failed");
        }
        // the value slots start at addr + 8 * kStackHeader
        auto slot = [&](Ref k) {
          return e.emit(IrOp::add, CT::i64, addr, e.emit(IrOp::mul, CT::i64, k, e.kval(8)));
        };
        if (op == Op::stk_push) {
          e.effect(IrOp::store, slot(e.emit(IrOp::add, CT::i64, count, e.kval(bc::kStackHeader))), get(I.b), i64);
          e.effect(IrOp::store, count_at, e.emit(IrOp::add, CT::i64, count, e.kval(1)), i64);
          st[bc::kStackHeader + st[1]++] = R[I.b];
        } else if (op == Op::stk_pop) {
          e.effect(IrOp::store, count_at, e.emit(IrOp::sub, CT::i64, count, e.kval(1)), i64);
          st[1]--;
        } else {
          Ref at = slot(e.emit(IrOp::add, CT::i64, count, e.kval(bc::kStackHeader - 1)));
          set(I.a, e.emit(IrOp::load, CT::i64, at, kNoRef, kNoRef, i64), st[bc::kStackHeader + st[1] - 1]);
        }
        break;
      }
      case Op::sptr:    // a sparse element's address (activation, pools)
      case Op::snop: {  // ti.append & co
        // Runtime calls, made now for the interpreter's state and recorded.
        RtCall c;
        c.program = env.program;
        c.loc = fn.loc_at(pc);
        if (op == Op::sptr) {
          const bc::SparseDesc& d = fn.sparse[I.c];
          c.fn = &sparse_lookup;
          c.place = d.place;
          c.nidx = d.nidx;
          c.activate = d.activate;
        } else {
          const bc::SNodeOpDesc& d = fn.snode_ops[I.c];
          c.fn = &snode_call;
          c.place = d.snode;
          c.nidx = d.nidx;
          c.op = d.op;
        }
        // An access that activates nothing, and an append into a list
        // reached without activation, walk the tree inline (sparse_walk.h).
        bool append = op == Op::snop && (Program::SNodeOp)c.op == Program::SNodeOp::append;
        if (env.program && c.nidx <= kMaxIndices && (op == Op::sptr || append)) {
          Val idx[kMaxIndices], r;
          for (int v = 0; v < c.nidx; v++) idx[v] = {get((uint16_t)(I.b + v)), R[I.b + v]};
          Walked w = op == Op::sptr ? walk_element(e, env, c.place, c.activate, idx, c.nidx, snap(pc), r)
                                    : walk_append(e, env, c.place, idx, c.nidx, snap(pc), c, r);
          if (w == Walked::abort) return abort(pc, "constant guard failed");
          if (w == Walked::yes) {
            rethrow_pending();
            set(I.a, r.ref, r.bits);
            break;
          }
        }
        if (!env.program || c.nidx > 2) return abort(pc, "a sparse access or SNode op with more than 2 indices");
        const RtCall* kept = keep_rtcall(c);
        uint64_t v = rt_call(c.nidx > 0 ? R[I.b] : 0, c.nidx > 1 ? R[I.b + 1] : 0, (uint64_t)kept);
        rethrow_pending();  // while recording, an error is the interpreter's to report
        Ref r = e.effect(IrOp::rtcall, c.nidx > 0 ? get(I.b) : e.kval(0), c.nidx > 1 ? get(I.b + 1) : e.kval(0),
                         (int64_t)(uintptr_t)kept);
        set(I.a, r, v);
        break;
      }
      case Op::sfidx: {  // struct-for cell index: table[b * stride + k], the table in r3
        uint64_t stride = I.c >> 8, k = I.c & 0xff;
        const int64_t* table = reinterpret_cast<const int64_t*>(R[3]);
        uint64_t v = (uint64_t)table[(int64_t)R[I.b] * (int64_t)stride + (int64_t)k];
        // The row's address (table + b * stride * 8: one value the row's
        // columns share), then the column's displacement.
        Ref row = e.emit(IrOp::add, CT::i64, get(3), e.emit(IrOp::mul, CT::i64, get(I.b), e.kval(stride * 8)));
        Ref addr = k ? e.emit(IrOp::add, CT::i64, row, e.kval(k * 8)) : row;
        set(I.a, e.emit(IrOp::load, CT::i64, addr, kNoRef, kNoRef, (int64_t)Prim::i64), v);
        break;
      }
      case Op::fori_i32: case Op::fori_i64:
        if (!counted_inner(pc, I)) return false;
        if (stitched) return true;
        continue;
      case Op::loop: {  // an inner while loop: entered, or its back edge while unrolling
        uint32_t body = pc + 1;
        bool unrolling = unrolled.count(body) != 0;
        if (unrolling && !unroll_more(pc, body)) return false;  // before the frame changes
        R[I.a]++;  // its hot counter, as the interpreter counts
        if (unrolling) break;
        if (TraceFn f = inner ? inner(body) : nullptr) {
          if (stitch(body)) return true;
          if (!call_inner(pc, body, loop_last(fn, body), f)) return false;
          continue;
        }
        unrolled[body] = 0;
        break;
      }
      default: return abort(pc, std::string("unsupported op ") + bc::op_name(op));
    }
    pc++;
  }
closed:
  if (while_loop) R[code[head - 1].a]++;  // the `loop` op's counter, as the interpreter would
  if (called) {
    // A register read at entry but last written by an inner loop trace: the
    // next iteration must read the frame's value, not the entry value.
    std::vector<uint16_t> entry_reads;
    for (const Ins& in : t.ins)
      if (in.op == IrOp::sload) entry_reads.push_back((uint16_t)in.k);
    for (uint16_t r : entry_reads)
      if (map[r] == kNoRef && in_frame[r]) get(r);
  }
  if (side) {  // the registers as the root trace expects them at its head, then the jump there
    Ins link;
    link.op = IrOp::link;
    link.k = (int64_t)(uintptr_t)args.link_to;
    link.snap = (int32_t)t.snaps.size();
    t.snaps.push_back(snap(head));
    t.ins.push_back(link);
  } else {
    t.hoist_bounds = args.hoist;
    bool looped = live ? peel(t, e, map, [this](uint32_t pc, uint16_t r) { return live->live(pc, r); })
                       : peel(t, e, map);
    if (!looped) return abort(head, "the loop's second iteration always leaves it");
  }
  dce(t);
  out.ok = true;
  out.resume_pc = done_pc != UINT32_MAX ? done_pc : head;
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

}  // namespace

Recording record(const bc::Function& fn, uint32_t head, uint64_t* R, const TraceEnv& env, const Params& p,
                 const RecordArgs& args) {
  Rec rec(fn, R, env, p, args);
  rec.t.fn_name = fn.name;
  rec.t.head_pc = head;
  rec.run(head);
  return std::move(rec.out);
}

}  // namespace kiln::jit
