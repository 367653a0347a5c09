// If-conversion while recording (record_state.h): short branch diamonds of
// pure ops become selects.
#include <algorithm>

#include "jit/record_state.h"

namespace kiln::jit {

using bc::CT;
using bc::Op;

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

}  // namespace kiln::jit
