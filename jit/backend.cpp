// Trace IR -> x86-64 (backend.h). Register use: rbx = the frame R, r12 = the
// TraceEnv; values live in one of eight allocated registers (regalloc.h) or
// in their rsp-relative slot; rax, rcx, rdx, rdi, rsi, xmm0, xmm1 are
// scratch within one instruction. Calls go to eval.cpp's functions, so
// anything not inlined here still computes the interpreter's result.
#include "jit/backend.h"
#include "jit/rtcall.h"
#include "jit/regalloc.h"

#include <asmjit/x86.h>

#include <cstddef>

namespace kiln::jit {

static_assert(sizeof(std::atomic<bool>) == 1, "the back edge tests the interrupt flag as one byte");

using namespace asmjit;
using bc::CT;

namespace {

struct ThrowOnError : ErrorHandler {
  std::string msg;
  void handleError(asmjit::Error, const char* m, BaseEmitter*) override {
    if (msg.empty()) msg = m;
  }
};

bool is_float(CT t) { return t == CT::f32 || t == CT::f64; }
bool is_signed(CT t) { return t == CT::i32 || t == CT::i64; }

struct Gen {
  const Trace& t;
  x86::Assembler& a;
  std::vector<Label> exits;  // per snapshot
  std::vector<int8_t> reg;   // per ref: index into kAllocatable, or -1 (its slot)
  std::vector<int> uses;     // per ref: live operand and snapshot uses
  std::vector<bool> fused;   // compares emitted as their guard's flags

  x86::Mem slot(Ref r) const { return x86::qword_ptr(x86::rsp, 8 * r); }
  x86::Gp home(Ref r) const { return x86::Gpq(kAllocatable[reg[r]]); }
  bool in_reg(Ref r) const { return r >= 0 && r < (Ref)reg.size() && reg[r] >= 0; }
  // Writes `src` to the value's home (its register or its slot).
  void put(Ref i, const x86::Gp& src) {
    if (in_reg(i)) {
      if (home(i).id() != src.id()) a.mov(home(i), src);
    } else {
      a.mov(slot(i), src);
    }
  }

  void ld(const x86::Gp& reg, Ref r) {
    if (t.is_const(r)) {
      int64_t v = t.ins[r].k;
      if (v == 0) a.xor_(reg.r32(), reg.r32());
      else if (v > 0 && v <= 0xffffffffll) a.mov(reg.r32(), Imm(v));
      else a.mov(reg, Imm(v));
    } else if (in_reg(r)) {
      if (home(r).id() != reg.id()) a.mov(reg, home(r));
    } else {
      a.mov(reg, slot(r));
    }
  }
  void ldx(const x86::Xmm& x, Ref r, CT ct) {
    if (in_reg(r)) {
      ct == CT::f32 ? a.movd(x, home(r).r32()) : a.movq(x, home(r));
      return;
    }
    ld(x86::rax, r);
    if (ct == CT::f32) a.movd(x, x86::eax);
    else a.movq(x, x86::rax);
  }
  void stx(Ref i, const x86::Xmm& x, CT ct) {
    if (in_reg(i)) {  // movd zero-extends, as an f32 register needs
      ct == CT::f32 ? a.movd(home(i).r32(), x) : a.movq(home(i), x);
      return;
    }
    if (ct == CT::f32) a.movd(x86::eax, x);
    else a.movq(x86::rax, x);
    put(i, x86::rax);
  }
  void st(Ref i) { put(i, x86::rax); }

  // rax = fn(rdi, rsi, rdx): every call site loads its own arguments.
  // The allocatable caller-saved registers are saved around it (4 pushes
  // keep the stack 16-byte aligned).
  void call(const void* fn) {
    for (int j = kFirstCallerSaved; j < kNumAllocatable; j++) a.push(x86::Gpq(kAllocatable[j]));
    a.mov(x86::rax, Imm((uint64_t)(uintptr_t)fn));
    a.call(x86::rax);
    for (int j = kNumAllocatable - 1; j >= kFirstCallerSaved; j--) a.pop(x86::Gpq(kAllocatable[j]));
  }
  void call_eval(const Ins& in, Ref i) {
    ld(x86::rdi, in.a);
    if (in.b >= 0) ld(x86::rsi, in.b);
    else a.xor_(x86::esi, x86::esi);
    a.mov(x86::rdx, Imm((uint64_t)in.op | (uint64_t)in.t << 8 | (uint64_t)in.k << 16));
    call((const void*)&eval_call);
    st(i);
  }
  // Fixes a 32-bit result in eax to the register representation.
  void fix32(CT ct) {
    if (ct == CT::i32) a.movsxd(x86::rax, x86::eax);
    // u32: writing eax already zeroed the upper half
  }

  // add/sub/mul/and/or/xor, computed in the result's own register when it
  // has one (unless b lives there), with b as an immediate, register or slot.
  bool int_binop(const Ins& in, Ref i) {
    bool logic = in.op == IrOp::band || in.op == IrOp::bor || in.op == IrOp::bxor;
    if (!logic && in.op != IrOp::add && in.op != IrOp::sub && in.op != IrOp::mul) return false;
    bool w32 = !logic && (in.t == CT::i32 || in.t == CT::u32);  // logic ops keep the representation
    Ref A = in.a, B = in.b;
    bool commutes = in.op != IrOp::sub;
    if (commutes && in_reg(i) && in_reg(B) && reg[B] == reg[i] && !t.is_const(A)) std::swap(A, B);
    x86::Gp D = in_reg(i) && !(in_reg(B) && reg[B] == reg[i]) ? home(i) : x86::Gp(x86::rax);
    x86::Gp Dw = w32 ? x86::Gp(D.r32()) : D;
    ld(D, A);
    auto op = [&](const auto& B) {
      switch (in.op) {
        case IrOp::add: a.add(Dw, B); break;
        case IrOp::sub: a.sub(Dw, B); break;
        case IrOp::mul: a.imul(Dw, B); break;
        case IrOp::band: a.and_(Dw, B); break;
        case IrOp::bor: a.or_(Dw, B); break;
        default: a.xor_(Dw, B); break;
      }
    };
    int64_t k = t.is_const(B) ? t.ins[B].k : 0;
    if (t.is_const(B) && k == (int32_t)k) {
      if (in.op == IrOp::mul) a.imul(Dw, Dw, Imm(k));
      else op(Imm(k));
    } else if (in_reg(B)) {
      op(w32 ? x86::Gp(home(B).r32()) : home(B));
    } else if (!t.is_const(B)) {
      op(w32 ? x86::dword_ptr(x86::rsp, 8 * B) : slot(B));
    } else {
      ld(x86::rcx, B);
      op(w32 ? x86::Gp(x86::ecx) : x86::Gp(x86::rcx));
    }
    if (w32 && in.t == CT::i32) a.movsxd(D, D.r32());
    if (D.id() == x86::Gp::kIdAx) st(i);
    return true;
  }
  // Integer division family inline (the guard before it ruled out b == 0):
  // idiv/div, then Python's floor corrections, and x / -1 and x % -1
  // without idiv's overflow trap (interp_ops.h's rules).
  bool divide(const Ins& in, Ref i) {
    bool w32 = in.t == CT::i32 || in.t == CT::u32, sg = is_signed(in.t);
    x86::Gp A = w32 ? x86::Gp(x86::eax) : x86::Gp(x86::rax), C = w32 ? x86::Gp(x86::ecx) : x86::Gp(x86::rcx),
            D = w32 ? x86::Gp(x86::edx) : x86::Gp(x86::rdx);
    bool is_div = in.op == IrOp::div || in.op == IrOp::floordiv;
    ld(x86::rax, in.a);
    ld(x86::rcx, in.b);
    Label done = a.newLabel(), normal = a.newLabel();
    bool maybe_m1 = sg && !(t.is_const(in.b) && t.ins[in.b].k != -1);
    if (maybe_m1) {
      a.cmp(C, -1);
      a.jne(normal);
      if (is_div) a.neg(A);
      else a.xor_(x86::eax, x86::eax);
      a.jmp(done);
      a.bind(normal);
    }
    if (sg) {
      w32 ? a.cdq() : a.cqo();
      a.idiv(D, A, C);
    } else {
      a.xor_(x86::edx, x86::edx);
      a.div(D, A, C);
    }
    if (!is_div) a.mov(A, D);
    if (sg && (in.op == IrOp::mod || in.op == IrOp::floordiv)) {
      // The remainder is nonzero and its sign differs from b's: floor it.
      a.test(D, D);
      a.jz(done);
      a.xor_(D, C);
      a.jns(done);
      if (in.op == IrOp::mod) a.add(A, C);
      else a.sub(A, 1);
    }
    a.bind(done);
    fix32(in.t);
    st(i);
    return true;
  }

  bool float_binop(const Ins& in, Ref i) {
    bool s = in.t == CT::f32;
    ldx(x86::xmm0, in.a, in.t);
    ldx(x86::xmm1, in.b, in.t);
    switch (in.op) {
      case IrOp::add: s ? a.addss(x86::xmm0, x86::xmm1) : a.addsd(x86::xmm0, x86::xmm1); break;
      case IrOp::sub: s ? a.subss(x86::xmm0, x86::xmm1) : a.subsd(x86::xmm0, x86::xmm1); break;
      case IrOp::mul: s ? a.mulss(x86::xmm0, x86::xmm1) : a.mulsd(x86::xmm0, x86::xmm1); break;
      case IrOp::div: s ? a.divss(x86::xmm0, x86::xmm1) : a.divsd(x86::xmm0, x86::xmm1); break;
      default: return false;
    }
    stx(i, x86::xmm0, in.t);
    return true;
  }
  void compare(const Ins& in, Ref i) {
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
  bool conv(const Ins& in, Ref i) {
    ld(x86::rax, in.a);
    switch ((bc::Op)in.k) {
      case bc::Op::sext8: a.movsx(x86::rax, x86::al); break;
      case bc::Op::sext16: a.movsx(x86::rax, x86::ax); break;
      case bc::Op::sext32: a.movsxd(x86::rax, x86::eax); break;
      case bc::Op::zext8: a.movzx(x86::eax, x86::al); break;
      case bc::Op::zext16: a.movzx(x86::eax, x86::ax); break;
      case bc::Op::zext32: a.mov(x86::eax, x86::eax); break;
      case bc::Op::i64_f32: a.xorps(x86::xmm0, x86::xmm0); a.cvtsi2ss(x86::xmm0, x86::rax); a.movd(x86::eax, x86::xmm0); break;
      case bc::Op::i64_f64: a.xorps(x86::xmm0, x86::xmm0); a.cvtsi2sd(x86::xmm0, x86::rax); a.movq(x86::rax, x86::xmm0); break;
      case bc::Op::f32_f64: a.movd(x86::xmm0, x86::eax); a.cvtss2sd(x86::xmm0, x86::xmm0); a.movq(x86::rax, x86::xmm0); break;
      case bc::Op::f64_f32: a.movq(x86::xmm0, x86::rax); a.cvtsd2ss(x86::xmm0, x86::xmm0); a.movd(x86::eax, x86::xmm0); break;
      default: return false;
    }
    st(i);
    return true;
  }
  // The address from its register when it has one, else through rax.
  x86::Gp address(Ref r) {
    if (in_reg(r)) return home(r);
    ld(x86::rax, r);
    return x86::rax;
  }
  void load(const Ins& in, Ref i) {
    x86::Gp P = address(in.a);
    x86::Gp D = in_reg(i) ? home(i) : x86::Gp(x86::rax);
    switch ((Prim)in.k) {
      case Prim::i8: a.movsx(D, x86::byte_ptr(P)); break;
      case Prim::i16: a.movsx(D, x86::word_ptr(P)); break;
      case Prim::i32: a.movsxd(D, x86::dword_ptr(P)); break;
      case Prim::u8: a.movzx(D.r32(), x86::byte_ptr(P)); break;
      case Prim::u16: a.movzx(D.r32(), x86::word_ptr(P)); break;
      case Prim::u32: case Prim::f32: a.mov(D.r32(), x86::dword_ptr(P)); break;  // zero-extends
      case Prim::i64: case Prim::u64: case Prim::f64: a.mov(D, x86::qword_ptr(P)); break;
      default:
        a.mov(x86::rdi, P);
        a.mov(x86::esi, Imm(in.k));
        call((const void*)&load_prim);
        D = x86::rax;
    }
    if (D.id() == x86::Gp::kIdAx) st(i);
  }
  void store(const Ins& in) {
    x86::Gp P = address(in.a);
    x86::Gp V = in_reg(in.b) ? home(in.b) : x86::Gp(x86::rcx);
    if (!in_reg(in.b)) ld(x86::rcx, in.b);
    switch ((Prim)in.k) {
      case Prim::i8: case Prim::u8: a.mov(x86::byte_ptr(P), V.r8()); break;
      case Prim::i16: case Prim::u16: a.mov(x86::word_ptr(P), V.r16()); break;
      case Prim::i32: case Prim::u32: case Prim::f32: a.mov(x86::dword_ptr(P), V.r32()); break;
      case Prim::i64: case Prim::u64: case Prim::f64: a.mov(x86::qword_ptr(P), V); break;
      default:
        a.mov(x86::rdi, P);
        a.mov(x86::rsi, V);
        a.mov(x86::edx, Imm(in.k));
        call((const void*)&store_prim);
    }
  }
  void atomic(const Ins& in, Ref i) {
    Prim p = (Prim)(in.k & 0xff);
    int aop = (int)(in.k >> 8);  // sem::AOp: add, sub, ...
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
      put(i, x86::rcx);
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
      put(i, x86::rax);  // the old value (a 32-bit load zero-extended it)
      return;
    }
    ld(x86::rdi, in.a);
    ld(x86::rsi, in.b);
    a.mov(x86::rdx, Imm(in.k));
    call((const void*)&atomic_call);
    st(i);
  }
  // cmp a, b: a from its register (or rax), b as an immediate, its register
  // or its slot.
  void cmp_values(Ref av, Ref b) {
    x86::Gp A = in_reg(av) ? home(av) : x86::Gp(x86::rax);
    if (!in_reg(av)) ld(x86::rax, av);
    if (t.is_const(b) && t.ins[b].k == (int32_t)t.ins[b].k) a.cmp(A, Imm(t.ins[b].k));
    else if (in_reg(b)) a.cmp(A, home(b));
    else if (!t.is_const(b)) a.cmp(A, slot(b));
    else {
      ld(x86::rcx, b);
      a.cmp(A, x86::rcx);
    }
  }
  // May the compare at i become the flags of the guard right after it?
  // (Its only use, and no float ==/!= which need two flags.)
  bool fusible(Ref i) {
    const Ins& c = t.ins[i];
    if (uses[i] != 1 || (is_float(c.t) && (c.op == IrOp::eq || c.op == IrOp::ne))) return false;
    for (Ref j = i + 1; j < (Ref)t.ins.size(); j++) {
      const Ins& g = t.ins[j];
      if (!g.live || g.op == IrOp::kval) continue;
      return (g.op == IrOp::guard_nz || g.op == IrOp::guard_z) && g.a == i;
    }
    return false;
  }
  // A guard on a fused compare: compare, then leave when it does not hold.
  void fused_guard(const Ins& g, const Ins& c) {
    Label exit = exits[g.snap];
    bool want = g.op == IrOp::guard_nz;  // the compare must be true to stay
    using CC = x86::CondCode;
    CC stay;
    if (is_float(c.t)) {
      bool s = c.t == CT::f32;
      ldx(x86::xmm0, c.a, c.t);
      ldx(x86::xmm1, c.b, c.t);
      s ? a.ucomiss(x86::xmm1, x86::xmm0) : a.ucomisd(x86::xmm1, x86::xmm0);
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
    a.j(want ? x86::negateCond(stay) : stay, exit);
  }

  void guard(const Ins& in) {
    Label exit = exits[in.snap];
    if (in.a >= 0 && fused[in.a]) {
      fused_guard(in, t.ins[in.a]);
      return;
    }
    if (in.op == IrOp::guard_ult) {
      cmp_values(in.a, in.b);
      a.jae(exit);
      return;
    }
    ld(x86::rax, in.a);
    {
      a.test(x86::rax, x86::rax);
      if (in.op == IrOp::guard_nz) a.jz(exit);
      else a.jnz(exit);
    }
  }

  // The phis as one parallel move: a move runs once no pending move still
  // reads its destination; a cycle is broken through a spare slot.
  void back_edge(std::vector<std::pair<Ref, Ref>> moves) {
    auto same = [&](Ref x, Ref y) {
      if (x == y) return true;
      return in_reg(x) && in_reg(y) && reg[x] == reg[y];
    };
    auto reads = [&](Ref loc) {
      for (auto& m : moves)
        if (same(m.second, loc)) return true;
      return false;
    };
    const Ref spare = (Ref)t.ins.size();  // the frame has one slot per phi beyond the IR
    while (!moves.empty()) {
      bool progress = false;
      for (size_t j = 0; j < moves.size(); j++) {
        auto [dst, src] = moves[j];
        moves.erase(moves.begin() + (long)j);
        if (!reads(dst)) {
          if (!same(dst, src)) {
            if (in_reg(dst) && !t.is_const(src)) {
              ld(home(dst), src);
            } else {
              ld(x86::rax, src);
              put(dst, x86::rax);
            }
          }
          progress = true;
          break;
        }
        moves.insert(moves.begin() + (long)j, {dst, src});
      }
      if (progress) continue;
      // Every destination is still read: park one source in the spare slot.
      auto& m = moves.front();
      ld(x86::rax, m.second);
      a.mov(slot(spare), x86::rax);
      Ref parked = m.second;
      for (auto& mm : moves)
        if (same(mm.second, parked)) mm.second = spare;
      reg.resize(std::max<size_t>(reg.size(), spare + 1), -1);
    }
  }

  std::string body(Label epilogue) {
    uses.assign(t.ins.size(), 0);
    fused.assign(t.ins.size(), false);
    for (const Ins& in : t.ins) {
      if (!in.live) continue;
      for (Ref r : {in.a, in.b, in.c})
        if (r >= 0) uses[r]++;
      if (in.snap >= 0)
        for (auto& [reg, ref] : t.snaps[in.snap].regs) uses[ref]++;
    }
    Label top;
    std::vector<std::pair<Ref, Ref>> phis;
    for (Ref i = 0; i < (Ref)t.ins.size(); i++) {
      const Ins& in = t.ins[i];
      if (!in.live) continue;
      switch (in.op) {
        case IrOp::kval: break;
        case IrOp::sload: a.mov(x86::rax, x86::qword_ptr(x86::rbx, 8 * (int32_t)in.k)); st(i); break;
        case IrOp::arg:
        case IrOp::base: {
          int32_t off = in.op == IrOp::arg ? offsetof(TraceEnv, args) : offsetof(TraceEnv, tree_bases);
          a.mov(x86::rax, x86::qword_ptr(x86::r12, off));
          a.mov(x86::rax, x86::qword_ptr(x86::rax, 8 * (int32_t)in.k));
          st(i);
          break;
        }
        case IrOp::gtemp:
          a.mov(x86::rax, x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, temps)));
          a.add(x86::rax, Imm(8 * in.k));
          st(i);
          break;
        case IrOp::copy: ld(x86::rax, in.a); st(i); break;
        case IrOp::add: case IrOp::sub: case IrOp::mul: case IrOp::band: case IrOp::bor: case IrOp::bxor:
          if (is_float(in.t) ? !float_binop(in, i) : !int_binop(in, i)) call_eval(in, i);
          break;
        case IrOp::div:
          if (is_float(in.t) ? !float_binop(in, i) : !divide(in, i)) call_eval(in, i);
          break;
        case IrOp::floordiv: case IrOp::mod: case IrOp::raw_mod:
          if (is_float(in.t) || !divide(in, i)) call_eval(in, i);
          break;
        case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne:
          if (fusible(i)) fused[i] = true;
          else compare(in, i);
          break;
        case IrOp::neg:
          ld(x86::rax, in.a);
          if (in.t == CT::f32) a.xor_(x86::eax, Imm(0x80000000u));
          else if (in.t == CT::f64) a.btc(x86::rax, Imm(63));
          else if (in.t == CT::i64 || in.t == CT::u64) a.neg(x86::rax);
          else { a.neg(x86::eax); fix32(in.t); }
          st(i);
          break;
        case IrOp::sqrt:
          ldx(x86::xmm0, in.a, in.t);
          in.t == CT::f32 ? a.sqrtss(x86::xmm0, x86::xmm0) : a.sqrtsd(x86::xmm0, x86::xmm0);
          stx(i, x86::xmm0, in.t);
          break;
        case IrOp::conv: if (!conv(in, i)) call_eval(in, i); break;
        case IrOp::sel:
          ld(x86::rax, in.a);
          ld(x86::rcx, in.b);
          ld(x86::rdx, in.c);
          a.test(x86::rax, x86::rax);
          a.cmovz(x86::rcx, x86::rdx);
          put(i, x86::rcx);
          break;
        case IrOp::load: load(in, i); break;
        case IrOp::store: store(in); break;
        case IrOp::atomic: atomic(in, i); break;
        case IrOp::rtcall:
          ld(x86::rdi, in.a);
          ld(x86::rsi, in.b);
          a.mov(x86::rdx, Imm(in.k));
          call((const void*)&rt_call);
          st(i);
          break;
        case IrOp::guard_nz: case IrOp::guard_z: case IrOp::guard_ult: guard(in); break;
        case IrOp::loop: top = a.newLabel(); a.bind(top); break;
        case IrOp::phi: phis.push_back({in.a, in.b}); break;
        default:
          if (kIrOps[(int)in.op].flags & P) call_eval(in, i);
          else return std::string("no code for ") + kIrOps[(int)in.op].name;
      }
    }
    if (!top.isValid()) return "trace has no loop";
    back_edge(phis);
    if (t.loop_snap >= 0) {  // Ctrl-C: leave at the loop head, the interpreter raises
      a.mov(x86::rax, x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, stop)));
      a.cmp(x86::byte_ptr(x86::rax), 0);
      a.jne(exits[t.loop_snap]);
    }
    a.jmp(top);
    // Side exits: the snapshot into the frame, then the resume pc.
    for (size_t s = 0; s < t.snaps.size(); s++) {
      a.bind(exits[s]);
      for (auto& [reg, ref] : t.snaps[s].regs) {
        ld(x86::rax, ref);
        a.mov(x86::qword_ptr(x86::rbx, 8 * (int32_t)reg), x86::rax);
      }
      a.mov(x86::eax, Imm(t.snaps[s].pc));
      a.jmp(epilogue);
    }
    return "";
  }
};

}  // namespace

std::string compile_trace(const Trace& t, JitRuntime& rt, Compiled& out, bool want_listing) {
  CodeHolder code;
  code.init(rt.environment());
  ThrowOnError eh;
  code.setErrorHandler(&eh);
  StringLogger logger;
  if (want_listing) code.setLogger(&logger);
  x86::Assembler a(&code);

  size_t nphi = 0;
  for (auto& in : t.ins) nphi += in.op == IrOp::phi;
  int64_t bytes = 8 * (int64_t)(t.ins.size() + nphi);
  if (bytes % 16 != 8) bytes += 8;  // 6 pushes + return address = 56: keep calls 16-aligned
  if (bytes > (1 << 20)) return "trace frame too large";

  const x86::Gp saved[] = {x86::rbp, x86::rbx, x86::r12, x86::r13, x86::r14, x86::r15};
  for (auto& r : saved) a.push(r);
  a.sub(x86::rsp, Imm(bytes));
  a.mov(x86::rbx, x86::rdi);
  a.mov(x86::r12, x86::rsi);

  Gen g{t, a, {}, allocate_registers(t)};
  for (size_t s = 0; s < t.snaps.size(); s++) g.exits.push_back(a.newLabel());
  Label epilogue = a.newLabel();
  std::string why = g.body(epilogue);
  if (!why.empty()) return why;
  a.bind(epilogue);
  a.add(x86::rsp, Imm(bytes));
  for (int j = 5; j >= 0; j--) a.pop(saved[j]);
  a.ret();
  if (!eh.msg.empty()) return "asmjit: " + eh.msg;

  out.code_size = code.codeSize();
  if (asmjit::Error e = rt.add(&out.fn, &code)) return std::string("asmjit: ") + DebugUtils::errorAsString(e);
  if (want_listing) out.listing = logger.data();
  return "";
}

}  // namespace kiln::jit
