// f32 atan2 with the C library's bits. GLSL.std.450's Atan2 is only
// approximate (lavapipe's atan2(1, 1) is 3e-6 off pi/4), and the CPU engines
// call glibc's atan2f, which is not correctly rounded either (a fifth of its
// results differ from the rounded exact value), so the device repeats its
// algorithm, fdlibm's in single precision: the special cases of e_atan2f.c
// around atan(|y / x|), which reduces |x| to one of five ranges and sums an
// odd and an even minimax polynomial. The constants are fdlibm's double ones
// rounded to f32 (atan's hi/lo pairs split in f32), vm/support/fdlibm_atanf.h's,
// which the NVPTX lowering's copy shares (jit/llvm/atan2f.cpp). Every + - * / is
// decorated NoContraction by the builder, so no step is fused. Checked
// against glibc 2.36's atan2f on 2 * 10^7 random and clustered arguments:
// the same bits for all of them.
#include <spirv/unified1/GLSL.std.450.h>

#include <iterator>

#include "gpu/vulkan/codegen_state.h"
#include "vm/support/fdlibm_atanf.h"

namespace kiln::vk {

using spv::Op;
namespace fd = kiln::fdlibm_atanf;

namespace {

struct F32 {
  Gen& g;
  SpirvModule& m;
  Id t, bt, u32;
  explicit F32(Gen& gen) : g(gen), m(gen.m), t(gen.type(Prim::f32)), bt(gen.m.t_bool()), u32(gen.u32()) {}
  Id k(double v) { return g.const_float(Prim::f32, (double)(float)v); }
  Id add(Id a, Id b) { return m.op(Op::OpFAdd, t, {a, b}); }
  Id sub(Id a, Id b) { return m.op(Op::OpFSub, t, {a, b}); }
  Id mul(Id a, Id b) { return m.op(Op::OpFMul, t, {a, b}); }
  Id div(Id a, Id b) { return m.op(Op::OpFDiv, t, {a, b}); }
  Id neg(Id a) { return m.op(Op::OpFNegate, t, {a}); }
  Id sel(Id c, Id a, Id b) { return m.op(Op::OpSelect, t, {c, a, b}); }
  Id bits(Id a) { return m.op(Op::OpBitcast, u32, {a}); }
  Id ult(Id a, uint32_t b) { return m.op(Op::OpULessThan, bt, {a, g.cu32(b)}); }
  Id ueq(Id a, uint32_t b) { return m.op(Op::OpIEqual, bt, {a, g.cu32(b)}); }
  Id ugt(Id a, uint32_t b) { return m.op(Op::OpUGreaterThan, bt, {a, g.cu32(b)}); }
  Id magnitude(Id a) { return m.op(Op::OpBitwiseAnd, u32, {bits(a), g.cu32(0x7fffffffu)}); }
  Id negative(Id a) { return m.op(Op::OpINotEqual, bt, {m.op(Op::OpBitwiseAnd, u32, {bits(a), g.cu32(0x80000000u)}), g.cu32(0)}); }
  Id any(Id a, Id b) { return m.op(Op::OpLogicalOr, bt, {a, b}); }
  Id both(Id a, Id b) { return m.op(Op::OpLogicalAnd, bt, {a, b}); }

  // atan(x) for finite or infinite x (NaN: x + x).
  Id atan(Id x) {
    const double* hi_d = fd::kAtanAt;
    Id ix = magnitude(x);
    Id xa = m.ext(GLSLstd450FAbs, t, {x});
    Id r0 = ult(ix, fd::kBound[0]), r1 = ult(ix, fd::kBound[1]), r2 = ult(ix, fd::kBound[2]);  // 11/16, 19/16, 39/16
    Id xr = sel(r0, div(sub(mul(k(2), xa), k(1)), add(k(2), xa)),
                sel(r1, div(sub(xa, k(1)), add(xa, k(1))), sel(r2, div(sub(xa, k(1.5)), add(k(1), mul(k(1.5), xa))), div(k(-1), xa))));
    Id small = ult(ix, fd::kNoReduction);  // |x| < 7/16: no reduction
    xr = sel(small, x, xr);
    auto pick = [&](bool lo) {
      Id v[4];
      for (int i = 0; i < 4; i++) {
        float h = (float)hi_d[i];
        v[i] = k(lo ? (double)(float)(hi_d[i] - (double)h) : (double)h);
      }
      return sel(r0, v[0], sel(r1, v[1], sel(r2, v[2], v[3])));
    };
    Id hi = pick(false), lo = pick(true);
    Id z = mul(xr, xr), w = mul(z, z);
    auto horner = [&](const auto& c) {  // c[0] + w * (c[1] + w * (...))
      const double* p = std::end(c);
      Id r = k(*--p);
      while (p != std::begin(c)) r = add(k(*--p), mul(w, r));
      return r;
    };
    Id s1 = mul(z, horner(fd::kOdd));
    Id s2 = mul(w, horner(fd::kEven));
    Id ss = add(s1, s2);
    Id reduced = sub(hi, sub(sub(mul(xr, ss), lo), xr));
    reduced = sel(negative(x), neg(reduced), reduced);
    Id res = sel(small, sub(xr, mul(xr, ss)), reduced);
    res = sel(ult(ix, fd::kTiny), x, res);  // |x| < 2^-29: x itself
    Id big = add(k(hi_d[3]), k(hi_d[3] - (double)(float)hi_d[3]));  // |x| >= 2^25: +-pi/2
    res = sel(ult(ix, fd::kHuge), res, sel(negative(x), neg(big), big));
    return sel(ugt(ix, 0x7f800000), add(x, x), res);
  }

  Id atan2(Id y, Id x) {
    const double pi = fd::kPi, pi_lo = fd::kPiLo, pio2 = fd::kPio2, pio4 = fd::kPio4;
    Id ix = magnitude(x), iy = magnitude(y);
    Id xn = negative(x), yn = negative(y);
    // The general case: atan(|y / x|) placed in the quadrant.
    Id k23 = m.op(Op::OpShiftRightArithmetic, g.i32(), {m.op(Op::OpISub, g.i32(), {m.op(Op::OpBitcast, g.i32(), {iy}),
                                                                                 m.op(Op::OpBitcast, g.i32(), {ix})}),
                                                          g.cu32(23)});
    Id far = m.op(Op::OpSGreaterThan, bt, {k23, m.op(Op::OpBitcast, g.i32(), {g.cu32(fd::kFarExponent)})});
    Id near = both(xn, m.op(Op::OpSLessThan, bt, {k23, m.op(Op::OpBitcast, g.i32(), {g.cu32((uint32_t)-fd::kFarExponent)})}));
    Id z = atan(m.ext(GLSLstd450FAbs, t, {div(y, x)}));
    z = sel(far, add(k(pio2), mul(k(0.5), k(pi_lo))), sel(near, k(0), z));
    Id r = sel(xn, sel(yn, sub(sub(z, k(pi_lo)), k(pi)), sub(k(pi), sub(z, k(pi_lo)))), sel(yn, neg(z), z));
    // y infinite (x finite): +-pi/2
    Id half = sel(yn, neg(k(pio2)), k(pio2));
    r = sel(ueq(iy, 0x7f800000), half, r);
    // x infinite
    Id xinf_yinf = sel(xn, k(3 * (float)pio4), k(pio4));
    Id xinf_y = sel(xn, k(pi), k(0));
    Id xinf = sel(ueq(iy, 0x7f800000), xinf_yinf, xinf_y);
    r = sel(ueq(ix, 0x7f800000), sel(yn, neg(xinf), xinf), r);
    // x zero (y not): +-pi/2; y zero: +-0 (x positive), +-pi (x negative)
    r = sel(ueq(ix, 0), half, r);
    Id yzero = sel(xn, sel(yn, neg(k(pi)), k(pi)), y);
    r = sel(ueq(iy, 0), yzero, r);
    r = sel(ueq(bits(x), 0x3f800000), atan(y), r);  // x == 1.0
    return sel(any(ugt(ix, 0x7f800000), ugt(iy, 0x7f800000)), add(x, y), r);
  }
};

}  // namespace

Id Gen::f32_atan2(Id y, Id x) { return F32(*this).atan2(y, x); }

}  // namespace kiln::vk
