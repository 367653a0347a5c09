// Float operations whose interpreter meaning is not one x86 instruction's:
// max/min (IEEE maximumNumber/minimumNumber: vm/interp/interp_ops.h; the
// integers' too, a compare and a cmov) and
// floor, ceil and float `//` (std::floor of the quotient). Inlined here they
// cost a few instructions; through eval.cpp each was a call that saved every
// live xmm register around it (Taichi's sdf_renderer example evaluates its
// distance function with eight max/min and a floor a step: 39% of its JIT
// time was in eval_call). Transcendentals (sin, exp, pow, ...) are libm's
// functions, as the interpreter's: the trace calls them directly.
#include <asmjit/x86.h>

#include <bit>
#include <cmath>
#include <utility>

#include "jit/asm.h"
#include "jit/backend.h"
#include "jit/trace.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

// x86's maxss/minss return their second operand when either is a NaN or both
// are zeros (of any signs); maximumNumber ignores a NaN operand and orders
// -0 < +0. With a constant k that is neither a NaN nor a zero, `op x, k` is
// exact: x NaN gives k, and equal operands are the same bits. A zero k of the
// right sign (max with +0, min with -0) is exact too: x = -0 or +0 gives k,
// which is then the answer. (Snow's ti.min(ti.max(sig, 1 - 2.5e-2), 1 +
// 4.5e-3) in MPM; sdf_renderer's ti.max(0, q[0]); a ReLU.)
Ref exact_maxmin_const(const Trace& t, const Ins& in) {
  if ((in.op != IrOp::max && in.op != IrOp::min) || (in.t != CT::f32 && in.t != CT::f64)) return kNoRef;
  Ref K = t.is_const(in.b) ? in.b : in.a;
  if (!t.is_const(K) || t.is_const(K == in.b ? in.a : in.b)) return kNoRef;
  uint64_t k = (uint64_t)t.ins[K].k;
  double kv = in.t == CT::f32 ? (double)std::bit_cast<float>((uint32_t)k) : std::bit_cast<double>(k);
  if (std::isnan(kv) || (kv == 0 && std::signbit(kv) == (in.op == IrOp::max))) return kNoRef;
  return K;
}

bool general_maxmin(const Trace& t, const Ins& in) {
  return (in.op == IrOp::max || in.op == IrOp::min) && (in.t == CT::f32 || in.t == CT::f64) &&
         exact_maxmin_const(t, in) == kNoRef;
}

bool Gen::float_maxmin(const Ins& in, Ref i) {
  if (!vex) return false;
  namespace Inst = x86::Inst;
  bool s = in.t == CT::f32, mx = in.op == IrOp::max;
  InstId op = mx ? (s ? Inst::kIdVmaxss : Inst::kIdVmaxsd) : (s ? Inst::kIdVminss : Inst::kIdVminsd);
  if (Ref K = exact_maxmin_const(t, in); K != kNoRef) {
    Ref X = K == in.b ? in.a : in.b;
    x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0, S = D;
    if (in_xmm(X)) S = xhome(X);
    else ldx(D, X, in.t);
    a.emit(op, D, S, kmem(K, in.t));
    stx(i, D, in.t);
    return true;
  }
  // Otherwise one ucomiss tells the rare pairs: "equal or unordered". op
  // leaves b in xmm0 for both. Equal: a & b (max) or a | b (min) bitwise,
  // the same bits unless they are zeros of two signs, where it picks +0 or
  // -0. Unordered: a when b is the NaN (both NaNs: a), else b.
  x86::Xmm A = x86::xmm1;
  if (in_xmm(in.a)) A = xhome(in.a);
  else ldx(A, in.a, in.t);
  with_xsrc(in.b, in.t, x86::xmm0, [&](const auto& B) {
    s ? a.vucomiss(A, B) : a.vucomisd(A, B);
    a.emit(op, x86::xmm0, A, B);
  });
  Label done = a.newLabel(), unordered = a.newLabel();
  a.jne(done);
  a.jp(unordered);
  if (mx) s ? a.vandps(x86::xmm0, x86::xmm0, A) : a.vandpd(x86::xmm0, x86::xmm0, A);
  else s ? a.vorps(x86::xmm0, x86::xmm0, A) : a.vorpd(x86::xmm0, x86::xmm0, A);
  a.jmp(done);
  a.bind(unordered);
  s ? a.vucomiss(x86::xmm0, x86::xmm0) : a.vucomisd(x86::xmm0, x86::xmm0);
  a.jnp(done);
  a.vmovaps(x86::xmm0, A);
  a.bind(done);
  stx(i, x86::xmm0, in.t);
  return true;
}

// Integer max/min: a compare and a cmov (registers hold i32 sign-extended
// and u32 zero-extended, so one 64-bit compare orders every width). It was
// a call: grid codes clamp indices, ti.min(ti.max(int(x), 0), n - 1).
void Gen::int_maxmin(const Ins& in, Ref i) {
  bool sg = is_signed(in.t), mx = in.op == IrOp::max;
  ld(x86::rax, in.a);
  x86::Gp B = gp_of(in.b, x86::rcx);
  a.cmp(x86::rax, B);
  if (mx) sg ? a.cmovl(x86::rax, B) : a.cmovb(x86::rax, B);
  else sg ? a.cmovg(x86::rax, B) : a.cmova(x86::rax, B);
  st(i);
}

// floor and ceil as roundss/roundsd (SSE4.1, which every AVX host has):
// the same results as std::floor/std::ceil, signed zeros and NaNs included;
// float `//` the quotient's floor.
bool Gen::float_round(const Ins& in, Ref i) {
  if (!vex) return false;
  bool s = in.t == CT::f32;
  x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0, S = x86::xmm1;
  if (in.op == IrOp::floordiv) {
    Ins q = in;
    q.op = IrOp::div;
    if (!float_binop(q, i)) return false;
    if (in_xmm(i)) S = D;
    else ldx(S, i, in.t);
  } else if (in_xmm(in.a)) S = xhome(in.a);
  else ldx(S, in.a, in.t);
  uint32_t mode = in.op == IrOp::ceil ? kRoundCeil : kRoundFloor;
  s ? a.vroundss(D, S, S, mode) : a.vroundsd(D, S, S, mode);
  stx(i, D, in.t);
  return true;
}

// libm's function for a float op, taken as eval_pure (jit/eval.cpp) calls it:
// std::sin of a float is sinf, so the trace's result is the interpreter's bit
// for bit. A direct call skips eval_call's two dispatches (its op and type
// switches) and passes the operands in xmm0/xmm1 as the C ABI does; the
// caller-saved registers are saved around it as for any call.
namespace {
template <class T> const void* libm_fn(IrOp op) {
  switch (op) {
    case IrOp::sin: return (const void*)static_cast<T (*)(T)>(std::sin);
    case IrOp::cos: return (const void*)static_cast<T (*)(T)>(std::cos);
    case IrOp::tan: return (const void*)static_cast<T (*)(T)>(std::tan);
    case IrOp::asin: return (const void*)static_cast<T (*)(T)>(std::asin);
    case IrOp::acos: return (const void*)static_cast<T (*)(T)>(std::acos);
    case IrOp::atan: return (const void*)static_cast<T (*)(T)>(std::atan);
    case IrOp::tanh: return (const void*)static_cast<T (*)(T)>(std::tanh);
    case IrOp::exp: return (const void*)static_cast<T (*)(T)>(std::exp);
    case IrOp::log: return (const void*)static_cast<T (*)(T)>(std::log);
    case IrOp::atan2: return (const void*)static_cast<T (*)(T, T)>(std::atan2);
    case IrOp::pow: return (const void*)static_cast<T (*)(T, T)>(std::pow);  // interp_ops.h's pow_ of floats
    default: return nullptr;
  }
}
}  // namespace

bool Gen::float_libm(const Ins& in, Ref i) {
  const void* fn = in.t == CT::f32 ? libm_fn<float>(in.op) : in.t == CT::f64 ? libm_fn<double>(in.op) : nullptr;
  if (!fn) return false;
  bool two = in.op == IrOp::atan2 || in.op == IrOp::pow;
  // xmm0 and xmm1 are scratch (values live from xmm2: regalloc.h), so the
  // loads cannot clobber an operand still to be read.
  call(fn, [&] {
    ldx(x86::xmm0, in.a, in.t);
    if (two) ldx(x86::xmm1, in.b, in.t);
  });
  stx(i, x86::xmm0, in.t);
  return true;
}

}  // namespace kiln::jit
