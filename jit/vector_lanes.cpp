// Which values of the loop body have lanes, and of what type (vector_planner.h):
// eight 32-bit lanes (f32 or i32) or four 64-bit ones (VecPlan::f64).
#include "jit/backend.h"
#include "jit/div_magic.h"
#include "jit/vector_planner.h"

namespace kiln::jit::planner {

using bc::CT;

// The 32-bit lane type a value has (f32 or i32; u32 counts as i32 for
// the wrapping ops), or none.
CT Planner::lane_t(Ref r) {
  if (index(r)) return CT::i32;
  const Ins& in = t.ins[r];
  if (in.op == IrOp::load) return (Prim)in.k == Prim::f32 ? CT::f32 : CT::i32;
  if (is_compare(in.op) || in.op == IrOp::lnot) return CT::i32;  // 0 or 1, whatever it compares
  if (in.op == IrOp::sel) return body(in.b) ? lane_t(in.b) : body(in.c) ? lane_t(in.c) : CT::u64;  // (u64: either)
  // (a conv's own type is its raw 64 bits: its result's is the op's, and
  // lanes take int -> f32 and f32 -> i32 only)
  if (in.op == IrOp::conv) return in.k == (int64_t)bc::Op::i64_f32 ? CT::f32 : CT::i32;
  return in.t == CT::f32 ? CT::f32 : CT::i32;
}

bool Planner::signed32(Ref r) {
  if (index(r)) return true;
  const Ins& in = t.ins[r];
  if (in.op == IrOp::load) return (Prim)in.k == Prim::i32;
  if (is_compare(in.op)) return body(r);
  return body(r) && in.t == CT::i32;
}

// Marks what computing r in lanes needs; false (with p.why) when it can't be.
bool Planner::lanes(Ref r) {
  if (index(r)) {
    if (p.f64) return fail("the counter as a value in f64 lanes");
    p.kind[r] = r == p.iv      ? VecPlan::iota
                : r == p.row_q ? VecPlan::rowq
                : r == p.row_r ? VecPlan::iota_r
                : p.is_plane(r) ? VecPlan::plane
                : p.is_in_plane(r) ? VecPlan::in_plane
                : p.is_vol(r)   ? VecPlan::vol
                                : VecPlan::in_vol;
    return true;
  }
  if (!body(r)) {
    p.kind[r] = VecPlan::uniform;
    return true;
  }
  if (p.kind[r] != VecPlan::none) return true;
  const Ins& in = t.ins[r];
  if (p.f64) return lanes64(r, in);
  auto both = [&] { return lanes(in.a) && (in.b < 0 || lanes(in.b)); };
  bool f32 = in.t == CT::f32, i32 = in.t == CT::i32 || in.t == CT::u32;
  bool ok = false;
  switch (in.op) {
    case IrOp::load:
      if (!lanes32((Prim)in.k)) return fail("a load that is not 32-bit");
      if (!access_of(in.a, p.access[r], "load")) return false;
      ok = true;
      break;
    case IrOp::add: case IrOp::sub: case IrOp::mul: ok = (f32 || i32) && both(); break;
    case IrOp::div: ok = f32 && both(); break;
    case IrOp::band: case IrOp::bor: case IrOp::bxor: ok = i32 && both(); break;
    case IrOp::shl: case IrOp::shr: case IrOp::sar: ok = i32 && t.is_const(in.b) && lanes(in.a); break;
    case IrOp::floordiv: case IrOp::mod:  // Python's floor forms by a constant (asm_lane_body.cpp)
      ok = in.t == CT::i32 && t.is_const(in.b) && lane_div_magic(t.ins[in.b].k) && lanes(in.a) &&
           (in.op == IrOp::floordiv || lanes(in.b));
      break;
    case IrOp::sqrt: ok = f32 && lanes(in.a); break;
    case IrOp::floor: case IrOp::ceil: ok = f32 && lanes(in.a); break;
    case IrOp::max: case IrOp::min: ok = (f32 || i32) && both(); break;  // (f32: exact_maxmin_const or general_maxmin)
    case IrOp::fma: ok = f32 && host_has_fma3() && lanes(in.a) && lanes(in.b) && lanes(in.c); break;
    case IrOp::neg: case IrOp::abs: ok = (f32 || in.t == CT::i32) && lanes(in.a); break;  // (i32: wrapping)
    case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne:
      // f32 or i32 operands (u32 would need unsigned compares); 0/1 lanes
      ok = (f32 || in.t == CT::i32) && both();
      break;
    case IrOp::lnot:  // an i32's `not` (x == 0: 0/1 lanes), as Python's `or` of compares gives (a float's is a call)
      ok = in.t == CT::i32 && lanes(in.a) && (!body(in.a) || lane_t(in.a) == CT::i32);
      break;
    case IrOp::sel:  // a != 0 ? b : c, on 32-bit lanes (the result's users and stores check the width)
      ok = lanes(in.a) && lanes(in.b) && lanes(in.c) && (!body(in.a) || lane_t(in.a) == CT::i32);
      break;
    case IrOp::conv:  // int -> f32 rounds as cvtdq2ps does, for signed 32-bit sources only;
      // f32 -> i32 truncates as cvttps2dq with sem::f2i's fixes (lane_f2i)
      ok = (in.k == (int64_t)bc::Op::i64_f32 && signed32(in.a) && lanes(in.a)) ||
           (in.k == (int64_t)bc::Op::f32_i32 && lanes(in.a) && lane_t(in.a) == CT::f32);
      break;
    default: break;
  }
  if (!ok) return fail(std::string("no lanes for ") + kIrOps[(int)in.op].name);
  p.kind[r] = VecPlan::lane;
  return true;
}

// 64-bit lanes: f64 loads and the exact packed ops, i64/u64 loads and the
// wrapping ones (add, sub, neg, bitwise: AVX2 has no 64-bit multiply), and
// invariants.
bool Planner::lanes64(Ref r, const Ins& in) {
  bool ok = false;
  switch (in.op) {
    case IrOp::load:
      if (!lanes64((Prim)in.k)) return fail("a load that is not 64-bit in 64-bit lanes");
      if (!access_of(in.a, p.access[r], "load")) return false;
      ok = true;
      break;
    case IrOp::add: case IrOp::sub:
      ok = (in.t == CT::f64 || int64(in.t)) && lanes(in.a) && lanes(in.b);
      break;
    case IrOp::mul: case IrOp::div: ok = in.t == CT::f64 && lanes(in.a) && lanes(in.b); break;
    case IrOp::band: case IrOp::bor: case IrOp::bxor: ok = int64(in.t) && lanes(in.a) && lanes(in.b); break;
    case IrOp::neg: ok = (in.t == CT::f64 || int64(in.t)) && lanes(in.a); break;
    case IrOp::sqrt: case IrOp::abs: case IrOp::floor: case IrOp::ceil: ok = in.t == CT::f64 && lanes(in.a); break;
    case IrOp::max: case IrOp::min: ok = in.t == CT::f64 && lanes(in.a) && lanes(in.b); break;  // (exact_maxmin_const or general_maxmin)
    case IrOp::fma: ok = in.t == CT::f64 && host_has_fma3() && lanes(in.a) && lanes(in.b) && lanes(in.c); break;
    default: break;
  }
  if (!ok) return fail(std::string("no 64-bit lanes for ") + kIrOps[(int)in.op].name);
  p.kind[r] = VecPlan::lane;
  return true;
}

// How a 32-bit lane value is held in 64 bits (for an i64 sum in 32-bit
// lanes): 's' sign-extended (i32), 'z' zero-extended (u32), or 0: unknown.
char Planner::widening(Ref r) {
  if (index(r)) return 's';
  const Ins& in = t.ins[r];
  if (t.is_const(r)) return in.k == (int32_t)in.k ? 's' : in.k == (int64_t)(uint32_t)in.k ? 'z' : 0;
  if (in.op == IrOp::load) return (Prim)in.k == Prim::i32 ? 's' : (Prim)in.k == Prim::u32 ? 'z' : 0;
  if (is_compare(in.op)) return 's';  // 0 or 1
  if (in.op == IrOp::sel || in.op == IrOp::conv) return 0;
  return in.t == CT::i32 ? 's' : in.t == CT::u32 ? 'z' : 0;
}

}  // namespace kiln::jit::planner
