// If-conversion while recording (record_state.h): short branch diamonds of
// pure ops (and loads the trace already made) become selects.
#include <algorithm>

#include "jit/record_state.h"

namespace kiln::jit {

using bc::CT;
using bc::Op;

// If-conversion: a short branch diamond (or a lone `if` block) of pure ops
// that cannot raise (and loads and address checks the trace already made
// before the branch: Rec::straight) becomes both blocks computed and a `sel` per register
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
    } else if (I.op == Op::fma_f32 || I.op == Op::fma_f64) {
      fma(I);
    } else if (I.op == Op::mov) {
      set(I.a, get(I.b), R[I.b]);
    } else if (I.op == Op::kimm) {
      set(I.a, e.kval((uint64_t)(int64_t)I.d()), (uint64_t)(int64_t)I.d());
    } else if (I.op == Op::kload) {
      set(I.a, e.kval(fn.consts[I.d()]), fn.consts[I.d()]);
    } else if (in_range(I.op, Op::ld_i8, Op::ld_f64)) {
      // A load the trace already made of the same address, with no store
      // since (`if x[i] > 0: s += x[i]`): its value, no new access. A new
      // load could fault or race where the block is not taken.
      int prim = (int)I.op - (int)Op::ld_i8;
      Ref v = e.loaded(get(I.b), prim);
      if (v == kNoRef) return false;
      set(I.a, v, load_prim(R[I.b], prim));
    } else if (I.op == Op::addr_base || I.op == Op::addr_idx || I.op == Op::bound || I.op == Op::bndx) {
      if (address(q, I, true)) return false;  // (its guards must be implied: recorder.cpp)
    } else if (I.op == Op::jz || I.op == Op::jnz) {
      // A diamond nested in this block (checked whole by region_ok).
      uint32_t at = q;
      if (!if_convert(at, I, true)) return false;
      q = at - 1;
    } else if (I.op != Op::nop) {
      return false;
    }
  }
  return true;
}

// The then and else blocks of the branch at pc: then = [pc+1, then_hi) falls
// through, else = [target, end) is jumped to (empty for a lone `if`).
static bool diamond(const bc::Insn* code, uint32_t pc, uint32_t hi, uint32_t& then_hi, uint32_t& target, uint32_t& end) {
  target = (uint32_t)code[pc].d();
  if (target <= pc + 1 || target > hi) return false;
  then_hi = end = target;
  const bc::Insn& J = code[target - 1];
  if (J.op == Op::jmp && (uint32_t)J.d() >= target && (uint32_t)J.d() <= hi) {
    then_hi = target - 1;
    end = (uint32_t)J.d();
  }
  return true;
}

// The select of an if-converted register: sel(c, b, c'), or where both
// values update one integer x by a sum (`if k > 2: s += k else: s -= 2 * k`:
// sel(c, x + a, x - b)), x + sel(c, a, -b), the same bits in every integer
// type (both wrap): a sum whose term is a select, which the lane planner
// folds (jit/vector.h), where a select of two sums is no fold.
static Ref select(Emitter& e, const Trace& t, Ref cond, Ref b, Ref c) {
  auto int_sum = [&](Ref v) {
    const Ins& in = t.ins[v];
    return !t.is_const(v) && (in.op == IrOp::add || in.op == IrOp::sub) && in.t != CT::f32 && in.t != CT::f64;
  };
  Ref x = kNoRef;
  if (b >= 0 && c >= 0 && b != c && int_sum(b) && int_sum(c) && t.ins[b].t == t.ins[c].t) {
    const Ins &B = t.ins[b], &C = t.ins[c];
    for (Ref xb : {B.a, B.op == IrOp::add ? B.b : kNoRef})
      for (Ref xc : {C.a, C.op == IrOp::add ? C.b : kNoRef})
        if (x == kNoRef && xb != kNoRef && xb == xc) x = xb;
  }
  if (x == kNoRef) return e.emit(IrOp::sel, CT::i64, cond, b, c);
  auto term = [&](const Ins& in) {  // what the arm adds to x
    Ref o = in.a == x ? in.b : in.a;
    return in.op == IrOp::sub ? e.emit(IrOp::neg, in.t, o) : o;
  };
  Ref tb = term(t.ins[b]), tc = term(t.ins[c]);
  return e.emit(IrOp::add, t.ins[b].t, x, e.emit(IrOp::sel, CT::i64, cond, tb, tc));
}

// Whether a value a block computed is a float (a constant: as its other).
static bool is_float(const Trace& t, Ref v, int depth = 0) {
  if (v < 0 || depth > 8) return v >= 0;
  const Ins& in = t.ins[v];
  if (in.op == IrOp::load) return (Prim)in.k == Prim::f32 || (Prim)in.k == Prim::f64;
  if (in.op == IrOp::conv) return in_range((Op)in.k, Op::round_f16, Op::f64_f32);  // (the int -> float and float forms)
  if (in.op == IrOp::sel) return is_float(t, in.b, depth + 1) || is_float(t, in.c, depth + 1);
  return in.t == CT::f32 || in.t == CT::f64;
}

static bool writes(Op op) {
  IrOp ir;
  CT ct;
  return find_family(op, ir, ct) || in_range(op, Op::sext8, Op::f64_u64) || op == Op::mov || op == Op::kimm ||
         op == Op::kload || op == Op::fma_f32 || op == Op::fma_f64 || in_range(op, Op::ld_i8, Op::ld_f64) ||
         op == Op::addr_base || op == Op::addr_idx;
}

// Whether [lo, hi) holds only register writes, nops and whole diamonds of
// them, *size counting its instructions (a nested diamond's blocks and jumps
// included).
static bool region_ok(const bc::Insn* code, uint32_t lo, uint32_t hi, uint32_t& size) {
  for (uint32_t q = lo; q < hi; q++) {
    Op op = code[q].op;
    if (op == Op::jz || op == Op::jnz) {
      uint32_t then_hi, target, end;
      if (!diamond(code, q, hi, then_hi, target, end) || end > hi) return false;
      if (!region_ok(code, q + 1, then_hi, size) || !region_ok(code, target, end, size)) return false;
      size += 1 + (then_hi != target);
      q = end - 1;
    } else if (writes(op) || op == Op::nop || op == Op::bound || op == Op::bndx) {
      size++;
    } else {
      return false;
    }
  }
  return true;
}

bool Rec::if_convert(uint32_t& pc, const bc::Insn& I, bool nested) {
  const bc::Insn* code = fn.code.data();
  uint32_t then_hi, target, end;
  if (!diamond(code, pc, loop_hi, then_hi, target, end)) return false;
  // Blocks up to 32 instructions, diamonds nested in them included: ti.svd's
  // Jacobi rotations (`if apq != 0:` around 20 float ops with an `if theta <
  // 0:` inside) are data-dependent per particle; as guards, the 24 rotations
  // of an MPM step gave its loop 1,194 side traces (38 MB of code) in two
  // steps. A block's cost when not needed is its own length, once.
  constexpr uint32_t kMaxBlock = 32;
  uint32_t then_size = 0, else_size = 0;
  if (!region_ok(code, pc + 1, then_hi, then_size) || !region_ok(code, target, end, else_size)) return false;
  if (then_size > kMaxBlock || else_size > kMaxBlock) return false;
  std::vector<uint16_t> w;  // registers either block writes
  bool loads = false;
  for (uint32_t q = pc + 1; q < end; q++) {
    if (writes(code[q].op) && std::find(w.begin(), w.end(), code[q].a) == w.end()) w.push_back(code[q].a);
    loads |= in_range(code[q].op, Op::ld_i8, Op::ld_f64);
  }
  // A block that reloads an element (`if x[i] > 0: s += x[i]`) converts
  // only as a lone `if` that writes few registers, the shape of a
  // conditional add the lane planner folds (jit/vector.h). Each register is
  // a sel every iteration, where a guard costs nothing when it is
  // predictable and a loop's guard in lanes is tested 8 iterations at a
  // time: a float sum fast_math split (16 partials rotating under the
  // condition: 17 sels) ran 2^22 elements in 31 ms as sels, 0.33 ms as a
  // guard in lanes, 16 ms as a guard whose direction is random (thread CPU,
  // load 9). A diamond converts so only where each register's two values
  // are integers (below): its two updates of a sum are then one sum of a
  // select (`select`), which the planner folds; a float sum's would be a
  // select no fold takes.
  constexpr size_t kMaxReloadSels = 4;
  if (loads && w.size() > kMaxReloadSels) return false;
  // A diamond that only computes the condition of the next branch (`a and
  // b`: a short-circuit) is better left as guards: that branch is usually
  // predictable, and converting would only add a select before it.
  if (live && !nested) {
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
  if (loads && target != end)
    for (size_t j = 0; j < w.size(); j++)
      if (is_float(t, taken[j]) || is_float(t, other[j])) {
        restore();
        return false;
      }
  for (size_t j = 0; j < w.size(); j++) {
    // A register nothing reads after the join before writing it (a
    // temporary of the block) needs no select: it keeps the taken block's
    // value, which R holds. Else each such temporary of a while loop run in
    // lockstep (vm/ir/passes/jam_while.cpp: every copy's turn an `if live`
    // block writing the same temporaries) was a select per copy, carried
    // around the loop in a phi.
    if (live && !live->live(end, w[j])) {
      map[w[j]] = taken[j];
      continue;
    }
    Ref then_v = fall ? taken[j] : other[j], else_v = fall ? other[j] : taken[j];
    Ref v = I.op == Op::jz ? select(e, t, cond, then_v, else_v) : select(e, t, cond, else_v, then_v);
    map[w[j]] = v;  // (R already holds the taken block's values)
  }
  pc = end;
  return true;
}

}  // namespace kiln::jit
