// f16 and bf16 in the LLVM lowering, as the bytecode has them (vm/bytecode/
// opcodes.h): a value lives in an f32 register that holds it exactly,
// arithmetic computes in f32 and rounds to the 16-bit format after every
// operation (f32 carries more than 2p+2 bits of either format, so that
// double rounding equals one rounding of the exact result), and memory holds
// the 16-bit pattern. Conversions into a 16-bit format round once, as
// vm/types/value.cpp's cast_const does: from f64 through a round-to-odd f32,
// from 64-bit integers through a sticky double.
//
// f16 uses LLVM's half (x86's F16C vcvtps2ph/vcvtph2ps, PTX's cvt.rn.f16):
// round to nearest even, NaN kept quiet with its top payload bits, as
// f32_to_f16_bits. bf16 is integer arithmetic on the f32 pattern, exactly
// f32_to_bf16_bits (no instruction rounds bf16 the same on every machine:
// AVX512-BF16 flushes subnormal inputs).
#include <llvm/IR/Intrinsics.h>

#include "jit/llvm/lower_state.h"

namespace kiln::llvmjit {

using llvm::Value;

bool is_half(Prim p) { return p == Prim::f16 || p == Prim::bf16; }

Value* Gen::half_encode(Value* f, Prim p) {
  if (p == Prim::f16) return B.CreateBitCast(B.CreateFPTrunc(f, B.getHalfTy()), B.getInt16Ty());
  Value* x = B.CreateBitCast(f, B.getInt32Ty());
  Value* nan = B.CreateICmpUGT(B.CreateAnd(x, B.getInt32(0x7fffffff)), B.getInt32(0x7f800000));
  Value* quiet = B.CreateOr(B.CreateLShr(x, 16), B.getInt32(0x0040));
  // Adding 0x7fff plus the lowest kept bit rounds to nearest even; a carry
  // into the exponent is the next binade, past the top it is inf.
  Value* lsb = B.CreateAnd(B.CreateLShr(x, 16), B.getInt32(1));
  Value* rounded = B.CreateLShr(B.CreateAdd(x, B.CreateAdd(lsb, B.getInt32(0x7fff))), 16);
  return B.CreateTrunc(B.CreateSelect(nan, quiet, rounded), B.getInt16Ty());
}

Value* Gen::half_decode(Value* bits, Prim p) {
  if (p == Prim::f16) return B.CreateFPExt(B.CreateBitCast(bits, B.getHalfTy()), B.getFloatTy());
  return B.CreateBitCast(B.CreateShl(B.CreateZExt(bits, B.getInt32Ty()), 16), B.getFloatTy());
}

Value* Gen::half_round(Value* f, Prim p) { return half_decode(half_encode(f, p), p); }

// d as an f32 rounded to odd: truncated toward zero, the last bit set when
// anything was dropped. Rounding that to a format of fewer than 23 bits
// gives the one rounding of d.
Value* Gen::f64_to_f32_odd(Value* d) {
  Value* t = B.CreateFPTrunc(d, B.getFloatTy());  // to nearest
  Value* back = B.CreateFPExt(t, B.getDoubleTy());
  Value* bits = B.CreateBitCast(t, B.getInt32Ty());
  Value* inexact = B.CreateFCmpONE(back, d);  // false for NaN and when exact
  // Rounded away from zero: step the magnitude (the pattern, sign aside)
  // back by one; an inf from a finite d becomes the largest finite f32.
  Value* away = B.CreateFCmpOGT(B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, back),
                                B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, d));
  Value* toward0 = B.CreateSelect(away, B.CreateSub(bits, B.getInt32(1)), bits);
  Value* odd = B.CreateSelect(inexact, B.CreateOr(toward0, B.getInt32(1)), bits);
  return B.CreateBitCast(odd, B.getFloatTy());
}

Value* Gen::half_from_f64(Value* d, Prim p) { return half_round(f64_to_f32_odd(d), p); }

// A 64-bit integer magnitude as a double that rounds like the integer: above
// 2^53 the dropped bits fold into a sticky last bit (value.cpp's sticky_double).
Value* Gen::half_from_int(Value* v, Prim from, Prim p) {
  if (prim_bits(from) < 64) {
    Value* w = prim_is_signed(from) ? B.CreateSExt(v, B.getInt64Ty()) : B.CreateZExt(v, B.getInt64Ty());
    return half_from_f64(B.CreateSIToFP(w, B.getDoubleTy()), p);  // exact
  }
  bool sg = prim_is_signed(from);
  Value* neg = sg ? B.CreateICmpSLT(v, B.getInt64(0)) : B.getFalse();
  Value* mag = B.CreateSelect(neg, B.CreateNeg(v), v);  // |INT64_MIN| as unsigned
  Value* width = B.CreateSub(B.getInt64(64), B.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, mag, B.getFalse()));
  Value* shift = B.CreateSelect(B.CreateICmpUGT(width, B.getInt64(53)), B.CreateSub(width, B.getInt64(53)), B.getInt64(0));
  Value* dropped = B.CreateAnd(mag, B.CreateSub(B.CreateShl(B.getInt64(1), shift), B.getInt64(1)));
  Value* kept = B.CreateOr(B.CreateLShr(mag, shift), B.CreateZExt(B.CreateICmpNE(dropped, B.getInt64(0)), B.getInt64Ty()));
  // kept < 2^53: exact as a double; times 2^shift (an exact power of two).
  Value* scale = B.CreateBitCast(B.CreateShl(B.CreateAdd(shift, B.getInt64(1023)), 52), B.getDoubleTy());
  Value* d = B.CreateFMul(B.CreateUIToFP(kept, B.getDoubleTy()), scale);
  return half_from_f64(B.CreateSelect(neg, B.CreateFNeg(d), d), p);
}

}  // namespace kiln::llvmjit
