// Moving values between their homes (asm.h): a general-purpose register, an
// xmm register, a stack slot, or a constant folded into the code.
#include <asmjit/x86.h>

#include <algorithm>
#include <optional>
#include <tuple>

#include "jit/asm.h"
#include "jit/sink.h"
#include "jit/trace.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

void Gen::xmov(const x86::Xmm& d, const x86::Xmm& s) { vex ? a.vmovaps(d, s) : a.movaps(d, s); }

void Gen::xload(const x86::Xmm& d, const x86::Mem& m, CT ct) {
  if (ct == CT::f32) vex ? a.vmovss(d, m) : a.movss(d, m);
  else vex ? a.vmovsd(d, m) : a.movsd(d, m);
}

void Gen::xstore(const x86::Mem& m, const x86::Xmm& s, CT ct) {
  if (ct == CT::f32) vex ? a.vmovss(m, s) : a.movss(m, s);
  else vex ? a.vmovsd(m, s) : a.movsd(m, s);
}

void Gen::gp_to_x(const x86::Xmm& d, const x86::Gp& g, CT ct) {
  if (ct == CT::f32) vex ? a.vmovd(d, g.r32()) : a.movd(d, g.r32());
  else vex ? a.vmovq(d, g.r64()) : a.movq(d, g.r64());
}

// movd zero-extends, as an f32 register representation needs.
void Gen::x_to_gp(const x86::Gp& g, const x86::Xmm& s, CT ct) {
  if (ct == CT::f32) vex ? a.vmovd(g.r32(), s) : a.movd(g.r32(), s);
  else vex ? a.vmovq(g.r64(), s) : a.movq(g.r64(), s);
}

void Gen::ld(const x86::Gp& reg, Ref r) {
  if (t.is_const(r)) {
    int64_t v = t.ins[r].k;
    if (v == 0) a.xor_(reg.r32(), reg.r32());
    else if (v > 0 && v <= 0xffffffffll) a.mov(reg.r32(), Imm(v));
    else a.mov(reg, Imm(v));
  } else if (in_gp(r)) {
    if (home(r).id() != reg.id()) a.mov(reg, home(r));
  } else if (in_xmm(r)) {
    x_to_gp(reg, xhome(r), al.fw[r] == 4 ? CT::f32 : CT::f64);
  } else if (al.fw[r] == 4) {  // (stx leaves an f32 slot's upper half as it was)
    a.mov(reg.r32(), x86::dword_ptr(x86::rsp, 8 * r));
  } else {
    a.mov(reg, slot(r));
  }
}

void Gen::ldx(const x86::Xmm& x, Ref r, CT ct) {
  if (in_xmm(r)) {
    if (xhome(r).id() != x.id()) xmov(x, xhome(r));
  } else if (in_gp(r)) {
    gp_to_x(x, home(r), ct);
  } else if (t.is_const(r)) {
    xload(x, kmem(r, ct), ct);
  } else {
    xload(x, ct == CT::f32 ? x86::dword_ptr(x86::rsp, 8 * r) : slot(r), ct);
  }
}

void Gen::put(Ref i, const x86::Gp& src) {
  if (in_gp(i)) {
    if (home(i).id() != src.id()) a.mov(home(i), src);
  } else if (in_xmm(i)) {
    gp_to_x(xhome(i), src, CT::f64);
  } else {
    a.mov(slot(i), src);
  }
}

void Gen::stx(Ref i, const x86::Xmm& x, CT ct) {
  if (in_xmm(i)) {
    if (xhome(i).id() != x.id()) xmov(xhome(i), x);
  } else if (in_gp(i)) {
    x_to_gp(home(i), x, ct);
  } else {  // an f32 in the low half (ld reads it as 32 bits, zero-extended)
    xstore(ct == CT::f32 ? x86::dword_ptr(x86::rsp, 8 * i) : slot(i), x, ct);
  }
}

void Gen::spill_to(const x86::Mem& m, Ref r) {
  if (in_xmm(r) && al.fw[r] == 8) {
    xstore(m, xhome(r), CT::f64);
    return;
  }
  // One store, not a move into rax and a store: every exit's flush is these.
  if (in_gp(r)) {
    a.mov(m, home(r));
    return;
  }
  if (t.is_const(r) && t.ins[r].k == (int64_t)(int32_t)t.ins[r].k) {  // a sign-extended imm32
    a.mov(m, Imm(t.ins[r].k));
    return;
  }
  ld(x86::rax, r);
  a.mov(m, x86::rax);
}

void Gen::recompute_for(const Snapshot& s) {
  std::vector<Ref> need;
  for (Ref r : needs[&s - t.snaps.data()])  // (s is one of t.snaps)
    if (r < (Ref)remat.size() && remat[r]) need.push_back(r);
  std::sort(need.begin(), need.end());  // operands before their users
  for (Ref r : need) recompute(r);
}

// A constant that no imm32 store writes goes through rax, loaded once for
// every register it fills: nbody's link back to the inner loop set its 48
// partials to -0.0f (0x80000000) with a load and a store each.
// Consecutive registers from consecutive stack slots, or filled with one
// constant, move as vectors (copy_qwords): nbody's exits wrote a split sum's
// 14 partials in slots with two instructions each, and its link the 48
// partials' -0.0 with one each, every outer i (docs/perf/nbody.md).
void Gen::flush(const Snapshot& s) {
  std::optional<int64_t> in_rax{std::nullopt};
  const auto& regs = s.regs;
  for (size_t j = 0; j < regs.size();) {
    auto [reg, ref] = regs[j];
    // The run from j: registers reg, reg + 1, ... from slots ref, ref + 1,
    // ... (alike in width), or each the same constant.
    size_t n = 1;
    auto next = [&](size_t n) -> bool {
      if (j + n >= regs.size() || regs[j + n].first != reg + n) return false;
      Ref r = regs[j + n].second;
      if (t.is_const(ref)) return t.is_const(r) && t.ins[r].k == t.ins[ref].k;
      return r == ref + (Ref)n && in_slot(r) && (al.fw[r] == 4) == (al.fw[ref] == 4);
    };
    if (t.is_const(ref) || in_slot(ref))
      while (next(n)) n++;
    const int32_t at = 8 * (int32_t)reg;
    if (t.is_const(ref) ? n >= 6 && fill_qwords(x86::rbx, at, (uint64_t)t.ins[ref].k, (int)n)
                        : n >= 3 && copy_qwords(x86::rbx, at, x86::rsp, 8 * ref, (int)n, al.fw[ref] == 4)) {
      in_rax.reset();
      j += n;
      continue;
    }
    j++;
    x86::Mem m = x86::qword_ptr(x86::rbx, at);
    if (t.is_const(ref) && t.ins[ref].k != (int64_t)(int32_t)t.ins[ref].k) {
      if (in_rax != t.ins[ref].k) ld(x86::rax, ref);
      in_rax = t.ins[ref].k;
      a.mov(m, x86::rax);
      continue;
    }
    if (!in_gp(ref) && !(in_xmm(ref) && al.fw[ref] == 8) && !t.is_const(ref)) in_rax.reset();  // (spill_to's load)
    spill_to(m, ref);
  }
  clean_upper();  // (once for all the runs)
}

// 8, 4 and 2 qwords a move (zmm0 where the trace may use AVX-512, ymm0,
// xmm0), the rest through rax. An f32 slot's upper half is whatever stx
// left there: its zeros come from a zero-masked load (k1, every other
// dword) or a blend with xmm1's zeros.
//
// The pieces are the frame's aligned blocks (register 8m .. 8m + 7, 4m ..
// 4m + 3, 2m, 2m + 1), whichever side the frame is on: one trace writes
// the frame and the next reads it at once (an exit's flush, then the side
// trace; a link's fill, then the root's entry), and a load the CPU can take
// from the store before it must lie within that one store. With pieces cut
// from each run's own start, nbody's entry read its partials (registers
// 14-28) across the link's stores of 13-20 and 21-28 and waited for them to
// reach the cache, every outer i (docs/perf/nbody.md, session 24).
static int frame_piece(int32_t reg, int left, int widest) {
  for (int w = widest; w > 1; w /= 2)
    if (reg % w == 0 && left >= w) return w;
  return 1;
}

bool Gen::copy_qwords(const x86::Gp& db, int32_t dd, const x86::Gp& sb, int32_t sd, int n, bool low32) {
  if (!vex) return false;
  const bool z = t.allow_zmm;
  if (low32 && z) {
    a.mov(x86::ecx, 0x5555);
    a.kmovw(x86::k1, x86::ecx);
  } else if (low32) {
    a.vpxor(x86::xmm1, x86::xmm1, x86::xmm1);
  }
  const int32_t reg0 = (db.id() == x86::Gp::kIdBx ? dd : sd) / 8;  // the frame side's first register
  for (int k = 0; k < n;) {
    const int w = frame_piece(reg0 + k, n - k, z ? 8 : 4);
    if (w == 1) {
      if (low32) a.mov(x86::eax, x86::dword_ptr(sb, sd + 8 * k));
      else a.mov(x86::rax, x86::qword_ptr(sb, sd + 8 * k));
      a.mov(x86::qword_ptr(db, dd + 8 * k), x86::rax);
      k++;
      continue;
    }
    x86::Vec v = w == 8 ? x86::Vec(x86::zmm0) : w == 4 ? x86::Vec(x86::ymm0) : x86::Vec(x86::xmm0);
    x86::Vec zero = w == 4 ? x86::Vec(x86::ymm1) : x86::Vec(x86::xmm1);
    x86::Mem from = x86::ptr(sb, sd + 8 * k, (uint32_t)(8 * w)), to = x86::ptr(db, dd + 8 * k, (uint32_t)(8 * w));
    if (low32 && z) a.k(x86::k1).z().vmovdqu32(v, from);
    else if (z) a.vmovdqu64(v, from);
    else a.vmovdqu(v, from);
    if (low32 && !z) a.vpblendd(v, v, zero, 0xaa);
    z ? a.vmovdqu64(to, v) : a.vmovdqu(to, v);
    upper_dirty |= w > 2;
    k += w;
  }
  return true;
}

bool Gen::fill_qwords(const x86::Gp& db, int32_t dd, uint64_t bits, int n) {
  if (!vex) return false;
  const bool z = t.allow_zmm;
  a.mov(x86::rax, Imm(bits));
  if (z) {
    a.vpbroadcastq(x86::zmm0, x86::rax);
  } else {
    a.vmovq(x86::xmm0, x86::rax);
    a.vpbroadcastq(x86::ymm0, x86::xmm0);
  }
  for (int k = 0; k < n;) {  // (on the frame's aligned blocks, as copy_qwords)
    const int w = frame_piece(dd / 8 + k, n - k, z ? 8 : 4);
    x86::Mem to = x86::ptr(db, dd + 8 * k, (uint32_t)(8 * w));
    if (w == 1) a.mov(to, x86::rax);
    else if (z) a.vmovdqu64(to, w == 8 ? x86::Vec(x86::zmm0) : w == 4 ? x86::Vec(x86::ymm0) : x86::Vec(x86::xmm0));
    else a.vmovdqu(to, w == 4 ? x86::Vec(x86::ymm0) : x86::Vec(x86::xmm0));
    k += w;
  }
  upper_dirty = true;
  return true;
}

void Gen::move(Ref dst, Ref src) {
  if (same_home(dst, src)) return;
  if (in_xmm(dst)) ldx(xhome(dst), src, al.fw[src] == 4 ? CT::f32 : CT::f64);  // the representation as is
  else if (in_gp(dst)) ld(home(dst), src);
  else spill_to(slot(dst), src);
}

// The caller-saved registers holding values still read after this
// instruction are saved around it in the frame (xmm ones at xsave, general
// ones at gsave), and only then are the arguments loaded: rsi and rdi may
// be the homes of values the call must keep, or of its arguments.
void Gen::call(const void* fn, const std::function<void()>& args) {
  bool keep[kNumXmm] = {}, keep_gp[kNumGp] = {};
  for (Ref v = 0; v < at; v++)
    if (al.reg[v] >= 0 && al.last[v] > at) (in_xmm(v) ? keep : keep_gp)[al.reg[v]] = true;
  for (int j = 0; j < kNumXmm; j++)
    if (keep[j]) xstore(x86::qword_ptr(x86::rsp, xsave + 8 * j), x86::xmm(kFirstXmm + j), CT::f64);
  for (int j = kFirstCallerSaved; j < kNumGp; j++)
    if (keep_gp[j]) a.mov(x86::qword_ptr(x86::rsp, gsave + 8 * j), x86::Gpq(kAllocatable[j]));
  args();
  a.mov(x86::rax, Imm((uint64_t)(uintptr_t)fn));
  a.call(x86::rax);
  for (int j = kFirstCallerSaved; j < kNumGp; j++)
    if (keep_gp[j]) a.mov(x86::Gpq(kAllocatable[j]), x86::qword_ptr(x86::rsp, gsave + 8 * j));
  for (int j = 0; j < kNumXmm; j++)
    if (keep[j]) xload(x86::xmm(kFirstXmm + j), x86::qword_ptr(x86::rsp, xsave + 8 * j), CT::f64);
  load_kregs();  // (none before the loop's head; after it, a call may return into the loop)
}

// x through rax: its home may be rsi, which y's load overwrites (and y's
// may be rdi).
void Gen::arg_pair(Ref x, Ref y) {
  ld(x86::rax, x);
  if (y >= 0) ld(x86::rsi, y);
  else a.xor_(x86::esi, x86::esi);
  a.mov(x86::rdi, x86::rax);
}

void Gen::call_eval(const Ins& in, Ref i) {
  call((const void*)&eval_call, [&] {
    arg_pair(in.a, in.b);
    a.mov(x86::rdx, Imm((uint64_t)in.op | (uint64_t)in.t << 8 | (uint64_t)in.k << 16));
  });
  st(i);
}

// Fixes a 32-bit result in eax to the register representation.
void Gen::fix32(CT ct) {
  if (ct == CT::i32) a.movsxd(x86::rax, x86::eax);
  // u32: writing eax already zeroed the upper half
}

// cmp a, b: a from its register (or rax), b as an immediate, its register
// or its slot.
void Gen::cmp_values(Ref av, Ref b) {
  x86::Gp A = gp_of(av, x86::rax);
  if (t.is_const(b) && t.ins[b].k == (int32_t)t.ins[b].k) a.cmp(A, Imm(t.ins[b].k));
  else if (in_gp(b)) a.cmp(A, home(b));
  else if (!t.is_const(b) && !in_xmm(b) && al.fw[b] != 4) a.cmp(A, slot(b));
  else {
    ld(x86::rcx, b);
    a.cmp(A, x86::rcx);
  }
}

// The address from its register when it has one, else through rax.
x86::Gp Gen::address(Ref r) {
  if (r < (Ref)addrfold.size() && addrfold[r]) {
    a.lea(x86::rax, memory_at(r, 0));
    return x86::rax;
  }
  if (in_gp(r)) return home(r);
  ld(x86::rax, r);
  return x86::rax;
}

// A folded `add X, #c` (SinkPlan::addrfold) is [X + c]: no register holds it.
x86::Mem Gen::memory_at(Ref r, uint32_t size) {
  int32_t disp = 0;
  if (r < (Ref)addrfold.size() && addrfold[r]) std::tie(r, disp) = folded_address(t, r);
  x86::Gp base = x86::rax;
  if (in_gp(r)) base = home(r);
  else ld(x86::rax, r);
  return x86::ptr(base, disp, size);
}

}  // namespace kiln::jit
