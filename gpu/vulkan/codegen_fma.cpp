// The IR's fma (fast_math's contraction, docs/fast_math.md) in SPIR-V.
// GLSL.std.450 Fma does not promise one rounding (Mesa's lavapipe computes a
// product and a sum, rounding twice), so the exactly rounded a * b + c is
// built from + and * (each decorated NoContraction by the builder):
//   Dekker's product  a * b = ph + pl exactly (Veltkamp's split);
//   Knuth's two-sum   c + ph = th + tl exactly;
//   then Boldo and Melquiond's rounding to odd: fma = RN(th + RO(tl + pl)),
//   RO being the sum tl + pl rounded to nearest and, when that was inexact,
//   moved to the neighbour with an odd last bit (toward the error).
// Exact while no partial product underflows or overflows (|a * b| between
// about 2^-969 and 2^996 for f64, 2^-100 and 2^114 for f32); a non-finite or
// zero result takes the plain a * b + c, whose infinities, NaNs and zero
// signs are the fused ones'.
#include <spirv/unified1/GLSL.std.450.h>

#include "gpu/vulkan/codegen_state.h"

namespace kiln::vk {

using spv::Op;

Id Gen::fma(Prim p, Id a, Id b, Id c) {
  const bool f64 = p == Prim::f64;
  const Id t = type(p), ut = f64 ? u64() : u32(), bt = m.t_bool();
  auto add = [&](Id x, Id y) { return m.op(Op::OpFAdd, t, {x, y}); };
  auto sub = [&](Id x, Id y) { return m.op(Op::OpFSub, t, {x, y}); };
  auto mul = [&](Id x, Id y) { return m.op(Op::OpFMul, t, {x, y}); };
  auto split = [&](Id x, Id& hi, Id& lo) {  // x = hi + lo, each half the significand
    Id g = mul(const_float(p, f64 ? 134217729.0 : 4097.0), x);  // 2^27 + 1, 2^12 + 1
    hi = sub(g, sub(g, x));
    lo = sub(x, hi);
  };
  auto two_sum = [&](Id x, Id y, Id& s, Id& e) {  // s + e = x + y exactly
    s = add(x, y);
    Id bb = sub(s, x);
    e = add(sub(x, sub(s, bb)), sub(y, bb));
  };
  Id ph = mul(a, b), ah, al, bh, bl;
  split(a, ah, al);
  split(b, bh, bl);
  Id pl = add(add(add(sub(mul(ah, bh), ph), mul(ah, bl)), mul(al, bh)), mul(al, bl));
  Id th, tl, s, e;
  two_sum(c, ph, th, tl);
  two_sum(tl, pl, s, e);
  // Round to odd: an inexact s with an even last bit steps one ulp toward
  // the error (away from zero when the error has s's sign).
  Id bits = m.op(Op::OpBitcast, ut, {s});
  Id one = f64 ? m.c_bits(ut, 64, 1) : cu32(1), zero_u = f64 ? m.c_bits(ut, 64, 0) : cu32(0);
  Id zero = const_float(p, 0);
  Id even = m.op(Op::OpIEqual, bt, {m.op(Op::OpBitwiseAnd, ut, {bits, one}), zero_u});
  Id inexact = m.op(Op::OpFUnordNotEqual, bt, {e, zero});
  Id away = m.op(Op::OpLogicalEqual, bt, {m.op(Op::OpFOrdGreaterThan, bt, {e, zero}), m.op(Op::OpFOrdGreaterThan, bt, {s, zero})});
  Id stepped = m.op(Op::OpSelect, ut, {away, m.op(Op::OpIAdd, ut, {bits, one}), m.op(Op::OpISub, ut, {bits, one})});
  Id odd = m.op(Op::OpSelect, ut, {m.op(Op::OpLogicalAnd, bt, {even, inexact}), stepped, bits});
  Id r = add(th, m.op(Op::OpBitcast, t, {odd}));
  Id plain = add(mul(a, b), c);
  Id special = m.op(Op::OpLogicalOr, bt,
                    {m.op(Op::OpLogicalOr, bt, {m.op(Op::OpIsNan, bt, {r}), m.op(Op::OpIsInf, bt, {r})}),
                     m.op(Op::OpFOrdEqual, bt, {r, zero})});
  return m.op(Op::OpSelect, t, {special, plain, r});
}

}  // namespace kiln::vk
