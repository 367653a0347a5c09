// Bytecode -> trace IR, executing as it goes (recorder.h). Ops the trace IR
// cannot express abort the recording with a reason; the interpreter then
// simply continues at that op.
#include "jit/recorder.h"

#include <vector>

#include "jit/record_state.h"

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
    {Op::round_f32, IrOp::round, 2, CT::f32},   {Op::ctz, IrOp::tzcnt, 1, CT::u64},
};

}  // namespace

bool find_family(Op op, IrOp& ir, CT& t) {
  // One entry per bytecode op, made once: every recorded op asks (a scan
  // of the families was 5% of record + compile).
  struct Entry {
    IrOp ir = IrOp::count_;
    CT t = CT::i64;
  };
  static const std::vector<Entry> table = [] {
    std::vector<Entry> tb(bc::kNumOps);
    for (const Family& f : kFamilies)
      for (int k = 0; k < f.n; k++) tb[(size_t)f.first + k] = {f.ir, (CT)((int)f.first_t + k)};
    return tb;
  }();
  const Entry& e = table[(size_t)op];
  if (e.ir == IrOp::count_) return false;
  ir = e.ir;
  t = e.t;
  return true;
}

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

// The address ops (addr_base, addr_idx, bound, bndx); `block`: in an
// if-converted block, where a guard cannot run (the block may be the one not
// taken), so each of its guards must be implied by one already emitted
// (record_ifconv.cpp). Returns why it cannot be recorded, or nullptr.
const char* Rec::address(uint32_t pc, const bc::Insn& I, bool block) {
  auto check = [&](IrOp op, Ref a, Ref b) {
    return block ? e.implied(op, a, b) : e.guard(op, a, b, snap(pc));
  };
  switch (I.op) {
    case Op::addr_base: {
      if (I.b >= env.num_trees || !env.tree_bases[I.b]) return "tree without memory";
      Ref b = e.emit(IrOp::base, CT::i64, kNoRef, kNoRef, kNoRef, I.b);
      if (!check(IrOp::guard_nz, b, kNoRef)) return "constant guard failed";
      uint64_t k = fn.consts[I.c];
      set(I.a, e.emit(IrOp::add, CT::i64, b, e.kval(k)), (uint64_t)env.tree_bases[I.b] + k);
      return nullptr;
    }
    case Op::addr_idx: {
      const bc::AddrTerm& term = fn.terms[I.c];
      if (term.div == 0) return "address term divides by zero";
      Ref i = get(I.b);
      int64_t iv = (int64_t)R[I.b] / term.div;
      if (term.div != 1) i = e.emit(IrOp::div, CT::i64, i, e.kval((uint64_t)term.div));
      if (term.mod) {
        i = e.emit(IrOp::raw_mod, CT::i64, i, e.kval((uint64_t)term.mod));
        iv %= term.mod;
      }
      i = e.emit(IrOp::mul, CT::i64, i, e.kval((uint64_t)term.stride));
      set(I.a, e.emit(IrOp::add, CT::i64, get(I.a), i), R[I.a] + (uint64_t)(iv * term.stride));
      return nullptr;
    }
    case Op::bound: {
      uint64_t shape = (uint64_t)fn.accesses[I.c].shape[I.b];
      if (R[I.a] >= shape) return "index out of bounds";
      return check(IrOp::guard_ult, get(I.a), e.kval(shape)) ? nullptr : "constant guard failed";
    }
    case Op::bndx:  // an ndarray bound: the shape is a launch argument, so the guard compares two values
      if (R[I.a] >= R[I.b]) return "index out of bounds";
      return check(IrOp::guard_ult, get(I.a), get(I.b)) ? nullptr : "constant guard failed";
    default: return "not an address op";
  }
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
      case Op::fma_f64:
        fma(I);
        break;
      case Op::addr_base:
      case Op::addr_idx:
      case Op::bound:
      case Op::bndx:
        if (const char* why = address(pc, I, false)) return abort(pc, why);
        break;
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
      case Op::stk_init: case Op::stk_push: case Op::stk_pop: case Op::stk_top:
        if (!tape(pc, I)) return false;
        break;
      case Op::sptr: case Op::snop:
        if (!sparse(pc, I)) return false;
        break;
      case Op::sfidx: cell_index(I); break;
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

Recording record(const bc::Function& fn, uint32_t head, uint64_t* R, const TraceEnv& env, const Params& p,
                 const RecordArgs& args) {
  Rec rec(fn, R, env, p, args);
  rec.t.fn_name = fn.name;
  rec.t.head_pc = head;
  rec.t.nonneg_reg = fn.nonneg_reg;
  rec.run(head);
  return std::move(rec.out);
}

}  // namespace kiln::jit
