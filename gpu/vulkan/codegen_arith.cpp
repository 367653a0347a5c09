// Scalar arithmetic in SPIR-V with the interpreter's semantics (vm/interp/
// interp_ops.h): wrapping ints, Python floordiv/mod, C division by -1 without
// overflow, shifts by counts past the width, saturating float->int casts.
// SPIR-V leaves those cases undefined, so each is spelled out with selects.
#include <bit>
#include <cmath>

#include <spirv/unified1/GLSL.std.450.h>

#include "gpu/vulkan/codegen_state.h"
#include "vm/types/value.h"

namespace kiln::vk {

using spv::Op;
using ir::BinaryOp;
using ir::UnaryOp;

static bool is_signed(Prim p) { return prim_is_int(p) && prim_is_signed(p); }

Id Gen::type(Prim p, const ir::Stmt* where) {
  switch (p) {
    case Prim::i8: case Prim::u8:
    case Prim::i16: case Prim::u16:
    case Prim::i32: case Prim::u32:
    case Prim::i64: case Prim::u64: return m.t_int(prim_bits(p), prim_is_signed(p));
    case Prim::f16: case Prim::f32: case Prim::f64: return m.t_float(prim_bits(p));
    case Prim::bf16: return m.t_float(32);  // a storage type: values are the f32 of their bf16 value
    default: break;
  }
  if (where) unsupported(*where, std::string("values of type ") + std::string(prim_name(p)));
  raise("NotImplementedError", std::string("vulkan: values of type ") + std::string(prim_name(p)) + " are not supported");
}

Id Gen::const_int(Prim p, int64_t v) { return m.c_bits(type(p), prim_bits(p), (uint64_t)v, is_signed(p)); }

Id Gen::const_float(Prim p, double v) {
  uint64_t bits;
  if (p == Prim::f64) bits = std::bit_cast<uint64_t>(v);
  else if (p == Prim::f16) bits = f64_to_f16_bits(v);
  else if (p == Prim::bf16) bits = (uint32_t)f64_to_bf16_bits(v) << 16;
  else bits = std::bit_cast<uint32_t>((float)v);
  return m.c_bits(type(p), p == Prim::bf16 ? 32 : prim_bits(p), bits);
}

// bf16 (a storage type): the f32 `v` rounded to 8 significant bits, ties to
// even, as the runtime's f32_to_bf16_bits: its 16-bit pattern in the low
// bits of a u32 (bf16_bits), or that value again as f32 (round_bf16).
Id Gen::bf16_bits(Id v) {
  Id bt = m.t_bool();
  Id x = m.op(Op::OpBitcast, u32(), {v});
  Id nan = m.op(Op::OpUGreaterThan, bt, {m.op(Op::OpBitwiseAnd, u32(), {x, cu32(0x7fffffff)}), cu32(0x7f800000)});
  Id lsb = m.op(Op::OpBitwiseAnd, u32(), {m.op(Op::OpShiftRightLogical, u32(), {x, cu32(16)}), cu32(1)});
  Id rounded = m.op(Op::OpIAdd, u32(), {x, m.op(Op::OpIAdd, u32(), {cu32(0x7fff), lsb})});
  Id quiet = m.op(Op::OpBitwiseOr, u32(), {x, cu32(0x00400000)});  // NaN: keep a payload bit
  return m.op(Op::OpShiftRightLogical, u32(), {m.op(Op::OpSelect, u32(), {nan, quiet, rounded}), cu32(16)});
}

Id Gen::round_bf16(Id v) {
  return m.op(Op::OpBitcast, type(Prim::f32), {m.op(Op::OpShiftLeftLogical, u32(), {bf16_bits(v), cu32(16)})});
}

Id Gen::bf16_from_bits(Id bits16) {
  Id w = m.op(Op::OpUConvert, u32(), {bits16});
  return m.op(Op::OpBitcast, type(Prim::f32), {m.op(Op::OpShiftLeftLogical, u32(), {w, cu32(16)})});
}

Id Gen::constant(Prim p, const ir::Const& c) {
  return prim_is_float(p) ? const_float(p, c.f) : const_int(p, c.i);
}

Id Gen::to_bool(Id v, Prim p) {
  if (prim_is_float(p)) return m.op(Op::OpFUnordNotEqual, m.t_bool(), {v, const_float(p, 0)});
  return m.op(Op::OpINotEqual, m.t_bool(), {v, const_int(p, 0)});
}

Id Gen::from_bool(Id b, Prim p) {
  if (prim_is_float(p)) return m.op(Op::OpSelect, type(p), {b, const_float(p, 1), const_float(p, 0)});
  return m.op(Op::OpSelect, type(p), {b, const_int(p, 1), const_int(p, 0)});
}

Id Gen::as_unsigned(Id v, Prim p) {
  if (!is_signed(p)) return v;
  return m.op(Op::OpBitcast, m.t_int(prim_bits(p), false), {v});
}

// Sign-extends a narrower int to 64 bits by shifts: Mesa 22's lavapipe
// compares OpSConvert's i64 result with a constant wrongly (i64(1) < 4 was
// false, i64(-1) >= 0 true), and the shift pair is the same value.
static Id sext64(Gen& g, Id v, Prim from) {
  SpirvModule& m = g.m;
  int fb = prim_bits(from);
  Id u = m.op(Op::OpUConvert, g.u64(), {g.as_unsigned(v, from)});
  Id up = m.op(Op::OpShiftLeftLogical, g.u64(), {u, g.cu32((uint32_t)(64 - fb))});
  return m.op(Op::OpShiftRightArithmetic, m.t_int(64, true), {m.op(Op::OpBitcast, m.t_int(64, true), {up}), g.cu32((uint32_t)(64 - fb))});
}

Id Gen::to_u64_reg(Id v, Prim p) {
  if (p == Prim::f64) return m.op(Op::OpBitcast, u64(), {v});
  if (prim_is_float(p)) {  // f32 (f16 widened exactly, bf16 already f32): its bits in the low word
    if (p == Prim::f16) v = m.op(Op::OpFConvert, type(Prim::f32), {v});
    return m.op(Op::OpUConvert, u64(), {m.op(Op::OpBitcast, u32(), {v})});
  }
  if (prim_bits(p) == 64) return as_unsigned(v, p);
  // Ints: sign- or zero-extended from their width, as the registers hold them.
  Id w = is_signed(p) ? sext64(*this, v, p) : m.op(Op::OpUConvert, u64(), {v});
  return is_signed(p) ? m.op(Op::OpBitcast, u64(), {w}) : w;
}

// The number of significant bits of the unsigned `x` of `bits` (32 or 64)
// bits, as an i32: 0 for zero.
static Id bit_width(Gen& g, Id x, int bits) {
  SpirvModule& m = g.m;
  auto w32 = [&](Id v) {  // FindUMsb is -1 for zero
    return m.op(Op::OpIAdd, g.i32(), {m.ext(GLSLstd450FindUMsb, g.i32(), {v}), g.const_int(Prim::i32, 1)});
  };
  if (bits == 32) return w32(x);
  Id lo = m.op(Op::OpUConvert, g.u32(), {x});
  Id hi = m.op(Op::OpUConvert, g.u32(), {m.op(Op::OpShiftRightLogical, g.u64(), {x, g.cu32(32)})});
  Id hz = m.op(Op::OpIEqual, m.t_bool(), {hi, g.cu32(0)});
  return m.op(Op::OpSelect, g.i32(), {hz, w32(lo), m.op(Op::OpIAdd, g.i32(), {w32(hi), g.const_int(Prim::i32, 32)})});
}

// The f64 `d` as an f32 rounded to odd: truncated toward zero, the last bit
// set when anything was dropped. Rounding that to f16 or bf16 (fewer than 23
// bits) gives the one rounding of d, as value.cpp's cast_const; converting
// straight (lavapipe goes through a nearest f32) rounds twice.
Id Gen::f64_to_f32_odd(Id d) {
  Id f32 = type(Prim::f32), f64 = type(Prim::f64), bt = m.t_bool();
  Id t = m.op(Op::OpFConvert, f32, {d});  // to nearest
  Id back = m.op(Op::OpFConvert, f64, {t});
  Id bits = m.op(Op::OpBitcast, u32(), {t});
  Id inexact = m.op(Op::OpFOrdNotEqual, bt, {back, d});  // false for NaN and when exact
  // Rounded away from zero: step the magnitude back by one (an inf from a
  // finite d becomes the largest finite f32).
  Id away = m.op(Op::OpFOrdGreaterThan, bt, {m.ext(GLSLstd450FAbs, f64, {back}), m.ext(GLSLstd450FAbs, f64, {d})});
  Id toward0 = m.op(Op::OpSelect, u32(), {away, m.op(Op::OpISub, u32(), {bits, cu32(1)}), bits});
  Id odd = m.op(Op::OpSelect, u32(), {inexact, m.op(Op::OpBitwiseOr, u32(), {toward0, cu32(1)}), bits});
  return m.op(Op::OpBitcast, f32, {odd});
}

// A 32- or 64-bit integer as an f32 rounded to odd (the bits below the top 24
// of its magnitude fold into a sticky last bit), for the same reason: i32 or
// i64 -> f32 -> bf16 rounds twice. Integer ops only: no f64 needed.
Id Gen::int_to_f32_odd(Id v, Prim from) {
  int w = prim_bits(from);
  Id ut = m.t_int(w, false), bt = m.t_bool(), f32 = type(Prim::f32);
  Id x = as_unsigned(v, from);
  Id zero = m.c_bits(ut, w, 0);
  Id neg = is_signed(from) ? m.op(Op::OpSLessThan, bt, {v, const_int(from, 0)}) : m.c_bool(false);
  Id mag = m.op(Op::OpSelect, ut, {neg, m.op(Op::OpISub, ut, {zero, x}), x});  // |INT_MIN| as unsigned
  Id width = bit_width(*this, mag, w);
  Id over = m.op(Op::OpISub, i32(), {width, const_int(Prim::i32, 24)});
  Id shift = m.op(Op::OpBitcast, u32(), {m.op(Op::OpSelect, i32(), {m.op(Op::OpSGreaterThan, bt, {over, const_int(Prim::i32, 0)}),
                                                                  over, const_int(Prim::i32, 0)})});
  Id one = m.c_bits(ut, w, 1);
  Id mask = m.op(Op::OpISub, ut, {m.op(Op::OpShiftLeftLogical, ut, {one, shift}), one});
  Id sticky = m.op(Op::OpINotEqual, bt, {m.op(Op::OpBitwiseAnd, ut, {mag, mask}), zero});
  Id kept = m.op(Op::OpShiftRightLogical, ut, {mag, shift});
  kept = m.op(Op::OpSelect, ut, {sticky, m.op(Op::OpBitwiseOr, ut, {kept, one}), kept});
  if (w == 64) kept = m.op(Op::OpUConvert, u32(), {kept});
  // kept < 2^24 converts exactly; times 2^shift (at most 2^40) is exact too.
  Id scale = m.op(Op::OpBitcast, f32, {m.op(Op::OpShiftLeftLogical, u32(), {m.op(Op::OpIAdd, u32(), {shift, cu32(127)}), cu32(23)})});
  Id f = m.op(Op::OpFMul, f32, {m.op(Op::OpConvertUToF, f32, {kept}), scale});
  return m.op(Op::OpSelect, f32, {neg, m.op(Op::OpFNegate, f32, {f}), f});
}

Id Gen::cast(Id v, Prim from, Prim to, const ir::Stmt& s) {
  if (from == to) return v;
  // bf16 values compute as f32; f16 and bf16 from f64 or a 32/64-bit int
  // round once, through a round-to-odd f32.
  if (from == Prim::bf16) return cast(v, Prim::f32, to, s);
  if ((to == Prim::f16 || to == Prim::bf16) && (from == Prim::f64 || (prim_is_int(from) && prim_bits(from) >= 32))) {
    Id odd = from == Prim::f64 ? f64_to_f32_odd(v) : int_to_f32_odd(v, from);
    return cast(odd, Prim::f32, to, s);
  }
  if (to == Prim::bf16) return round_bf16(cast(v, from, Prim::f32, s));
  Id t = type(to, &s);
  bool ff = prim_is_float(from), tf = prim_is_float(to);
  if (ff && tf) return m.op(Op::OpFConvert, t, {v});
  if (!ff && tf) return m.op(is_signed(from) ? Op::OpConvertSToF : Op::OpConvertUToF, t, {v});
  if (!ff && !tf) {
    int fb = prim_bits(from), tb = prim_bits(to);
    if (fb == tb) return m.op(Op::OpBitcast, t, {v});
    if (is_signed(from) && tb > fb) {  // sign-extends
      if (tb < 64) return m.op(Op::OpSConvert, t, {v});
      Id w = sext64(*this, v, from);
      return is_signed(to) ? w : m.op(Op::OpBitcast, t, {w});
    }
    // Narrowing truncates; widening an unsigned value zero-extends. OpUConvert
    // gives an unsigned type only.
    Id n = m.op(Op::OpUConvert, m.t_int(tb, false), {v});
    return is_signed(to) ? m.op(Op::OpBitcast, t, {n}) : n;
  }
  // float -> int: truncate toward zero, NaN -> 0, saturate at the limits.
  int bits = prim_bits(to);
  Id b = m.t_bool();
  Id conv = m.op(is_signed(to) ? Op::OpConvertFToS : Op::OpConvertFToU, t, {v});
  Id maxv, minv, hi, lo;
  if (is_signed(to)) {
    double lim = std::ldexp(1.0, bits - 1);
    hi = m.op(Op::OpFOrdGreaterThanEqual, b, {v, const_float(from, lim)});
    lo = m.op(Op::OpFOrdLessThanEqual, b, {v, const_float(from, -lim)});
    maxv = const_int(to, (int64_t)((~0ULL) >> (65 - bits)));
    minv = const_int(to, bits == 64 ? INT64_MIN : -(int64_t)(1ULL << (bits - 1)));
  } else {
    hi = m.op(Op::OpFOrdGreaterThanEqual, b, {v, const_float(from, std::ldexp(1.0, bits))});
    lo = m.op(Op::OpFOrdLessThanEqual, b, {v, const_float(from, -1.0)});
    maxv = const_int(to, bits == 64 ? -1 : (int64_t)((1ULL << bits) - 1));
    minv = const_int(to, 0);
  }
  Id nan = m.op(Op::OpIsNan, b, {v});
  Id r = m.op(Op::OpSelect, t, {hi, maxv, conv});
  r = m.op(Op::OpSelect, t, {lo, minv, r});
  return m.op(Op::OpSelect, t, {nan, const_int(to, 0), r});
}

// x's sign bit (true for -0.0 too), for float mod's copysign.
static Id signbit(Gen& g, Id x, Prim p) {
  int w = prim_bits(p);
  Id ut = g.m.t_int(w, false);
  Id bits = g.m.op(Op::OpBitcast, ut, {x});
  Id top = g.m.op(Op::OpShiftRightLogical, ut, {bits, g.m.c_bits(ut, w, (uint64_t)(w - 1))});
  return g.m.op(Op::OpINotEqual, g.m.t_bool(), {top, g.m.c_bits(ut, w, 0)});
}

// Integer power by squaring, wrapping (interp_ops.h pow_): a loop over the
// exponent's bits; negative exponents as C's truncated 1 / a**-e.
static Id int_pow(Gen& g, Prim p, Id a, Id b, const ir::Stmt& s) {
  SpirvModule& m = g.m;
  int w = prim_bits(p);
  Id t = g.type(p), ut = m.t_int(w, false), bt = m.t_bool();
  Id pt = m.t_ptr(spv::StorageClass::Function, ut);
  Id rv = m.function_var(pt), bv = m.function_var(pt), ev = m.function_var(pt);
  m.op_void(Op::OpStore, {rv, m.c_bits(ut, w, 1)});
  m.op_void(Op::OpStore, {bv, g.as_unsigned(a, p)});
  m.op_void(Op::OpStore, {ev, g.as_unsigned(b, p)});
  Id header = m.fresh(), body = m.fresh(), cont = m.fresh(), merge = m.fresh();
  g.branch(header);
  m.label(header);
  Id e = m.op(Op::OpLoad, ut, {ev});
  Id more = m.op(Op::OpINotEqual, bt, {e, m.c_bits(ut, w, 0)});
  m.op_void(Op::OpLoopMerge, {merge, cont, 0});
  m.op_void(Op::OpBranchConditional, {more, body, merge});
  m.label(body);
  g.loop_open(&s);
  Id r = m.op(Op::OpLoad, ut, {rv}), base = m.op(Op::OpLoad, ut, {bv});
  Id odd = m.op(Op::OpINotEqual, bt, {m.op(Op::OpBitwiseAnd, ut, {e, m.c_bits(ut, w, 1)}), m.c_bits(ut, w, 0)});
  m.op_void(Op::OpStore, {rv, m.op(Op::OpSelect, ut, {odd, m.op(Op::OpIMul, ut, {r, base}), r})});
  m.op_void(Op::OpStore, {bv, m.op(Op::OpIMul, ut, {base, base})});
  m.op_void(Op::OpStore, {ev, m.op(Op::OpShiftRightLogical, ut, {e, m.c_bits(ut, w, 1)})});
  m.op_void(Op::OpBranch, {cont});
  m.label(cont);
  g.loop_back_edge();
  m.op_void(Op::OpBranch, {header});
  m.label(merge);
  g.loop_close();
  Id res = m.op(Op::OpLoad, ut, {rv});
  if (!prim_is_signed(p)) return res;
  res = m.op(Op::OpBitcast, t, {res});
  Id neg_e = m.op(Op::OpSLessThan, bt, {b, g.const_int(p, 0)});
  g.out.checks.push_back(CheckInfo{CheckInfo::pow_zero, s.loc});
  g.fail_if(m.op(Op::OpLogicalAnd, bt, {neg_e, m.op(Op::OpIEqual, bt, {a, g.const_int(p, 0)})}),
            (int)g.out.checks.size() - 1, {});
  Id b_odd = m.op(Op::OpINotEqual, bt, {m.op(Op::OpBitwiseAnd, t, {b, g.const_int(p, 1)}), g.const_int(p, 0)});
  Id m1 = m.op(Op::OpSelect, t, {b_odd, g.const_int(p, -1), g.const_int(p, 1)});
  Id inv = m.op(Op::OpSelect, t, {m.op(Op::OpIEqual, bt, {a, g.const_int(p, -1)}), m1, g.const_int(p, 0)});
  inv = m.op(Op::OpSelect, t, {m.op(Op::OpIEqual, bt, {a, g.const_int(p, 1)}), g.const_int(p, 1), inv});
  return m.op(Op::OpSelect, t, {neg_e, inv, res});
}

// std::pow's special cases around GLSL's Pow, which is defined for x > 0 only
// (and for f16/f32 only: f64 takes codegen_f64math.cpp's).
static Id float_pow(Gen& g, Prim p, Id a, Id b, const ir::Stmt& s) {
  SpirvModule& m = g.m;
  Id t = g.type(p), bt = m.t_bool();
  Id abs_a = m.ext(GLSLstd450FAbs, t, {a});
  Id r = p == Prim::f64 ? g.f64_pow_abs(abs_a, b, s) : m.ext(GLSLstd450Pow, t, {abs_a, b});
  Id fl = m.ext(GLSLstd450Floor, t, {b});
  Id b_int = m.op(Op::OpFOrdEqual, bt, {fl, b});
  Id half = m.ext(GLSLstd450Floor, t, {m.op(Op::OpFMul, t, {b, g.const_float(p, 0.5)})});
  Id b_odd = m.op(Op::OpLogicalAnd, bt, {b_int, m.op(Op::OpFOrdNotEqual, bt, {m.op(Op::OpFMul, t, {half, g.const_float(p, 2)}), b})});
  Id neg_a = m.op(Op::OpFOrdLessThan, bt, {a, g.const_float(p, 0)});
  Id nr = m.op(Op::OpFNegate, t, {r});
  Id on_neg = m.op(Op::OpSelect, t, {b_int, m.op(Op::OpSelect, t, {b_odd, nr, r}), g.const_float(p, NAN)});
  r = m.op(Op::OpSelect, t, {neg_a, on_neg, r});
  // x == +-0: 0 or inf by b's sign, negative when x is -0 and b an odd integer.
  Id zero_a = m.op(Op::OpFOrdEqual, bt, {a, g.const_float(p, 0)});
  Id neg_zero = m.op(Op::OpLogicalAnd, bt, {b_odd, signbit(g, a, p)});
  Id pos_b = m.op(Op::OpFOrdGreaterThan, bt, {b, g.const_float(p, 0)});
  Id zr = m.op(Op::OpSelect, t, {pos_b, m.op(Op::OpSelect, t, {neg_zero, g.const_float(p, -0.0), g.const_float(p, 0)}),
                                 m.op(Op::OpSelect, t, {neg_zero, g.const_float(p, -INFINITY), g.const_float(p, INFINITY)})});
  r = m.op(Op::OpSelect, t, {zero_a, zr, r});
  return m.op(Op::OpSelect, t, {m.op(Op::OpFOrdEqual, bt, {b, g.const_float(p, 0)}), g.const_float(p, 1), r});
}

// C's fmod. OpFRem is x - y * trunc(x / y) in the working precision on
// lavapipe, off in the last bits; for f16/f32 operands the same formula in
// f64 is exact while |x / y| < 2^29 (the product needs 24 + 29 bits), and a
// quotient rounded up to the next integer leaves a remainder of the wrong
// sign, moved back by one |y|.
static Id fmod_exact(Gen& g, Prim p, Id a, Id b) {
  SpirvModule& m = g.m;
  Id t = g.type(p);
  if (p == Prim::f64 || !g.caps.float64) {
    // lavapipe's OpFRem is x - y * trunc(x / y): NaN for an infinite y,
    // where fmod gives x (finite x; an infinite one is NaN either way).
    Id r = m.op(Op::OpFRem, t, {a, b});
    Id bt = m.t_bool();
    return m.op(Op::OpSelect, t, {m.op(Op::OpLogicalAnd, bt, {m.op(Op::OpIsInf, bt, {b}), m.op(Op::OpLogicalNot, bt, {m.op(Op::OpIsInf, bt, {a})})}), a, r});
  }
  Id d = g.type(Prim::f64), bt = m.t_bool();
  Id x = m.op(Op::OpFConvert, d, {a}), y = m.op(Op::OpFConvert, d, {b});
  Id q = m.ext(GLSLstd450Trunc, d, {m.op(Op::OpFDiv, d, {x, y})});
  Id r = m.op(Op::OpFSub, d, {x, m.op(Op::OpFMul, d, {y, q})});
  Id zero = g.const_float(Prim::f64, 0);
  Id wrong = m.op(Op::OpLogicalAnd, bt, {m.op(Op::OpFOrdNotEqual, bt, {r, zero}),
                                        m.op(Op::OpLogicalNotEqual, bt, {m.op(Op::OpFOrdLessThan, bt, {r, zero}),
                                                                         m.op(Op::OpFOrdLessThan, bt, {x, zero})})});
  Id ay = m.ext(GLSLstd450FAbs, d, {y});
  Id step = m.op(Op::OpSelect, d, {m.op(Op::OpFOrdLessThan, bt, {x, zero}), m.op(Op::OpFNegate, d, {ay}), ay});
  r = m.op(Op::OpSelect, d, {wrong, m.op(Op::OpFAdd, d, {r, step}), r});
  // Infinite x or zero y: NaN, as fmod gives.
  Id bad = m.op(Op::OpLogicalOr, bt, {m.op(Op::OpIsInf, bt, {x}), m.op(Op::OpFOrdEqual, bt, {y, zero})});
  r = m.op(Op::OpSelect, d, {bad, g.const_float(Prim::f64, NAN), r});
  // Infinite y: x itself.
  r = m.op(Op::OpSelect, d, {m.op(Op::OpIsInf, bt, {y}), x, r});
  return m.op(Op::OpFConvert, t, {r});
}

Id Gen::binary_op(BinaryOp op, Prim p, Id a, Id b, const ir::Stmt& s) {
  bool f = prim_is_float(p), sg = is_signed(p);
  Id t = type(p, &s), bt = m.t_bool();
  if (ir::is_comparison(op)) {
    Op o;
    switch (op) {
      case BinaryOp::cmp_lt: o = f ? Op::OpFOrdLessThan : sg ? Op::OpSLessThan : Op::OpULessThan; break;
      case BinaryOp::cmp_le: o = f ? Op::OpFOrdLessThanEqual : sg ? Op::OpSLessThanEqual : Op::OpULessThanEqual; break;
      case BinaryOp::cmp_gt: o = f ? Op::OpFOrdGreaterThan : sg ? Op::OpSGreaterThan : Op::OpUGreaterThan; break;
      case BinaryOp::cmp_ge: o = f ? Op::OpFOrdGreaterThanEqual : sg ? Op::OpSGreaterThanEqual : Op::OpUGreaterThanEqual; break;
      case BinaryOp::cmp_eq: o = f ? Op::OpFOrdEqual : Op::OpIEqual; break;
      default: o = f ? Op::OpFUnordNotEqual : Op::OpINotEqual; break;  // NaN != NaN
    }
    return from_bool(m.op(o, bt, {a, b}), s.type.prim);
  }
  switch (op) {
    case BinaryOp::add: return m.op(f ? Op::OpFAdd : Op::OpIAdd, t, {a, b});
    case BinaryOp::sub: return m.op(f ? Op::OpFSub : Op::OpISub, t, {a, b});
    case BinaryOp::mul: return m.op(f ? Op::OpFMul : Op::OpIMul, t, {a, b});
    case BinaryOp::bit_and: return m.op(Op::OpBitwiseAnd, t, {a, b});
    case BinaryOp::bit_or: return m.op(Op::OpBitwiseOr, t, {a, b});
    case BinaryOp::bit_xor: return m.op(Op::OpBitwiseXor, t, {a, b});
    case BinaryOp::max:
    case BinaryOp::min: {
      bool mx = op == BinaryOp::max;
      if (f) return m.ext(mx ? GLSLstd450NMax : GLSLstd450NMin, t, {a, b});
      Op o = mx ? (sg ? Op::OpSGreaterThanEqual : Op::OpUGreaterThanEqual) : (sg ? Op::OpSLessThanEqual : Op::OpULessThanEqual);
      return m.op(Op::OpSelect, t, {m.op(o, bt, {a, b}), a, b});
    }
    case BinaryOp::atan2:
      if (p == Prim::f64) return f64_atan2(a, b, s);
      if (p == Prim::f32) return f32_atan2(a, b);
      if (p != Prim::f16) unsupported(s, std::string("atan2 of ") + std::string(prim_name(p)));
      return m.ext(GLSLstd450Atan2, t, {a, b});
    case BinaryOp::pow: {
      if (!f) return int_pow(*this, p, a, b, s);
      // x ** 2 and x ** -1 with a constant exponent: std::pow rounds these
      // exactly as one multiply or divide does; GLSL's Pow is far coarser.
      const ir::Stmt* e = s.ops[1];
      if (e->kind == ir::StmtKind::const_ && e->value.f == 2.0) return m.op(Op::OpFMul, t, {a, a});
      if (e->kind == ir::StmtKind::const_ && e->value.f == -1.0) return m.op(Op::OpFDiv, t, {const_float(p, 1), a});
      return float_pow(*this, p, a, b, s);
    }
    default: break;
  }
  // The division family.
  if (f) {
    switch (op) {
      case BinaryOp::div: return m.op(Op::OpFDiv, t, {a, b});
      case BinaryOp::floordiv: return m.ext(GLSLstd450Floor, t, {m.op(Op::OpFDiv, t, {a, b})});
      case BinaryOp::raw_mod: return fmod_exact(*this, p, a, b);
      default: {  // mod: fmod, moved to the divisor's sign; a zero takes the divisor's sign
        Id r = fmod_exact(*this, p, a, b);
        Id rz = m.op(Op::OpFOrdEqual, bt, {r, const_float(p, 0)});
        Id sb = signbit(*this, b, p);
        Id differ = m.op(Op::OpLogicalNotEqual, bt, {sb, m.op(Op::OpFOrdLessThan, bt, {r, const_float(p, 0)})});
        Id moved = m.op(Op::OpSelect, t, {differ, m.op(Op::OpFAdd, t, {r, b}), r});
        Id zero = m.op(Op::OpSelect, t, {sb, const_float(p, -0.0), const_float(p, 0)});
        return m.op(Op::OpSelect, t, {rz, zero, moved});
      }
    }
  }
  // Ints: a zero divisor is a ZeroDivisionError; x / -1 and x % -1 are
  // computed without the overflow SPIR-V leaves undefined.
  // A constant divisor other than 0 and -1 (the common case: i // 4) needs neither.
  const ir::Stmt* divisor = s.kind == ir::StmtKind::binary ? s.ops[1] : nullptr;
  bool plain = divisor && divisor->kind == ir::StmtKind::const_ && divisor->value.i != 0 && (!sg || divisor->value.i != -1);
  Id ism1 = m.c_bool(false), safe = b;
  if (!plain) {
    out.checks.push_back(CheckInfo{CheckInfo::div_zero, s.loc});
    Id is0 = m.op(Op::OpIEqual, bt, {b, const_int(p, 0)});
    fail_if(is0, (int)out.checks.size() - 1, {});
    if (sg) ism1 = m.op(Op::OpIEqual, bt, {b, const_int(p, -1)});
    safe = m.op(Op::OpSelect, t, {m.op(Op::OpLogicalOr, bt, {is0, ism1}), const_int(p, 1), b});
  }
  Id nega = m.op(Op::OpSNegate, t, {a});
  switch (op) {
    case BinaryOp::div:
      if (!sg) return m.op(Op::OpUDiv, t, {a, safe});
      return m.op(Op::OpSelect, t, {ism1, nega, m.op(Op::OpSDiv, t, {a, safe})});
    case BinaryOp::floordiv: {
      if (!sg) return m.op(Op::OpUDiv, t, {a, safe});
      Id q = m.op(Op::OpSDiv, t, {a, safe});
      Id r = m.op(Op::OpSRem, t, {a, safe});
      Id rn = m.op(Op::OpINotEqual, bt, {r, const_int(p, 0)});
      Id differ = m.op(Op::OpLogicalNotEqual, bt, {m.op(Op::OpSLessThan, bt, {r, const_int(p, 0)}),
                                                  m.op(Op::OpSLessThan, bt, {safe, const_int(p, 0)})});
      Id adj = m.op(Op::OpSelect, t, {m.op(Op::OpLogicalAnd, bt, {rn, differ}), m.op(Op::OpISub, t, {q, const_int(p, 1)}), q});
      return m.op(Op::OpSelect, t, {ism1, nega, adj});
    }
    case BinaryOp::mod: {
      if (!sg) return m.op(Op::OpUMod, t, {a, safe});
      // C's remainder moved to the divisor's sign. (Not OpSMod: lavapipe
      // computes it as the remainder.)
      Id r = m.op(Op::OpSRem, t, {a, safe});
      Id rn = m.op(Op::OpINotEqual, bt, {r, const_int(p, 0)});
      Id differ = m.op(Op::OpLogicalNotEqual, bt, {m.op(Op::OpSLessThan, bt, {r, const_int(p, 0)}),
                                                  m.op(Op::OpSLessThan, bt, {safe, const_int(p, 0)})});
      return m.op(Op::OpSelect, t, {m.op(Op::OpLogicalAnd, bt, {rn, differ}), m.op(Op::OpIAdd, t, {r, safe}), r});
    }
    default: return m.op(sg ? Op::OpSRem : Op::OpUMod, t, {a, safe});          // raw_mod: C's %
  }
}

// clz of a u32 value: 32 for zero.
static Id clz32(Gen& g, Id x) {
  Id msb = g.m.ext(GLSLstd450FindUMsb, g.i32(), {x});
  Id n = g.m.op(Op::OpISub, g.i32(), {g.const_int(Prim::i32, 31), msb});
  Id zero = g.m.op(Op::OpIEqual, g.m.t_bool(), {x, g.cu32(0)});
  return g.m.op(Op::OpSelect, g.i32(), {zero, g.const_int(Prim::i32, 32), n});
}

Id Gen::unary(const ir::Stmt& s) {
  Prim p = s.type.prim, a_p = s.ops[0]->type.prim;
  // bf16 computes in f32 (stmt rounds a bf16 result); casts know bf16.
  if (s.uop != UnaryOp::cast_value) {
    if (p == Prim::bf16) p = Prim::f32;
    if (a_p == Prim::bf16) a_p = Prim::f32;
  }
  Id a = val.at(s.ops[0]);
  Id t = type(p, &s);
  bool f = prim_is_float(p);
  auto float_only = [&](int inst) {
    if (!f) unsupported(s, std::string(ir::unary_op_name(s.uop)) + " of " + std::string(prim_name(p)));
    if (p == Prim::f64) return f64_math(s.uop, a, s);  // GLSL.std.450 has these for f16/f32 only
    return m.ext(inst, t, {a});
  };
  switch (s.uop) {
    case UnaryOp::neg: return m.op(f ? Op::OpFNegate : Op::OpSNegate, t, {a});
    case UnaryOp::bit_not: return m.op(Op::OpNot, t, {a});
    case UnaryOp::logic_not: {
      Id z = prim_is_float(a_p) ? m.op(Op::OpFOrdEqual, m.t_bool(), {a, const_float(a_p, 0)})
                                : m.op(Op::OpIEqual, m.t_bool(), {a, const_int(a_p, 0)});
      return from_bool(z, p);
    }
    case UnaryOp::abs:
      if (f) return m.ext(GLSLstd450FAbs, t, {a});
      if (!is_signed(p)) return a;
      return m.op(Op::OpSelect, t, {m.op(Op::OpSLessThan, m.t_bool(), {a, const_int(p, 0)}),
                                    m.op(Op::OpSNegate, t, {a}), a});
    case UnaryOp::sqrt: return m.ext(GLSLstd450Sqrt, t, {a});
    case UnaryOp::rsqrt:  // 1 / sqrt(x), as the interpreter computes it (not InverseSqrt's precision)
      return m.op(Op::OpFDiv, t, {const_float(p, 1.0), m.ext(GLSLstd450Sqrt, t, {a})});
    case UnaryOp::sin: return float_only(GLSLstd450Sin);
    case UnaryOp::cos: return float_only(GLSLstd450Cos);
    case UnaryOp::tan: return float_only(GLSLstd450Tan);
    case UnaryOp::asin: return float_only(GLSLstd450Asin);
    case UnaryOp::acos: return float_only(GLSLstd450Acos);
    case UnaryOp::atan: return float_only(GLSLstd450Atan);
    case UnaryOp::tanh: return float_only(GLSLstd450Tanh);
    case UnaryOp::exp: return float_only(GLSLstd450Exp);
    case UnaryOp::log: return float_only(GLSLstd450Log);
    case UnaryOp::floor: return f ? m.ext(GLSLstd450Floor, t, {a}) : a;
    case UnaryOp::ceil: return f ? m.ext(GLSLstd450Ceil, t, {a}) : a;
    case UnaryOp::round: {
      if (!f) return a;
      // Half away from zero (std::round): trunc, then step away from zero
      // when the dropped part is at least one half. Exact in every width.
      Id tr = m.ext(GLSLstd450Trunc, t, {a});
      Id frac = m.ext(GLSLstd450FAbs, t, {m.op(Op::OpFSub, t, {a, tr})});
      Id up = m.op(Op::OpFOrdGreaterThanEqual, m.t_bool(), {frac, const_float(p, 0.5)});
      Id stepped = m.op(Op::OpFAdd, t, {tr, m.ext(GLSLstd450FSign, t, {a})});
      return m.op(Op::OpSelect, t, {up, stepped, tr});
    }
    case UnaryOp::cast_value: return cast(a, a_p, p, s);
    case UnaryOp::cast_bits: {
      // bf16 values are f32 in registers: their 16-bit pattern is the bits.
      Prim from = s.ops[0]->type.prim, to = s.type.prim;
      if (from == Prim::bf16) {
        Id b16 = m.op(Op::OpUConvert, m.t_int(16, false), {bf16_bits(a)});
        return is_signed(to) ? m.op(Op::OpBitcast, t, {b16}) : b16;
      }
      if (to == Prim::bf16) return bf16_from_bits(as_unsigned(a, from));
      return m.op(Op::OpBitcast, t, {a});
    }
    case UnaryOp::popcnt:
    case UnaryOp::clz: {
      if (f) unsupported(s, std::string(ir::unary_op_name(s.uop)) + " of " + std::string(prim_name(p)));
      int w = prim_bits(a_p);
      Id r;
      if (w == 64) {
        Id x = as_unsigned(a, a_p);
        Id lo = m.op(Op::OpUConvert, u32(), {x});
        Id hi = m.op(Op::OpUConvert, u32(), {m.op(Op::OpShiftRightLogical, u64(), {x, m.c_bits(u64(), 64, 32)})});
        if (s.uop == UnaryOp::popcnt) {
          r = m.op(Op::OpIAdd, i32(), {m.op(Op::OpBitCount, i32(), {lo}), m.op(Op::OpBitCount, i32(), {hi})});
        } else {
          Id hz = m.op(Op::OpIEqual, m.t_bool(), {hi, cu32(0)});
          r = m.op(Op::OpSelect, i32(), {hz, m.op(Op::OpIAdd, i32(), {const_int(Prim::i32, 32), clz32(*this, lo)}),
                                          clz32(*this, hi)});
        }
      } else {
        Id x = as_unsigned(a, a_p);
        if (w < 32) x = m.op(Op::OpUConvert, u32(), {x});
        if (s.uop == UnaryOp::popcnt) r = m.op(Op::OpBitCount, i32(), {x});
        else r = m.op(Op::OpISub, i32(), {clz32(*this, x), const_int(Prim::i32, 32 - w)});
      }
      return cast(r, Prim::i32, p, s);
    }
  }
  unsupported(s, "this unary op");
}

Id Gen::binary(const ir::Stmt& s) {
  Prim p = s.ops[0]->type.prim;
  Id a = val.at(s.ops[0]), b = val.at(s.ops[1]);
  Prim bp = s.ops[1]->type.prim;
  bool shift = s.bop == BinaryOp::bit_shl || s.bop == BinaryOp::bit_shr || s.bop == BinaryOp::bit_sar;
  if (shift) {
    // The count is its register's 64 bits read as unsigned; counts of the
    // width or more give 0 (sar: the sign everywhere).
    int w = prim_bits(p);
    Id c64 = to_u64_reg(b, bp);
    Id big = m.op(Op::OpUGreaterThanEqual, m.t_bool(), {c64, m.c_bits(u64(), 64, (uint64_t)w)});
    Id ut = m.t_int(w, false);
    Id c = w == 64 ? c64 : m.op(Op::OpUConvert, ut, {c64});
    c = m.op(Op::OpSelect, ut, {big, m.c_bits(ut, w, 0), c});
    Id t = type(p, &s);
    if (s.bop == BinaryOp::bit_shl) {
      Id r = m.op(Op::OpShiftLeftLogical, t, {a, c});
      return m.op(Op::OpSelect, t, {big, const_int(p, 0), r});
    }
    if (s.bop == BinaryOp::bit_shr) {
      Id r = m.op(Op::OpShiftRightLogical, t, {a, c});
      return m.op(Op::OpSelect, t, {big, const_int(p, 0), r});
    }
    Id c2 = m.op(Op::OpSelect, ut, {big, m.c_bits(ut, w, (uint64_t)(w - 1)), c});
    return m.op(Op::OpShiftRightArithmetic, t, {a, c2});
  }
  return binary_op(s.bop, p == Prim::bf16 ? Prim::f32 : p, a, b, s);
}

}  // namespace kiln::vk
