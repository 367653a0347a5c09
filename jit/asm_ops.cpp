// The float, memory, select and guard operations of the trace IR as x86-64
// (asm.h; the integer ones are asm_int.cpp). Anything not inlined here
// is a call to eval.cpp, which computes the interpreter's own result.
#include <asmjit/x86.h>

#include <bit>
#include <cmath>
#include <utility>

#include "jit/asm.h"
#include "jit/backend.h"
#include "jit/sink.h"
#include "jit/trace.h"
#include "vm/types/type.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

// + - * / on floats, computed in the result's xmm register when it has one
// (max and min: asm_float.cpp).
bool Gen::float_binop(const Ins& in, Ref i) {
  bool s = in.t == CT::f32;
  if (in.op == IrOp::max || in.op == IrOp::min) return float_maxmin(in, i);
  if (in.op != IrOp::add && in.op != IrOp::sub && in.op != IrOp::mul && in.op != IrOp::div) return false;
  Ref A = in.a, B = in.b;
  bool commutes = in.op == IrOp::add || in.op == IrOp::mul;
  if (commutes && in_xmm(i) && in_xmm(B) && same_home(B, i)) std::swap(A, B);
  // With AVX, three operands: the first is not copied into the result's
  // register first (mandelbrot's `y * y`, `2.0 * x`). A constant first
  // operand of a commuting op then goes second: the same bits unless it is a
  // NaN (of two NaNs, x86 returns the first's).
  if (vex && commutes && t.is_const(A) && in_xmm(B)) {
    uint64_t k = (uint64_t)t.ins[A].k;
    if (!(s ? std::isnan(std::bit_cast<float>((uint32_t)k)) : std::isnan(std::bit_cast<double>(k)))) std::swap(A, B);
  }
  x86::Xmm D, X;  // D = X op src
  if (vex && in_xmm(A)) {
    D = in_xmm(i) ? xhome(i) : x86::xmm0;
    X = xhome(A);
  } else {
    D = in_xmm(i) && !(in_xmm(B) && same_home(B, i) && A != B) ? xhome(i) : x86::xmm0;
    ldx(D, A, in.t);
    X = D;
  }
  auto op = [&](const auto& src) {
    switch (in.op) {
      case IrOp::add: vex ? (s ? a.vaddss(D, X, src) : a.vaddsd(D, X, src)) : (s ? a.addss(D, src) : a.addsd(D, src)); break;
      case IrOp::sub: vex ? (s ? a.vsubss(D, X, src) : a.vsubsd(D, X, src)) : (s ? a.subss(D, src) : a.subsd(D, src)); break;
      case IrOp::mul: vex ? (s ? a.vmulss(D, X, src) : a.vmulsd(D, X, src)) : (s ? a.mulss(D, src) : a.mulsd(D, src)); break;
      default: vex ? (s ? a.vdivss(D, X, src) : a.vdivsd(D, X, src)) : (s ? a.divss(D, src) : a.divsd(D, src)); break;
    }
  };
  with_xsrc(B, in.t, x86::xmm1, op);
  stx(i, D, in.t);
  return true;
}

// neg and abs flip or clear the sign bit of the representation; sqrt.
bool Gen::float_unary(const Ins& in, Ref i) {
  bool s = in.t == CT::f32;
  if (in.op == IrOp::sqrt) {
    x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0, S = x86::xmm1;
    if (in_xmm(in.a)) S = xhome(in.a);
    else ldx(x86::xmm1, in.a, in.t);
    if (vex) s ? a.vsqrtss(D, S, S) : a.vsqrtsd(D, S, S);
    else s ? a.sqrtss(D, S) : a.sqrtsd(D, S);
    stx(i, D, in.t);
    return true;
  }
  if (in.op != IrOp::neg && in.op != IrOp::abs) return false;
  if ((in_xmm(i) || in_xmm(in.a)) && host_has_avx2()) {
    // One vxorps/vandps with the mask from the pool (off the value's path;
    // the lanes above the value are don't-care): no copy of the operand and
    // no mask made per operation (bench/sparse_particles' bounce negates two).
    x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0;
    x86::Xmm S = D;
    if (in_xmm(in.a)) S = xhome(in.a);
    else ldx(D, in.a, in.t);
    uint64_t sign = s ? 0x80000000ull : 0x8000000000000000ull;
    uint64_t mask = in.op == IrOp::neg ? sign : ~sign & (s ? 0xffffffffull : ~0ull);
    const x86::Xmm* k = kreg(mask);
    if (in.op == IrOp::neg) k ? a.vxorps(D, S, *k) : a.vxorps(D, S, kbits(mask, CT::u64));
    else k ? a.vandps(D, S, *k) : a.vandps(D, S, kbits(mask, CT::u64));
    stx(i, D, in.t);
    return true;
  }
  if (in_xmm(i) || in_xmm(in.a)) {
    // In xmm registers: the sign mask made in xmm1 (off the value's path),
    // then one xorps/andps. Through a general register the value took two
    // cross-domain moves, mandelbrot's x * x - y * y six cycles more.
    x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0;
    ldx(D, in.a, in.t);
    a.pcmpeqd(x86::xmm1, x86::xmm1);
    if (in.op == IrOp::neg) {
      s ? a.pslld(x86::xmm1, 31) : a.psllq(x86::xmm1, 63);
      a.xorps(D, x86::xmm1);
    } else {
      s ? a.psrld(x86::xmm1, 1) : a.psrlq(x86::xmm1, 1);
      a.andps(D, x86::xmm1);
    }
    stx(i, D, in.t);
    return true;
  }
  ld(x86::rax, in.a);
  if (in.op == IrOp::neg) s ? a.xor_(x86::eax, Imm(0x80000000u)) : a.btc(x86::rax, Imm(63));
  else s ? a.and_(x86::eax, Imm(0x7fffffff)) : a.btr(x86::rax, Imm(63));
  st(i);
  return true;
}

void Gen::compare(const Ins& in, Ref i) {
  if (is_float(in.t)) {
    bool s = in.t == CT::f32;
    ldx(x86::xmm0, in.a, in.t);
    ldx(x86::xmm1, in.b, in.t);
    // Unordered (NaN) compares are false except !=.
    auto ucom = [&](const x86::Xmm& p, const x86::Xmm& q) { s ? a.ucomiss(p, q) : a.ucomisd(p, q); };
    switch (in.op) {
      case IrOp::lt: ucom(x86::xmm1, x86::xmm0); a.seta(x86::al); break;
      case IrOp::le: ucom(x86::xmm1, x86::xmm0); a.setae(x86::al); break;
      case IrOp::eq: ucom(x86::xmm0, x86::xmm1); a.sete(x86::al); a.setnp(x86::cl); a.and_(x86::al, x86::cl); break;
      default: ucom(x86::xmm0, x86::xmm1); a.setne(x86::al); a.setp(x86::cl); a.or_(x86::al, x86::cl); break;
    }
  } else {
    ld(x86::rcx, in.a);
    ld(x86::rdx, in.b);
    a.cmp(x86::rcx, x86::rdx);  // registers hold both widths comparably (opcodes.h)
    bool sg = is_signed(in.t);
    switch (in.op) {
      case IrOp::lt: sg ? a.setl(x86::al) : a.setb(x86::al); break;
      case IrOp::le: sg ? a.setle(x86::al) : a.setbe(x86::al); break;
      case IrOp::eq: a.sete(x86::al); break;
      default: a.setne(x86::al); break;
    }
  }
  a.movzx(x86::eax, x86::al);
  st(i);
}

bool Gen::conv(const Ins& in, Ref i) {
  x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0;
  switch ((bc::Op)in.k) {
    case bc::Op::i64_f32: case bc::Op::i64_f64: {
      bool s = (bc::Op)in.k == bc::Op::i64_f32;
      x86::Gp x = gp_of(in.a, x86::rax);
      if (vex) {  // D's upper lanes from a zeroed xmm1: no false dependency on D's old value
        a.vpxor(x86::xmm1, x86::xmm1, x86::xmm1);  // (a zero idiom: no execution unit)
        s ? a.vcvtsi2ss(D, x86::xmm1, x) : a.vcvtsi2sd(D, x86::xmm1, x);
      } else {
        a.xorps(D, D);  // no false dependency on D's old value
        s ? a.cvtsi2ss(D, x) : a.cvtsi2sd(D, x);
      }
      stx(i, D, s ? CT::f32 : CT::f64);
      return true;
    }
    case bc::Op::u64_f32: case bc::Op::u64_f64: {
      // C's (float)/(double) of a u64: below 2^63 the signed conversion;
      // above, half the value with its lowest bit kept sticky (so the
      // rounding is the same), converted and doubled. (ti.random()'s floats
      // come from a u64: a call each in Taichi's mpm3d and cornell_box.)
      bool s = (bc::Op)in.k == bc::Op::u64_f32;
      ld(x86::rax, in.a);
      if (vex) a.vpxor(x86::xmm1, x86::xmm1, x86::xmm1);
      else a.xorps(D, D);
      auto cvt = [&](const x86::Gp& x) {
        if (vex) s ? a.vcvtsi2ss(D, x86::xmm1, x) : a.vcvtsi2sd(D, x86::xmm1, x);
        else s ? a.cvtsi2ss(D, x) : a.cvtsi2sd(D, x);
      };
      Label big = a.newLabel(), done = a.newLabel();
      a.test(x86::rax, x86::rax);
      a.js(big);
      cvt(x86::rax);
      a.jmp(done);
      a.bind(big);
      a.mov(x86::rcx, x86::rax);
      a.shr(x86::rcx, 1);
      a.and_(x86::eax, 1);
      a.or_(x86::rcx, x86::rax);
      cvt(x86::rcx);
      if (vex) s ? a.vaddss(D, D, D) : a.vaddsd(D, D, D);
      else s ? a.addss(D, D) : a.addsd(D, D);
      a.bind(done);
      stx(i, D, s ? CT::f32 : CT::f64);
      return true;
    }
    case bc::Op::f32_f64:
      ldx(x86::xmm1, in.a, CT::f32);
      vex ? a.vcvtss2sd(D, x86::xmm1, x86::xmm1) : a.cvtss2sd(D, x86::xmm1);
      stx(i, D, CT::f64);
      return true;
    case bc::Op::f64_f32:
      ldx(x86::xmm1, in.a, CT::f64);
      vex ? a.vcvtsd2ss(D, x86::xmm1, x86::xmm1) : a.cvtsd2ss(D, x86::xmm1);
      stx(i, D, CT::f32);
      return true;
    case bc::Op::f32_i32: case bc::Op::f32_i64: case bc::Op::f64_i32: case bc::Op::f64_i64:
      float_to_int(in, i);
      return true;
    default: break;
  }
  ld(x86::rax, in.a);
  switch ((bc::Op)in.k) {
    case bc::Op::sext8: a.movsx(x86::rax, x86::al); break;
    case bc::Op::sext16: a.movsx(x86::rax, x86::ax); break;
    case bc::Op::sext32: a.movsxd(x86::rax, x86::eax); break;
    case bc::Op::zext8: a.movzx(x86::eax, x86::al); break;
    case bc::Op::zext16: a.movzx(x86::eax, x86::ax); break;
    case bc::Op::zext32: a.mov(x86::eax, x86::eax); break;
    default: return false;
  }
  st(i);
  return true;
}

// Float -> signed int as sem::f2i (truncate, NaN -> 0, saturate). cvtts*2si
// gives INT_MIN for NaN and out of range, which saturation also gives for
// every x <= INT_MIN; `cmp r, 1` overflows for INT_MIN alone, and a cold
// fix-up makes it 0 for NaN and INT_MAX for a positive x. (It was a call:
// MPM's int(Xp - 0.5) three a particle in P2G and in G2P, each saving the
// live xmm registers around it.)
void Gen::float_to_int(const Ins& in, Ref i) {
  bc::Op op = (bc::Op)in.k;
  bool s = op == bc::Op::f32_i32 || op == bc::Op::f32_i64, w64 = op == bc::Op::f32_i64 || op == bc::Op::f64_i64;
  x86::Xmm X = x86::xmm1;
  if (in_xmm(in.a)) X = xhome(in.a);
  else ldx(X, in.a, s ? CT::f32 : CT::f64);
  x86::Gp R = in_gp(i) ? home(i) : x86::Gp(x86::rax), r = w64 ? R : x86::Gp(R.r32());
  a.emit(s ? (vex ? x86::Inst::kIdVcvttss2si : x86::Inst::kIdCvttss2si)
           : (vex ? x86::Inst::kIdVcvttsd2si : x86::Inst::kIdCvttsd2si),
         r, X);
  Label fix = a.newLabel(), back = a.newLabel();
  a.cmp(r, 1);
  a.jo(fix);
  a.bind(back);
  if (!w64) a.movsxd(R, r);  // (an i32's register representation)
  if (R.id() == x86::Gp::kIdAx) st(i);
  cold.push_back([this, X, r, s, fix, back] {  // (X still holds x: nothing ran since)
    a.bind(fix);
    Label nan = a.newLabel();
    vex ? a.vxorps(x86::xmm0, x86::xmm0, x86::xmm0) : a.xorps(x86::xmm0, x86::xmm0);
    a.emit(s ? (vex ? x86::Inst::kIdVucomiss : x86::Inst::kIdUcomiss)
             : (vex ? x86::Inst::kIdVucomisd : x86::Inst::kIdUcomisd),
           X, x86::xmm0);
    a.jp(nan);
    a.jbe(back);   // x <= 0: INT_MIN
    a.sub(r, 1);   // INT_MIN - 1 wraps to INT_MAX
    a.jmp(back);
    a.bind(nan);
    a.xor_(r, r);
    a.jmp(back);
  });
}

// Memory operands through memory_at: a folded address add (sink.h) is the
// instruction's displacement.
void Gen::load(const Ins& in, Ref i) {
  if (in.k == (int64_t)Prim::f32 || in.k == (int64_t)Prim::f64) {
    bool s = in.k == (int64_t)Prim::f32;
    x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0;
    xload(D, memory_at(in.a, s ? 4 : 8), s ? CT::f32 : CT::f64);  // zeroes the rest of D
    stx(i, D, s ? CT::f32 : CT::f64);
    return;
  }
  x86::Gp D = in_gp(i) ? home(i) : x86::Gp(x86::rax);
  switch ((Prim)in.k) {
    case Prim::i8: a.movsx(D, memory_at(in.a, 1)); break;
    case Prim::i16: a.movsx(D, memory_at(in.a, 2)); break;
    case Prim::i32: a.movsxd(D, memory_at(in.a, 4)); break;
    case Prim::u8: a.movzx(D.r32(), memory_at(in.a, 1)); break;
    case Prim::u16: a.movzx(D.r32(), memory_at(in.a, 2)); break;
    case Prim::u32: a.mov(D.r32(), memory_at(in.a, 4)); break;  // zero-extends
    case Prim::i64: case Prim::u64: a.mov(D, memory_at(in.a, 8)); break;
    default:
      call((const void*)&load_prim, [&] {
        a.mov(x86::rdi, address(in.a));
        a.mov(x86::esi, Imm(in.k));
      });
      D = x86::rax;
  }
  if (D.id() == x86::Gp::kIdAx) st(i);
}

void Gen::store(const Ins& in) {
  Prim p = (Prim)in.k;
  if (in_xmm(in.b) && (p == Prim::f32 || p == Prim::f64)) {
    bool s = p == Prim::f32;
    xstore(memory_at(in.a, s ? 4 : 8), xhome(in.b), s ? CT::f32 : CT::f64);
    return;
  }
  x86::Gp V = gp_of(in.b, x86::rcx);  // (never rax: memory_at's base may be)
  switch (p) {
    case Prim::i8: case Prim::u8: a.mov(memory_at(in.a, 1), V.r8()); break;
    case Prim::i16: case Prim::u16: a.mov(memory_at(in.a, 2), V.r16()); break;
    case Prim::i32: case Prim::u32: case Prim::f32: a.mov(memory_at(in.a, 4), V.r32()); break;
    case Prim::i64: case Prim::u64: case Prim::f64: a.mov(memory_at(in.a, 8), V); break;
    default:
      call((const void*)&store_prim, [&] {
        if (V.id() != x86::Gp::kIdCx) a.mov(x86::rcx, V);  // (V may be rdi, the address rsi)
        a.mov(x86::rdi, address(in.a));
        a.mov(x86::rsi, x86::rcx);
        a.mov(x86::edx, Imm(in.k));
      });
  }
}

void Gen::atomic(const Ins& in, Ref i) {
  // The old value, where something reads it (a scatter's `x[j] += v` does
  // not: its 27 results an MPM particle were stores to their slots).
  auto result = [&](const x86::Gp& src) {
    if (al.last[i] >= 0) put(i, src);
  };
  Prim p = atomic_prim(in.k);
  int aop = atomic_aop(in.k);  // sem::AOp: add, sub, ...
  bool w32 = p == Prim::i32 || p == Prim::u32, w64 = p == Prim::i64 || p == Prim::u64;
  if ((aop == 0 || aop == 1) && (w32 || w64)) {
    // Integer add/sub: one locked xadd returns the old value.
    ld(x86::rax, in.a);
    ld(x86::rcx, in.b);
    if (aop == 1) a.neg(x86::rcx);
    if (w32) {
      a.lock().xadd(x86::dword_ptr(x86::rax), x86::ecx);
      if (p == Prim::i32) a.movsxd(x86::rcx, x86::ecx);
      else a.mov(x86::ecx, x86::ecx);
    } else {
      a.lock().xadd(x86::qword_ptr(x86::rax), x86::rcx);
    }
    result(x86::rcx);
    return;
  }
  if ((aop == 0 || aop == 1) && (p == Prim::f32 || p == Prim::f64)) {
    // Float add/sub: a compare-exchange loop, the update computed in SSE
    // exactly as interp_ops.h's atomic_rmw computes it.
    bool s = p == Prim::f32;
    CT ct = s ? CT::f32 : CT::f64;
    ldx(x86::xmm1, in.b, ct);
    ld(x86::rdx, in.a);
    x86::Gp A = s ? x86::Gp(x86::eax) : x86::Gp(x86::rax), C = s ? x86::Gp(x86::ecx) : x86::Gp(x86::rcx);
    x86::Mem m = s ? x86::dword_ptr(x86::rdx) : x86::qword_ptr(x86::rdx);
    Label retry = a.newLabel();
    a.mov(A, m);
    a.bind(retry);
    s ? a.movd(x86::xmm0, x86::eax) : a.movq(x86::xmm0, x86::rax);
    if (aop == 0) s ? a.addss(x86::xmm0, x86::xmm1) : a.addsd(x86::xmm0, x86::xmm1);
    else s ? a.subss(x86::xmm0, x86::xmm1) : a.subsd(x86::xmm0, x86::xmm1);
    s ? a.movd(x86::ecx, x86::xmm0) : a.movq(x86::rcx, x86::xmm0);
    a.lock().cmpxchg(m, C, A);
    a.jne(retry);
    result(x86::rax);  // the old value (a 32-bit load zero-extended it)
    return;
  }
  call((const void*)&atomic_call, [&] {
    arg_pair(in.a, in.b);
    a.mov(x86::rdx, Imm(in.k));
  });
  result(x86::rax);
}

// A select between floats (it lives in an xmm register: regalloc.h) is a
// blend under a mask in xmm1: a fused float compare (sink.h) made as that
// mask, or an integer condition's 0/1 as all ones or zeros.
void Gen::float_select(const Ins& in, Ref i) {
  bool s = al.fw[i] == 4;
  CT ct = s ? CT::f32 : CT::f64;
  // A register or memory operand for r (a general register's value goes
  // through its own slot, as fma's operands do).
  auto rm = [&](Ref r, CT rt) -> Operand {
    if (in_xmm(r)) return xhome(r);
    if (const x86::Xmm* k = kreg_of(r)) return *k;
    if (t.is_const(r)) return kmem(r, rt);
    if (in_gp(r)) a.mov(slot(r), home(r));
    return rt == CT::f32 ? x86::dword_ptr(x86::rsp, 8 * r) : slot(r);
  };
  if (in.a >= 0 && mask_before == in.a) {
    // The select just before left this mask in xmm1 (or k7): a fused
    // compare's, or an integer condition's (x and y of one if-converted
    // block, each a select on its flag).
    mask_after = in.a;
  } else if (in.a >= 0 && fused[in.a]) {
    const Ins& c = t.ins[in.a];
    bool cs = c.t == CT::f32;
    x86::Xmm A = x86::xmm1;
    if (in_xmm(c.a)) A = xhome(c.a);
    else ldx(x86::xmm1, c.a, c.t);
    // Ordered predicates (false on NaN) but != (true on NaN), as compare().
    int pred = c.op == IrOp::lt ? 0x11 : c.op == IrOp::le ? 0x12 : c.op == IrOp::eq ? 0x00 : 0x04;
    a.emit(cs ? x86::Inst::kIdVcmpss : x86::Inst::kIdVcmpsd, kmask ? x86::Reg(x86::k7) : x86::Reg(x86::xmm1), A,
           rm(c.b, c.t), Imm(pred));
    mask_after = in.a;  // (nothing below writes xmm1, or k7)
  } else {
    ld(x86::rax, in.a);
    a.test(x86::rax, x86::rax);
    a.setne(x86::al);
    a.movzx(x86::eax, x86::al);
    if (kmask) {
      a.kmovw(x86::k7, x86::eax);
    } else {
      a.neg(x86::rax);
      a.movq(x86::xmm1, x86::rax);
    }
    mask_after = in.a;
  }
  if (kmask) {  // under k7: vblendmps takes any of xmm0-31, the mask leaves xmm1 free
    x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0, C = x86::xmm0, B = x86::xmm1;
    if (in_xmm(in.c)) C = xhome(in.c);
    else ldx(x86::xmm0, in.c, ct);
    if (in_xmm(in.b)) B = xhome(in.b);
    else ldx(x86::xmm1, in.b, ct);
    s ? a.k(x86::k7).vblendmps(D, C, B) : a.k(x86::k7).vblendmpd(D, C, B);
    stx(i, D, ct);
    return;
  }
  // The blend reads 16 bytes of a memory operand: both values in registers
  // (xmm0, or the result's own register when neither is the other's).
  x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0;
  x86::Xmm C = x86::xmm0, B = x86::xmm0;
  if (in_xmm(in.c)) C = xhome(in.c);
  else ldx(x86::xmm0, in.c, ct);
  if (in_xmm(in.b)) {
    B = xhome(in.b);
  } else if (C.id() != x86::xmm0.id()) {
    ldx(x86::xmm0, in.b, ct);
  } else if (D.id() != x86::xmm0.id()) {
    ldx(D, in.b, ct);
    B = D;
  } else {  // no register left: the mask as a condition, and a cmov
    a.movd(x86::eax, x86::xmm1);
    ld(x86::rcx, in.b);
    ld(x86::rdx, in.c);
    a.test(x86::eax, x86::eax);
    a.cmovz(x86::rcx, x86::rdx);
    put(i, x86::rcx);
    return;
  }
  a.emit(s ? x86::Inst::kIdVblendvps : x86::Inst::kIdVblendvpd, D, C, B, x86::xmm1);
  stx(i, D, ct);
}

void Gen::select(const Ins& in, Ref i) {
  if (is_fp(i) && host_has_avx2()) {
    float_select(in, i);
    return;
  }
  // b into the result's register (unless the test or c lives there), then
  // c over it where a is 0: operands read where they live (Collatz's step
  // copied all three through rax, rcx and rdx). Loads first: loading a
  // constant 0 may clear flags.
  x86::Gp A = gp_of(in.a, x86::rax);
  x86::Gp D = in_gp(i) && !same_home(i, in.a) && !same_home(i, in.c) ? home(i) : x86::Gp(x86::rcx);
  ld(D, in.b);
  x86::Gp C = gp_of(in.c, x86::rdx);
  a.test(A, A);
  a.cmovz(D, C);
  if (D.id() == x86::Gp::kIdCx) put(i, x86::rcx);
}

namespace {
uint64_t fma_f32(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t out;
  eval_pure(IrOp::fma, CT::f32, 0, a, b, c, out);
  return out;
}
uint64_t fma_f64(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t out;
  eval_pure(IrOp::fma, CT::f64, 0, a, b, c, out);
  return out;
}
}  // namespace

// a * b + c rounded once: vfmadd231 into c's copy in xmm0 (b may stay in
// memory), or std::fma through a call where the CPU has no FMA3.
void Gen::fma(const Ins& in, Ref i) {
  bool s = in.t == CT::f32;
  if (!host_has_fma3()) {
    call(s ? (const void*)&fma_f32 : (const void*)&fma_f64, [&] {
      ld(x86::rdx, in.c);
      arg_pair(in.a, in.b);
    });
    st(i);
    return;
  }
  // Straight into the result's register where it has one: 231 (d = a * b +
  // d) when d holds c or nothing yet, 213 (d = b * d + c) when it holds a
  // factor. Through xmm0 and xmm1 each fma took three more moves.
  // A folded neg operand (sink.h) is read as its operand, its sign moving
  // into the instruction: -a * b + c is vfnmadd, a * b - c vfmsub.
  bool neg_ab = false, neg_c = false;
  auto unfold = [&](Ref r, bool& flip) {
    if (!negfold[r]) return r;
    flip = !flip;
    return t.ins[r].a;
  };
  Ref A = unfold(in.a, neg_ab), B = unfold(in.b, neg_ab), C = unfold(in.c, neg_c);
  namespace Inst = x86::Inst;
  static const InstId k231[2][2][2] = {  // [f32][neg_ab][neg_c]
      {{Inst::kIdVfmadd231sd, Inst::kIdVfmsub231sd}, {Inst::kIdVfnmadd231sd, Inst::kIdVfnmsub231sd}},
      {{Inst::kIdVfmadd231ss, Inst::kIdVfmsub231ss}, {Inst::kIdVfnmadd231ss, Inst::kIdVfnmsub231ss}}};
  static const InstId k213[2][2][2] = {
      {{Inst::kIdVfmadd213sd, Inst::kIdVfmsub213sd}, {Inst::kIdVfnmadd213sd, Inst::kIdVfnmsub213sd}},
      {{Inst::kIdVfmadd213ss, Inst::kIdVfmsub213ss}, {Inst::kIdVfnmadd213ss, Inst::kIdVfnmsub213ss}}};
  x86::Xmm D = in_xmm(i) ? xhome(i) : x86::xmm0;
  auto is_d = [&](Ref r) { return in_xmm(r) && xhome(r).id() == D.id(); };
  if (is_d(B) && !is_d(A)) std::swap(A, B);  // (the product commutes)
  if (!is_d(A) && !in_xmm(A) && in_xmm(B)) std::swap(A, B);  // (a register factor for 231)
  auto reg = [&](Ref r) {  // r in an xmm register
    if (in_xmm(r)) return xhome(r);
    ldx(x86::xmm1, r, in.t);
    return x86::xmm1;
  };
  auto rm = [&](Ref r) -> Operand {  // r in an xmm register or memory
    if (in_xmm(r)) return xhome(r);
    if (const x86::Xmm* k = kreg_of(r)) return *k;
    if (t.is_const(r)) return kmem(r, in.t);
    if (in_gp(r)) a.mov(slot(r), home(r));  // r's own slot: its value in memory
    return s ? x86::dword_ptr(x86::rsp, 8 * r) : slot(r);
  };
  if (is_d(A)) {
    x86::Xmm b = reg(B);
    a.emit(k213[s][neg_ab][neg_c], D, b, rm(C));
  } else {
    if (!is_d(C)) ldx(D, C, in.t);  // (D is neither factor)
    x86::Xmm x = reg(A);
    a.emit(k231[s][neg_ab][neg_c], D, x, rm(B));
  }
  stx(i, D, in.t);
}

// A sunk or fused value at an exit (its home is its slot: no register).
void Gen::recompute(Ref i) {
  const Ins& in = t.ins[i];
  switch (in.op) {
    case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne: compare(in, i); break;
    case IrOp::sel: select(in, i); break;
    default: int_binop(in, i); break;  // sink.cpp's recomputable(): integer + - * & | ^
  }
}

// A guard on a fused compare: compare, then leave when it does not hold.
void Gen::fused_guard(const Ins& g, const Ins& c) {
  Label exit = exits[g.snap];
  bool want = g.op == IrOp::guard_nz;  // the compare must be true to stay
  using CC = x86::CondCode;
  CC stay;
  if (is_float(c.t)) {
    bool s = c.t == CT::f32;
    // ucomis b, a: a < b is "above"; either side straight from its register
    x86::Xmm B = in_xmm(c.b) ? xhome(c.b) : x86::xmm1;
    if (!in_xmm(c.b)) ldx(x86::xmm1, c.b, c.t);
    auto ucom = [&](const Operand& A) {  // (vucomis: xmm16-31 have no SSE form)
      a.emit(s ? (vex ? x86::Inst::kIdVucomiss : x86::Inst::kIdUcomiss) : (vex ? x86::Inst::kIdVucomisd : x86::Inst::kIdUcomisd),
             B, A);
    };
    if (in_xmm(c.a)) ucom(xhome(c.a));
    else if (const x86::Xmm* k = kreg_of(c.a)) ucom(*k);
    else if (t.is_const(c.a)) ucom(kmem(c.a, c.t));
    else if (!t.is_const(c.a) && !in_gp(c.a)) ucom(s ? x86::dword_ptr(x86::rsp, 8 * c.a) : slot(c.a));
    else {
      ldx(x86::xmm0, c.a, c.t);
      ucom(x86::xmm0);
    }
    stay = c.op == IrOp::lt ? CC::kA : CC::kAE;  // false when unordered
  } else {
    cmp_values(c.a, c.b);
    bool sg = is_signed(c.t);
    switch (c.op) {
      case IrOp::lt: stay = sg ? CC::kL : CC::kB; break;
      case IrOp::le: stay = sg ? CC::kLE : CC::kBE; break;
      case IrOp::eq: stay = CC::kE; break;
      default: stay = CC::kNE; break;
    }
  }
  leave_if(want ? x86::negateCond(stay) : stay, exit);
}

void Gen::guard(const Ins& in) {
  Label exit = exits[in.snap];
  if (in.a >= 0 && fused[in.a]) {
    fused_guard(in, t.ins[in.a]);
    return;
  }
  if (in.op == IrOp::guard_ult) {
    cmp_values(in.a, in.b);
    leave_if(x86::CondCode::kAE, exit);
    return;
  }
  x86::Gp v = x86::rax;
  if (in_gp(in.a)) v = home(in.a);  // tested where it lives
  else ld(v, in.a);
  a.test(v, v);
  leave_if(in.op == IrOp::guard_nz ? x86::CondCode::kZ : x86::CondCode::kNZ, exit);
}

}  // namespace kiln::jit
