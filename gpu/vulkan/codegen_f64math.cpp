// f64 transcendentals in SPIR-V arithmetic: GLSL.std.450's Sin, Exp, Atan2,
// ... take 16/32-bit floats only, so exp, log, pow, sin, cos, tan, atan,
// atan2, asin, acos and tanh of f64 are computed here from +, -, *, / and bit
// operations, after fdlibm's algorithms (range reduction, then minimax
// polynomials; the coefficients are fdlibm's, tanh's small-argument series
// is its Taylor series). Each is within 3 ulp of the C library the CPU
// engines call (1 ulp for exp, log, sin, cos, atan; 2 for pow), checked against it over
// wide random arguments. sin/cos/tan reduce by pi/2 in three parts (Cody and
// Waite), exact while |x| < 2^20 * pi/2; beyond that they lose accuracy
// (fdlibm's Payne-Hanek reduction is not done here).
#include <spirv/unified1/GLSL.std.450.h>

#include <cmath>

#include "gpu/vulkan/codegen_state.h"

namespace kiln::vk {

using spv::Op;

namespace {

// Arithmetic on f64 SPIR-V values, spelled short.
struct F64 {
  Gen& g;
  SpirvModule& m;
  Id t, bt, i32, u64;
  explicit F64(Gen& gen)
      : g(gen), m(gen.m), t(gen.type(Prim::f64)), bt(gen.m.t_bool()), i32(gen.i32()), u64(gen.u64()) {}
  Id k(double v) { return g.const_float(Prim::f64, v); }
  Id add(Id a, Id b) { return m.op(Op::OpFAdd, t, {a, b}); }
  Id sub(Id a, Id b) { return m.op(Op::OpFSub, t, {a, b}); }
  Id mul(Id a, Id b) { return m.op(Op::OpFMul, t, {a, b}); }
  Id div(Id a, Id b) { return m.op(Op::OpFDiv, t, {a, b}); }
  Id neg(Id a) { return m.op(Op::OpFNegate, t, {a}); }
  Id abs(Id a) { return m.ext(GLSLstd450FAbs, t, {a}); }
  Id lt(Id a, Id b) { return m.op(Op::OpFOrdLessThan, bt, {a, b}); }
  Id gt(Id a, Id b) { return m.op(Op::OpFOrdGreaterThan, bt, {a, b}); }
  Id eq(Id a, Id b) { return m.op(Op::OpFOrdEqual, bt, {a, b}); }
  Id sel(Id c, Id a, Id b) { return m.op(Op::OpSelect, t, {c, a, b}); }
  Id isnan(Id a) { return m.op(Op::OpIsNan, bt, {a}); }
  Id isinf(Id a) { return m.op(Op::OpIsInf, bt, {a}); }
  Id signbit(Id a) {
    Id top = m.op(Op::OpShiftRightLogical, u64, {m.op(Op::OpBitcast, u64, {a}), m.c_bits(u64, 64, 63)});
    return m.op(Op::OpINotEqual, bt, {top, m.c_bits(u64, 64, 0)});
  }
  // c[0] + x * (c[1] + x * (...)), Horner's order
  Id poly(Id x, std::initializer_list<double> c) {
    const double* p = c.end();
    Id r = k(*--p);
    while (p != c.begin()) r = add(k(*--p), mul(x, r));
    return r;
  }
  Id to_int(Id a) { return m.op(Op::OpConvertFToS, i32, {a}); }

  // ---- exp (fdlibm e_exp.c) ----
  Id exp(Id x) {
    Id kf = m.ext(GLSLstd450RoundEven, t, {mul(x, k(1.44269504088896338700e+00))});
    kf = m.ext(GLSLstd450FClamp, t, {kf, k(-2000), k(2000)});
    Id hi = sub(x, mul(kf, k(ln2_hi))), lo = mul(kf, k(ln2_lo));
    Id r = sub(hi, lo), z = mul(r, r);
    Id c = sub(r, mul(z, poly(z, {1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05,
                                  -1.65339022054652515390e-06, 4.13813679705723846039e-08})));
    Id y = sub(k(1), sub(sub(lo, div(mul(r, c), sub(k(2), c))), hi));
    Id res = m.ext(GLSLstd450Ldexp, t, {y, to_int(kf)});
    res = sel(gt(x, k(709.782712893383973096)), k(INFINITY), res);
    res = sel(lt(x, k(-745.13321910194110842)), k(0), res);
    return sel(isnan(x), x, res);
  }

  // ---- log (fdlibm e_log.c): x = 2^k (1 + f), sqrt(2)/2 < 1 + f < sqrt(2),
  // log(1 + f) = f - hfsq + s (hfsq + R) with s = f / (2 + f) ----
  static constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  struct LogParts {
    Id dk, f, hfsq, sr;  // k (as f64), f, f*f/2, s * (hfsq + R)
  };
  LogParts log_parts(Id x) {
    Id u32 = g.u32();
    Id sub_n = lt(x, k(2.2250738585072014e-308));  // subnormal (or not positive: fixed below)
    Id xs = sel(sub_n, mul(x, k(18014398509481984.0)), x);  // * 2^54
    Id kb = m.op(Op::OpSelect, i32, {sub_n, g.const_int(Prim::i32, -54), g.const_int(Prim::i32, 0)});
    Id bits = m.op(Op::OpBitcast, u64, {xs});
    Id hx = m.op(Op::OpUConvert, u32, {m.op(Op::OpShiftRightLogical, u64, {bits, m.c_bits(u64, 64, 32)})});
    Id lx = m.op(Op::OpUConvert, u32, {bits});
    Id ke = m.op(Op::OpISub, i32, {m.op(Op::OpBitcast, i32, {m.op(Op::OpShiftRightLogical, u32, {hx, g.cu32(20)})}),
                                   g.const_int(Prim::i32, 1023)});
    Id hm = m.op(Op::OpBitwiseAnd, u32, {hx, g.cu32(0x000fffff)});
    Id i = m.op(Op::OpBitwiseAnd, u32, {m.op(Op::OpIAdd, u32, {hm, g.cu32(0x95f64)}), g.cu32(0x100000)});
    Id new_hi = m.op(Op::OpBitwiseOr, u32, {hm, m.op(Op::OpBitwiseXor, u32, {i, g.cu32(0x3ff00000)})});
    Id mb = m.op(Op::OpBitwiseOr, u64, {m.op(Op::OpShiftLeftLogical, u64, {m.op(Op::OpUConvert, u64, {new_hi}), m.c_bits(u64, 64, 32)}),
                                        m.op(Op::OpUConvert, u64, {lx})});
    Id ki = m.op(Op::OpIAdd, i32, {m.op(Op::OpIAdd, i32, {ke, kb}),
                                   m.op(Op::OpBitcast, i32, {m.op(Op::OpShiftRightLogical, u32, {i, g.cu32(20)})})});
    Id f = sub(m.op(Op::OpBitcast, t, {mb}), k(1));
    Id s = div(f, add(k(2), f)), z = mul(s, s), w = mul(z, z);
    Id t1 = mul(w, poly(w, {3.999999999940941908e-01, 2.222219843214978396e-01, 1.531383769920937332e-01}));
    Id t2 = mul(z, poly(w, {6.666666666666735130e-01, 2.857142874366239149e-01, 1.818357216161805012e-01,
                            1.479819860511658591e-01}));
    Id hfsq = mul(k(0.5), mul(f, f));
    return {m.op(Op::OpConvertSToF, t, {ki}), f, hfsq, mul(s, add(hfsq, add(t1, t2)))};
  }
  Id log(Id x) {
    LogParts lp = log_parts(x);
    Id res = sub(mul(lp.dk, k(ln2_hi)), sub(sub(lp.hfsq, add(lp.sr, mul(lp.dk, k(ln2_lo)))), lp.f));
    res = sel(eq(x, k(0)), k(-INFINITY), res);
    res = sel(isinf(x), x, res);
    res = sel(lt(x, k(0)), k(NAN), res);  // -inf included
    return sel(isnan(x), x, res);
  }

  // ---- pow of x >= 0 (float_pow adds the signs and special cases): log(x)
  // as a sum of two doubles (fast two-sums over log's terms), times b with
  // Dekker's exact product, then exp(hi) (1 + lo): within 2 ulp ----
  std::pair<Id, Id> split(Id a) {
    Id c = mul(k(134217729.0), a);
    Id h = sub(c, sub(c, a));
    return {h, sub(a, h)};
  }
  Id pow_abs(Id x, Id b) {
    LogParts lp = log_parts(x);
    Id h = sub(lp.f, lp.hfsq);
    Id lo1 = add(sub(sub(lp.f, h), lp.hfsq), lp.sr);
    Id kh = mul(lp.dk, k(ln2_hi));  // exact: ln2_hi has 32 significant bits
    Id big_h = add(kh, h);
    Id llo = add(add(add(sub(kh, big_h), h), lo1), mul(lp.dk, k(ln2_lo)));
    Id lh = add(big_h, llo), ll = sub(llo, sub(lh, big_h));
    Id yh = mul(b, lh);
    auto [bh, bl] = split(b);
    auto [hh, hl] = split(lh);
    Id err = add(add(add(sub(mul(bh, hh), yh), mul(bh, hl)), mul(bl, hh)), mul(bl, hl));
    Id yl = add(err, mul(b, ll));
    yl = sel(lt(abs(yh), k(1e300)), yl, k(0));  // huge or infinite: exp saturates, the splits would not
    Id e = exp(yh);
    Id res = add(e, mul(e, yl));
    res = sel(isinf(e), e, res);
    res = sel(eq(x, k(1)), k(1), res);  // C's pow(1, y) is 1 for any y, NaN included
    return res;
  }

  // ---- sin, cos, tan (fdlibm k_sin.c, k_cos.c; reduction of e_rem_pio2.c) ----
  struct Reduced {
    Id quadrant;  // n mod 4 (i32)
    Id y0, y1;    // x - n pi/2 = y0 + y1
  };
  Reduced reduce(Id x) {
    Id n = m.ext(GLSLstd450RoundEven, t, {mul(x, k(6.36619772367581382433e-01))});
    Id r = sub(x, mul(n, k(1.57079632673412561417e+00)));
    Id tt = r, w = mul(n, k(6.07710050630396597660e-11));
    r = sub(tt, w);
    w = sub(mul(n, k(2.02226624879595063154e-21)), sub(sub(tt, r), w));
    tt = r;
    Id w2 = mul(n, k(2.02226624871116645580e-21));
    r = sub(tt, w2);
    w = sub(mul(n, k(8.47842766036889956997e-32)), sub(sub(tt, r), w2));
    Id y0 = sub(r, w);
    Id y1 = sub(sub(r, y0), w);
    // |n| past i32 (|x| > 3e9): the result is inaccurate there anyway.
    Id ni = to_int(m.ext(GLSLstd450FClamp, t, {n, k(-1073741824.0), k(1073741824.0)}));
    return {m.op(Op::OpBitwiseAnd, i32, {ni, g.const_int(Prim::i32, 3)}), y0, y1};
  }
  Id ksin(Id x, Id y) {
    Id z = mul(x, x), v = mul(z, x);
    Id r = poly(z, {8.33333333332248946124e-03, -1.98412698298579493134e-04, 2.75573137070700676789e-06,
                    -2.50507602534068634195e-08, 1.58969099521155010221e-10});
    return sub(x, sub(sub(mul(z, sub(mul(k(0.5), y), mul(v, r))), y), mul(v, k(-1.66666666666666324348e-01))));
  }
  Id kcos(Id x, Id y) {
    Id z = mul(x, x);
    Id r = mul(z, poly(z, {4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05,
                           -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11}));
    Id hz = mul(k(0.5), z), w = sub(k(1), hz);
    return add(w, add(sub(sub(k(1), w), hz), sub(mul(z, r), mul(x, y))));
  }
  Id is_q(const Reduced& rd, int q) { return m.op(Op::OpIEqual, bt, {rd.quadrant, g.const_int(Prim::i32, q)}); }
  // sin (which = 0), cos (1) or tan (2) of x
  Id trig(Id x, int which) {
    Reduced rd = reduce(x);
    Id s = ksin(rd.y0, rd.y1), c = kcos(rd.y0, rd.y1);
    Id res;
    if (which == 2) {
      Id odd = m.op(Op::OpINotEqual, bt, {m.op(Op::OpBitwiseAnd, i32, {rd.quadrant, g.const_int(Prim::i32, 1)}),
                                          g.const_int(Prim::i32, 0)});
      res = sel(odd, neg(div(c, s)), div(s, c));
    } else {
      // sin: S, C, -S, -C by quadrant; cos: C, -S, -C, S
      Id a = which == 0 ? s : c, b = which == 0 ? c : neg(s);
      res = sel(is_q(rd, 0), a, sel(is_q(rd, 1), b, sel(is_q(rd, 2), neg(a), neg(b))));
    }
    res = sel(eq(x, k(0)), which == 1 ? k(1) : x, res);  // keeps -0's sign: -0 - n * pi/2 would be +0
    return sel(m.op(Op::OpLogicalOr, bt, {isnan(x), isinf(x)}), k(NAN), res);
  }

  // ---- atan (fdlibm s_atan.c) ----
  Id atan(Id x) {
    Id xa = abs(x);
    Id c0 = lt(xa, k(0.4375)), c1 = lt(xa, k(0.6875)), c2 = lt(xa, k(1.1875)), c3 = lt(xa, k(2.4375));
    Id xr = sel(c0, xa,
                sel(c1, div(sub(mul(k(2), xa), k(1)), add(k(2), xa)),
                    sel(c2, div(sub(xa, k(1)), add(xa, k(1))),
                        sel(c3, div(sub(xa, k(1.5)), add(k(1), mul(k(1.5), xa))), div(k(-1), xa)))));
    Id hi = sel(c1, k(4.63647609000806093515e-01),
                sel(c2, k(7.85398163397448278999e-01), sel(c3, k(9.82793723247329054082e-01), k(1.57079632679489655800e+00))));
    Id lo = sel(c1, k(2.26987774529616870924e-17),
                sel(c2, k(3.06161699786838301793e-17), sel(c3, k(1.39033110312309984516e-17), k(6.12323399573676603587e-17))));
    Id z = mul(xr, xr), w = mul(z, z);
    Id s1 = mul(z, poly(w, {3.33333333333329318027e-01, 1.42857142725034663711e-01, 9.09088713343650656196e-02,
                            6.66107313738753120669e-02, 4.97687799461593236017e-02, 1.62858201153657823623e-02}));
    Id s2 = mul(w, poly(w, {-1.99999999998764832476e-01, -1.11111104054623557880e-01, -7.69187620504482999495e-02,
                            -5.83357013379057348645e-02, -3.65315727442169155270e-02}));
    Id ss = add(s1, s2);
    Id res = sel(c0, sub(xr, mul(xr, ss)), sub(hi, sub(sub(mul(xr, ss), lo), xr)));
    return sel(signbit(x), neg(res), res);
  }

  // ---- atan2 (the cases of fdlibm e_atan2.c around atan(|y / x|)) ----
  Id atan2(Id y, Id x) {
    const double pi = 3.1415926535897931160e+00, pi_lo = 1.2246467991473531772e-16;
    const double pio2 = 1.5707963267948965580e+00, pio4 = 7.8539816339744827900e-01;
    Id a = atan(abs(div(y, x)));
    Id x_neg = lt(x, k(0));
    Id r = sel(x_neg, sub(k(pi), sub(a, k(pi_lo))), a);
    r = sel(eq(x, k(0)), k(pio2), r);
    r = sel(isinf(y), k(pio2), r);
    r = sel(isinf(x), sel(isinf(y), sel(x_neg, k(3 * pio4), k(pio4)), sel(x_neg, k(pi), k(0))), r);
    r = sel(eq(y, k(0)), sel(signbit(x), k(pi), k(0)), r);
    r = sel(signbit(y), neg(r), r);
    return sel(m.op(Op::OpLogicalOr, bt, {isnan(x), isnan(y)}), add(x, y), r);
  }

  // ---- tanh: its Taylor series below 0.55, 1 - 2 / (e^2|x| + 1) above ----
  Id tanh(Id x) {
    Id xa = abs(x), z = mul(x, x);
    Id p = poly(z, {-0.33333333333333331, 0.13333333333333333, -0.053968253968253971, 0.021869488536155203,
                    -0.0088632355299021973, 0.0035921280365724811, -0.0014558343870513183, 0.00059002744094558595,
                    -0.00023912911424355248, 9.6915379569294509e-05, -3.9278323883316833e-05, 1.5918905069328964e-05,
                    -6.4516892156554306e-06, 2.6147711512907546e-06, -1.0597268320104654e-06, 4.2949110782738057e-07,
                    -1.7406618963571648e-07, 7.0546369464009681e-08, -2.859136662305254e-08, 1.1587644432798853e-08,
                    -4.6962953982309016e-09, 1.9033368339312759e-09});
    Id small = add(x, mul(mul(x, z), p));
    Id big = sub(k(1), div(k(2), add(exp(mul(k(2), xa)), k(1))));
    big = sel(lt(xa, k(22)), big, k(1));
    big = sel(signbit(x), neg(big), big);
    Id res = sel(lt(xa, k(0.55)), small, big);
    return sel(m.op(Op::OpLogicalOr, bt, {eq(x, k(0)), isnan(x)}), x, res);  // -0 stays -0, NaN NaN
  }
};

}  // namespace

Id Gen::f64_math(ir::UnaryOp op, Id a, const ir::Stmt& s) {
  if (!caps.int64) unsupported(s, std::string(ir::unary_op_name(op)) + " of f64 on a device without 64-bit integers");
  m.capability(spv::Capability::Int64);
  F64 f(*this);
  switch (op) {
    case ir::UnaryOp::exp: return f.exp(a);
    case ir::UnaryOp::log: return f.log(a);
    case ir::UnaryOp::sin: return f.trig(a, 0);
    case ir::UnaryOp::cos: return f.trig(a, 1);
    case ir::UnaryOp::tan: return f.trig(a, 2);
    case ir::UnaryOp::atan: return f.atan(a);
    case ir::UnaryOp::tanh: return f.tanh(a);
    case ir::UnaryOp::asin: {
      Id c = m.ext(GLSLstd450Sqrt, f.t, {f.mul(f.sub(f.k(1), a), f.add(f.k(1), a))});
      return f.atan2(a, c);
    }
    case ir::UnaryOp::acos: {
      Id c = m.ext(GLSLstd450Sqrt, f.t, {f.mul(f.sub(f.k(1), a), f.add(f.k(1), a))});
      return f.atan2(c, a);
    }
    default: unsupported(s, std::string(ir::unary_op_name(op)) + " of f64");
  }
}

Id Gen::f64_pow_abs(Id x, Id b, const ir::Stmt& s) {
  if (!caps.int64) unsupported(s, "pow of f64 on a device without 64-bit integers");
  m.capability(spv::Capability::Int64);
  return F64(*this).pow_abs(x, b);
}

Id Gen::f64_atan2(Id y, Id x, const ir::Stmt& s) {
  if (!caps.int64) unsupported(s, "atan2 of f64 on a device without 64-bit integers");
  m.capability(spv::Capability::Int64);
  return F64(*this).atan2(y, x);
}

}  // namespace kiln::vk
