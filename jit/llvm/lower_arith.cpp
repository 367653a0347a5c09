// Scalar arithmetic in LLVM IR with the interpreter's semantics (vm/interp/
// interp_ops.h): wrapping ints, C division with x / -1 and x % -1 defined,
// Python floordiv/mod, shifts by counts past the width, IEEE
// maximumNumber/minimumNumber, saturating float->int casts. No fast-math
// flags anywhere: LLVM then neither reassociates nor contracts. Library math
// goes through the runtime's own wrappers of the functions the interpreter
// calls, which LLVM does not recognise and so cannot fold differently.
#include <cmath>

#include <llvm/IR/Intrinsics.h>

#include "jit/llvm/atan2f.h"
#include "jit/llvm/lower_state.h"
#include "vm/types/value.h"

namespace kiln::llvmjit {

using ir::BinaryOp;
using ir::UnaryOp;
using llvm::Value;

static bool is_signed(Prim p) { return prim_is_int(p) && prim_is_signed(p); }

llvm::Type* Gen::type(Prim p, const ir::Stmt* where) {
  switch (p) {
    case Prim::i8: case Prim::u8: return B.getInt8Ty();
    case Prim::i16: case Prim::u16: return B.getInt16Ty();
    case Prim::i32: case Prim::u32: return B.getInt32Ty();
    case Prim::i64: case Prim::u64: return B.getInt64Ty();
    case Prim::f32: case Prim::f16: case Prim::bf16: return B.getFloatTy();  // f16/bf16: lower_half.cpp
    case Prim::f64: return B.getDoubleTy();
    default: break;
  }
  if (where) unsupported(*where, std::string("values of type ") + std::string(prim_name(p)));
  throw Unsupported{std::string("values of type ") + std::string(prim_name(p))};
}

Value* Gen::const_int(Prim p, int64_t v) { return llvm::ConstantInt::get(type(p, nullptr), (uint64_t)v, is_signed(p)); }

Value* Gen::const_float(Prim p, double v) {
  if (is_half(p)) v = p == Prim::f16 ? round_to_f16(v) : round_to_bf16(v);
  return llvm::ConstantFP::get(type(p, nullptr), p == Prim::f64 ? v : (double)(float)v);
}

Value* Gen::constant(Prim p, const ir::Const& c) { return prim_is_float(p) ? const_float(p, c.f) : const_int(p, c.i); }

Value* Gen::to_bool(Value* v, Prim p) {
  if (prim_is_float(p)) return B.CreateFCmpUNE(v, const_float(p, 0));
  return B.CreateICmpNE(v, const_int(p, 0));
}

Value* Gen::from_bool(Value* b, Prim p) {
  if (prim_is_float(p)) return B.CreateSelect(b, const_float(p, 1), const_float(p, 0));
  return B.CreateZExt(b, type(p, nullptr));
}

Value* Gen::to_reg(Value* v, Prim p) {
  if (p == Prim::f64) return B.CreateBitCast(v, B.getInt64Ty());
  if (p == Prim::f32 || is_half(p)) return B.CreateZExt(B.CreateBitCast(v, B.getInt32Ty()), B.getInt64Ty());
  if (prim_bits(p) == 64) return v;
  return is_signed(p) ? B.CreateSExt(v, B.getInt64Ty()) : B.CreateZExt(v, B.getInt64Ty());
}

Value* Gen::from_reg(Value* r, Prim p, const ir::Stmt& s) {
  llvm::Type* t = type(p, &s);
  if (p == Prim::f64) return B.CreateBitCast(r, t);
  if (p == Prim::f32 || is_half(p)) return B.CreateBitCast(B.CreateTrunc(r, B.getInt32Ty()), t);
  if (prim_bits(p) == 64) return r;
  return B.CreateTrunc(r, t);
}

Value* Gen::cast(Value* v, Prim from, Prim to, const ir::Stmt& s) {
  llvm::Type* t = type(to, &s);
  type(from, &s);
  if (from == to) return v;
  if (is_half(to)) {  // one rounding from any source (cast_const)
    if (from == Prim::f64) return half_from_f64(v, to);
    if (!prim_is_float(from)) return half_from_int(v, from, to);
    return half_round(v, to);  // an f32, or the other 16-bit format's exact f32
  }
  if (is_half(from)) {  // its f32 register holds the value exactly
    if (to == Prim::f32) return v;
    from = Prim::f32;
  }
  bool ff = prim_is_float(from), tf = prim_is_float(to);
  if (ff && tf) return prim_bits(to) > prim_bits(from) ? B.CreateFPExt(v, t) : B.CreateFPTrunc(v, t);
  if (!ff && tf) return is_signed(from) ? B.CreateSIToFP(v, t) : B.CreateUIToFP(v, t);
  if (!ff && !tf) {
    int fb = prim_bits(from), tb = prim_bits(to);
    if (fb == tb) return v;
    if (tb < fb) return B.CreateTrunc(v, t);
    return is_signed(from) ? B.CreateSExt(v, t) : B.CreateZExt(v, t);
  }
  // float -> int: truncate toward zero, NaN -> 0, saturate at the target's
  // limits: exactly what the saturating conversion intrinsics define.
  auto id = is_signed(to) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
  return B.CreateIntrinsic(id, {t, v->getType()}, {v});
}

Value* Gen::libm(const char* name, Prim p, std::vector<Value*> args, const ir::Stmt& s) {
  if (is_half(p)) p = Prim::f32;  // computed in f32; the statement's result is rounded (Gen::stmt)
  if (p != Prim::f32 && p != Prim::f64) unsupported(s, std::string(name) + " of " + std::string(prim_name(p)));
  llvm::Type* t = type(p, &s);
  // The CPU calls the interpreter's own functions (engine.cpp); the GPU
  // libdevice's (linked by gpu/cuda/ptx.cpp).
  std::string fn = std::string(gpu ? "__nv_" : "kiln_llvm_") + name + (p == Prim::f32 ? "f" : "");
  std::vector<llvm::Type*> params(args.size(), t);
  llvm::FunctionCallee callee = M.getOrInsertFunction(fn, llvm::FunctionType::get(t, params, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->setDoesNotThrow();
    f->setDoesNotAccessMemory();  // pure: LLVM may hoist or drop it, never change its value
    f->setWillReturn();
  }
  return B.CreateCall(callee, args);
}

// IEEE maximumNumber / minimumNumber (interp_ops.h maxmin): a NaN operand is
// ignored, -0 < +0.
Value* Gen::maxmin(Value* a, Value* b, bool is_max) {
  Value* nan_a = B.CreateFCmpUNO(a, a);
  Value* nan_b = B.CreateFCmpUNO(b, b);
  llvm::Type* it = B.getIntNTy(a->getType()->getPrimitiveSizeInBits());  // f16/bf16 live in f32
  Value* sign_a = B.CreateICmpSLT(B.CreateBitCast(a, it), llvm::ConstantInt::get(it, 0));
  Value* on_eq = is_max ? B.CreateSelect(sign_a, b, a) : B.CreateSelect(sign_a, a, b);
  Value* gt = B.CreateFCmpOGT(a, b);
  Value* ordered = is_max ? B.CreateSelect(gt, a, b) : B.CreateSelect(gt, b, a);
  Value* r = B.CreateSelect(B.CreateFCmpOEQ(a, b), on_eq, ordered);
  r = B.CreateSelect(nan_b, a, r);
  return B.CreateSelect(nan_a, B.CreateSelect(nan_b, a, b), r);
}

// Integer power by squaring, wrapping; a negative exponent is C's truncated
// 1 / a**-e (1 for a == 1, +-1 for a == -1, 0 otherwise, an error for a == 0).
Value* Gen::int_pow(Prim p, Value* a, Value* b, const ir::Stmt& s) {
  llvm::Type* t = type(p, &s);
  llvm::BasicBlock* pre = B.GetInsertBlock();
  llvm::BasicBlock* head = new_block("pow.head");
  llvm::BasicBlock* body = new_block("pow.body");
  llvm::BasicBlock* done = new_block("pow.done");
  B.CreateBr(head);
  B.SetInsertPoint(head);
  llvm::PHINode* r = B.CreatePHI(t, 2), *base = B.CreatePHI(t, 2), *e = B.CreatePHI(t, 2);
  B.CreateCondBr(B.CreateICmpNE(e, const_int(p, 0)), body, done);
  B.SetInsertPoint(body);
  Value* odd = B.CreateICmpNE(B.CreateAnd(e, const_int(p, 1)), const_int(p, 0));
  Value* r2 = B.CreateSelect(odd, B.CreateMul(r, base), r);
  Value* base2 = B.CreateMul(base, base);
  Value* e2 = B.CreateLShr(e, const_int(p, 1));
  B.CreateBr(head);
  r->addIncoming(const_int(p, 1), pre);
  r->addIncoming(r2, body);
  base->addIncoming(a, pre);
  base->addIncoming(base2, body);
  e->addIncoming(b, pre);
  e->addIncoming(e2, body);
  B.SetInsertPoint(done);
  Value* res = r;
  if (!is_signed(p)) return res;
  Value* neg_e = B.CreateICmpSLT(b, const_int(p, 0));
  Check c;
  c.kind = Check::pow_zero;
  c.loc = s.loc;
  fail_if(B.CreateAnd(neg_e, B.CreateICmpEQ(a, const_int(p, 0))), c, {});
  Value* b_odd = B.CreateICmpNE(B.CreateAnd(b, const_int(p, 1)), const_int(p, 0));
  Value* m1 = B.CreateSelect(b_odd, const_int(p, -1), const_int(p, 1));
  Value* inv = B.CreateSelect(B.CreateICmpEQ(a, const_int(p, -1)), m1, const_int(p, 0));
  inv = B.CreateSelect(B.CreateICmpEQ(a, const_int(p, 1)), const_int(p, 1), inv);
  return B.CreateSelect(neg_e, inv, res);
}

Value* Gen::binary_op(BinaryOp op, Prim p, Value* a, Value* b, const ir::Stmt& s) {
  bool f = prim_is_float(p), sg = is_signed(p);
  type(p, &s);
  if (ir::is_comparison(op)) {
    Value* c;
    switch (op) {
      case BinaryOp::cmp_lt: c = f ? B.CreateFCmpOLT(a, b) : sg ? B.CreateICmpSLT(a, b) : B.CreateICmpULT(a, b); break;
      case BinaryOp::cmp_le: c = f ? B.CreateFCmpOLE(a, b) : sg ? B.CreateICmpSLE(a, b) : B.CreateICmpULE(a, b); break;
      case BinaryOp::cmp_gt: c = f ? B.CreateFCmpOGT(a, b) : sg ? B.CreateICmpSGT(a, b) : B.CreateICmpUGT(a, b); break;
      case BinaryOp::cmp_ge: c = f ? B.CreateFCmpOGE(a, b) : sg ? B.CreateICmpSGE(a, b) : B.CreateICmpUGE(a, b); break;
      case BinaryOp::cmp_eq: c = f ? B.CreateFCmpOEQ(a, b) : B.CreateICmpEQ(a, b); break;
      default: c = f ? B.CreateFCmpUNE(a, b) : B.CreateICmpNE(a, b); break;  // NaN != NaN
    }
    return from_bool(c, s.type.prim);
  }
  switch (op) {
    case BinaryOp::add: return f ? B.CreateFAdd(a, b) : B.CreateAdd(a, b);
    case BinaryOp::sub: return f ? B.CreateFSub(a, b) : B.CreateSub(a, b);
    case BinaryOp::mul: return f ? B.CreateFMul(a, b) : B.CreateMul(a, b);
    case BinaryOp::bit_and: return B.CreateAnd(a, b);
    case BinaryOp::bit_or: return B.CreateOr(a, b);
    case BinaryOp::bit_xor: return B.CreateXor(a, b);
    case BinaryOp::max:
    case BinaryOp::min: {
      bool mx = op == BinaryOp::max;
      if (f) return maxmin(a, b, mx);
      Value* c = mx ? (sg ? B.CreateICmpSGE(a, b) : B.CreateICmpUGE(a, b)) : (sg ? B.CreateICmpSLE(a, b) : B.CreateICmpULE(a, b));
      return B.CreateSelect(c, a, b);
    }
    case BinaryOp::atan2:
      // The GPU repeats glibc's atan2f (libdevice's differs in the last bit).
      if (gpu && (p == Prim::f32 || is_half(p))) return B.CreateCall(atan2f_function(M), {a, b});
      return libm("atan2", p, {a, b}, s);
    case BinaryOp::pow: return f ? libm("pow", p, {a, b}, s) : int_pow(p, a, b, s);
    default: break;
  }
  // The division family.
  if (f) {
    switch (op) {
      case BinaryOp::div: return B.CreateFDiv(a, b);
      case BinaryOp::floordiv: return B.CreateUnaryIntrinsic(llvm::Intrinsic::floor, B.CreateFDiv(a, b));
      case BinaryOp::raw_mod: return B.CreateFRem(a, b);  // C's fmod
      default: {  // mod: fmod moved to the divisor's sign; a zero takes the divisor's sign
        Value* r = B.CreateFRem(a, b);
        Value* zero = const_float(p, 0);
        Value* differ = B.CreateXor(B.CreateFCmpOLT(b, zero), B.CreateFCmpOLT(r, zero));
        Value* moved = B.CreateSelect(differ, B.CreateFAdd(r, b), r);
        Value* signed_zero = B.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, zero, b);
        return B.CreateSelect(B.CreateFCmpUNE(r, zero), moved, signed_zero);
      }
    }
  }
  // Ints: a zero divisor is a ZeroDivisionError; x / -1 and x % -1 are
  // computed without the overflow LLVM leaves undefined. A constant divisor
  // other than 0 and -1 (the common case: i // 4) needs neither.
  const ir::Stmt* divisor = s.kind == ir::StmtKind::binary ? s.ops[1] : nullptr;
  bool plain = divisor && divisor->kind == ir::StmtKind::const_ && divisor->value.i != 0 && (!sg || divisor->value.i != -1);
  Value* ism1 = B.getFalse();
  Value* safe = b;
  if (!plain) {
    Check c;
    c.kind = Check::div_zero;
    c.loc = s.loc;
    Value* is0 = B.CreateICmpEQ(b, const_int(p, 0));
    fail_if(is0, c, {});
    if (sg) ism1 = B.CreateICmpEQ(b, const_int(p, -1));
    safe = B.CreateSelect(B.CreateOr(is0, ism1), const_int(p, 1), b);
  }
  Value* nega = B.CreateNeg(a);
  Value* zero = const_int(p, 0);
  switch (op) {
    case BinaryOp::div:
      if (!sg) return B.CreateUDiv(a, safe);
      return B.CreateSelect(ism1, nega, B.CreateSDiv(a, safe));
    case BinaryOp::floordiv: {
      if (!sg) return B.CreateUDiv(a, safe);
      Value* q = B.CreateSDiv(a, safe);
      Value* r = B.CreateSRem(a, safe);
      Value* differ = B.CreateXor(B.CreateICmpSLT(r, zero), B.CreateICmpSLT(safe, zero));
      Value* adj = B.CreateSelect(B.CreateAnd(B.CreateICmpNE(r, zero), differ), B.CreateSub(q, const_int(p, 1)), q);
      return B.CreateSelect(ism1, nega, adj);
    }
    case BinaryOp::mod: {
      if (!sg) return B.CreateURem(a, safe);
      Value* r = B.CreateSRem(a, safe);
      Value* differ = B.CreateXor(B.CreateICmpSLT(r, zero), B.CreateICmpSLT(safe, zero));
      Value* m = B.CreateSelect(B.CreateAnd(B.CreateICmpNE(r, zero), differ), B.CreateAdd(r, safe), r);
      return B.CreateSelect(ism1, zero, m);
    }
    default: {  // raw_mod: C's %
      if (!sg) return B.CreateURem(a, safe);
      return B.CreateSelect(ism1, zero, B.CreateSRem(a, safe));
    }
  }
}

Value* Gen::unary(const ir::Stmt& s) {
  Prim p = s.type.prim, a_p = s.ops[0]->type.prim;
  Value* a = val.at(s.ops[0]);
  llvm::Type* t = type(p, &s);
  bool f = prim_is_float(p);
  auto float_op = [&](llvm::Intrinsic::ID id) { return f ? B.CreateUnaryIntrinsic(id, a) : a; };
  switch (s.uop) {
    case UnaryOp::neg: return f ? B.CreateFNeg(a) : B.CreateNeg(a);
    case UnaryOp::bit_not: return B.CreateNot(a);
    case UnaryOp::logic_not: {
      Value* z = prim_is_float(a_p) ? B.CreateFCmpOEQ(a, const_float(a_p, 0)) : B.CreateICmpEQ(a, const_int(a_p, 0));
      return from_bool(z, p);
    }
    case UnaryOp::abs:
      if (f) return B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a);
      if (!is_signed(p)) return a;
      return B.CreateSelect(B.CreateICmpSLT(a, const_int(p, 0)), B.CreateNeg(a), a);
    case UnaryOp::sqrt: return float_op(llvm::Intrinsic::sqrt);
    case UnaryOp::rsqrt: return B.CreateFDiv(const_float(p, 1.0), B.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a));
    case UnaryOp::sin: return libm("sin", p, {a}, s);
    case UnaryOp::cos: return libm("cos", p, {a}, s);
    case UnaryOp::tan: return libm("tan", p, {a}, s);
    case UnaryOp::asin: return libm("asin", p, {a}, s);
    case UnaryOp::acos: return libm("acos", p, {a}, s);
    case UnaryOp::atan: return libm("atan", p, {a}, s);
    case UnaryOp::tanh: return libm("tanh", p, {a}, s);
    case UnaryOp::exp: return libm("exp", p, {a}, s);
    case UnaryOp::log: return libm("log", p, {a}, s);
    case UnaryOp::floor: return float_op(llvm::Intrinsic::floor);
    case UnaryOp::ceil: return float_op(llvm::Intrinsic::ceil);
    case UnaryOp::round: return float_op(llvm::Intrinsic::round);  // half away from zero, as std::round
    case UnaryOp::cast_value: return cast(a, a_p, p, s);
    case UnaryOp::cast_bits:
      type(a_p, &s);
      if (prim_bits(a_p) != prim_bits(p)) unsupported(s, "a bit cast between widths");
      if (is_half(a_p) && is_half(p)) return half_decode(half_encode(a, a_p), p);
      if (is_half(a_p)) return half_encode(a, a_p);  // to the 16-bit int: the pattern
      if (is_half(p)) return half_decode(a, p);
      return B.CreateBitCast(a, t);
    case UnaryOp::popcnt:
    case UnaryOp::clz: {
      if (f || prim_is_float(a_p)) unsupported(s, std::string(ir::unary_op_name(s.uop)) + " of a float");
      // Counted in the operand's own width; the count fits any int type.
      Value* r = s.uop == UnaryOp::popcnt ? B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, a)
                                          : B.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, a, B.getFalse());
      return cast(r, a_p, p, s);
    }
  }
  unsupported(s, "this unary op");
}

Value* Gen::binary(const ir::Stmt& s) {
  Prim p = s.ops[0]->type.prim;
  Value* a = val.at(s.ops[0]);
  Value* b = val.at(s.ops[1]);
  Prim bp = s.ops[1]->type.prim;
  bool shift = s.bop == BinaryOp::bit_shl || s.bop == BinaryOp::bit_shr || s.bop == BinaryOp::bit_sar;
  if (!shift) return binary_op(s.bop, p, a, b, s);
  // The count is its register's 64 bits read as unsigned; counts of the
  // width or more give 0 (sar: the sign everywhere).
  int w = prim_bits(p);
  llvm::Type* t = type(p, &s);
  type(bp, &s);
  Value* c64 = to_reg(b, bp);
  Value* big = B.CreateICmpUGE(c64, B.getInt64((uint64_t)w));
  Value* c = w == 64 ? c64 : B.CreateTrunc(c64, t);
  c = B.CreateSelect(big, const_int(p, 0), c);
  if (s.bop == BinaryOp::bit_shl) return B.CreateSelect(big, const_int(p, 0), B.CreateShl(a, c));
  if (s.bop == BinaryOp::bit_shr) return B.CreateSelect(big, const_int(p, 0), B.CreateLShr(a, c));
  return B.CreateAShr(a, B.CreateSelect(big, const_int(p, w - 1), c));
}

}  // namespace kiln::llvmjit
