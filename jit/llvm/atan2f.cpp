// glibc's atan2f in LLVM IR (fdlibm's e_atan2f.c and s_atanf.c in single
// precision; the constants are vm/support/fdlibm_atanf.h's, shared with the
// Vulkan backend's SPIR-V copy, gpu/vulkan/codegen_f32math.cpp). Branch free:
// every case is computed and the special ones selected over the general one,
// in the order that gives e_atan2f.c's precedence (the last select wins), so
// a warp never diverges on it. Each + - * / is its own instruction without
// fast-math flags: the NVPTX target (AllowFPOpFusion::Strict) prints them
// .rn, which ptxas does not fuse into FMAs. Checked bit for bit against glibc
// on the host (tests/unit/cuda_atan2f.cpp).
#include "jit/llvm/atan2f.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "vm/support/fdlibm_atanf.h"

namespace kiln::llvmjit {

namespace fd = kiln::fdlibm_atanf;
using llvm::Value;

namespace {

// f32 arithmetic spelled short.
struct F32 {
  llvm::IRBuilder<>& B;
  llvm::Type* t;
  llvm::Type* i32;
  explicit F32(llvm::IRBuilder<>& b) : B(b), t(b.getFloatTy()), i32(b.getInt32Ty()) {}
  Value* k(double v) { return llvm::ConstantFP::get(t, (double)(float)v); }
  Value* add(Value* a, Value* b) { return B.CreateFAdd(a, b); }
  Value* sub(Value* a, Value* b) { return B.CreateFSub(a, b); }
  Value* mul(Value* a, Value* b) { return B.CreateFMul(a, b); }
  Value* div(Value* a, Value* b) { return B.CreateFDiv(a, b); }
  Value* neg(Value* a) { return B.CreateFNeg(a); }
  Value* abs(Value* a) { return B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a); }
  Value* sel(Value* c, Value* a, Value* b) { return B.CreateSelect(c, a, b); }
  Value* bits(Value* a) { return B.CreateBitCast(a, i32); }
  Value* magnitude(Value* a) { return B.CreateAnd(bits(a), B.getInt32(0x7fffffffu)); }
  Value* negative(Value* a) { return B.CreateICmpSLT(bits(a), B.getInt32(0)); }
  Value* ult(Value* a, uint32_t b) { return B.CreateICmpULT(a, B.getInt32(b)); }
  Value* ugt(Value* a, uint32_t b) { return B.CreateICmpUGT(a, B.getInt32(b)); }
  Value* ueq(Value* a, uint32_t b) { return B.CreateICmpEQ(a, B.getInt32(b)); }

  // c[0] + w * (c[1] + w * (... + w * c[n - 1]))
  template <size_t N>
  Value* horner(const double (&c)[N], Value* w) {
    Value* r = k(c[N - 1]);
    for (size_t i = N - 1; i-- > 0;) r = add(k(c[i]), mul(w, r));
    return r;
  }

  // atan(x) (NaN: x + x), s_atanf.c.
  Value* atan(Value* x) {
    Value* ix = magnitude(x);
    Value* xa = abs(x);
    Value* r0 = ult(ix, fd::kBound[0]);
    Value* r1 = ult(ix, fd::kBound[1]);
    Value* r2 = ult(ix, fd::kBound[2]);
    Value* xr = sel(r0, div(sub(mul(k(2), xa), k(1)), add(k(2), xa)),
                    sel(r1, div(sub(xa, k(1)), add(xa, k(1))),
                        sel(r2, div(sub(xa, k(1.5)), add(k(1), mul(k(1.5), xa))), div(k(-1), xa))));
    Value* small = ult(ix, fd::kNoReduction);
    xr = sel(small, x, xr);
    // The reduction point's atan, hi (rounded to f32) and lo (the rest).
    auto pick = [&](bool lo) {
      Value* v[4];
      for (int i = 0; i < 4; i++) {
        double h = (double)(float)fd::kAtanAt[i];
        v[i] = k(lo ? fd::kAtanAt[i] - h : h);
      }
      return sel(r0, v[0], sel(r1, v[1], sel(r2, v[2], v[3])));
    };
    Value* hi = pick(false);
    Value* lo = pick(true);
    Value* z = mul(xr, xr);
    Value* w = mul(z, z);
    Value* ss = add(mul(z, horner(fd::kOdd, w)), mul(w, horner(fd::kEven, w)));
    Value* reduced = sub(hi, sub(sub(mul(xr, ss), lo), xr));
    reduced = sel(negative(x), neg(reduced), reduced);
    Value* res = sel(small, sub(xr, mul(xr, ss)), reduced);
    res = sel(ult(ix, fd::kTiny), x, res);
    double pio2 = fd::kAtanAt[3];
    Value* big = add(k(pio2), k(pio2 - (double)(float)pio2));
    res = sel(ult(ix, fd::kHuge), res, sel(negative(x), neg(big), big));
    return sel(ugt(ix, 0x7f800000u), add(x, x), res);
  }

  // atan2(y, x), e_atan2f.c.
  Value* atan2(Value* y, Value* x) {
    Value* ix = magnitude(x);
    Value* iy = magnitude(y);
    Value* xn = negative(x);
    Value* yn = negative(y);
    // The general case: atan(|y / x|) placed in the quadrant.
    Value* k23 = B.CreateAShr(B.CreateSub(iy, ix), B.getInt32(23));
    Value* far = B.CreateICmpSGT(k23, B.getInt32(fd::kFarExponent));
    Value* near = B.CreateAnd(xn, B.CreateICmpSLT(k23, B.getInt32((uint32_t)-fd::kFarExponent)));
    Value* z = atan(abs(div(y, x)));
    z = sel(far, add(k(fd::kPio2), mul(k(0.5), k(fd::kPiLo))), sel(near, k(0), z));
    Value* pi = k(fd::kPi);
    Value* pi_lo = k(fd::kPiLo);
    Value* r = sel(xn, sel(yn, sub(sub(z, pi_lo), pi), sub(pi, sub(z, pi_lo))), sel(yn, neg(z), z));
    // y infinite (x finite): +-pi/2
    Value* half = sel(yn, neg(k(fd::kPio2)), k(fd::kPio2));
    r = sel(ueq(iy, 0x7f800000u), half, r);
    // x infinite: +-pi/4, +-3pi/4 (y infinite too), +-0, +-pi
    Value* xinf_yinf = sel(xn, k(3 * fd::kPio4), k(fd::kPio4));
    Value* xinf_y = sel(xn, pi, k(0));
    Value* xinf = sel(ueq(iy, 0x7f800000u), xinf_yinf, xinf_y);
    r = sel(ueq(ix, 0x7f800000u), sel(yn, neg(xinf), xinf), r);
    // x zero (y not): +-pi/2; y zero: +-0 (x positive), +-pi (x negative)
    r = sel(ueq(ix, 0), half, r);
    r = sel(ueq(iy, 0), sel(xn, sel(yn, neg(pi), pi), y), r);
    // (e_atan2f.c returns atan(y) for x == 1.0, to save the division: the
    // general case gives the same bits there, atan being exactly odd, so one
    // atan is computed, not two.)
    return sel(B.CreateOr(ugt(ix, 0x7f800000u), ugt(iy, 0x7f800000u)), add(x, y), r);
  }
};

}  // namespace

llvm::Function* atan2f_function(llvm::Module& M) {
  const char* name = "kiln_atan2f";
  if (llvm::Function* f = M.getFunction(name)) return f;
  llvm::LLVMContext& C = M.getContext();
  llvm::Type* t = llvm::Type::getFloatTy(C);
  auto* f = llvm::Function::Create(llvm::FunctionType::get(t, {t, t}, false), llvm::Function::InternalLinkage, name, M);
  f->setDoesNotThrow();
  f->setDoesNotAccessMemory();
  f->setWillReturn();
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(C, "entry", f));
  B.CreateRet(F32(B).atan2(f->getArg(0), f->getArg(1)));
  return f;
}

}  // namespace kiln::llvmjit
