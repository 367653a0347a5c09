// The integer operations of the trace IR as x86-64 (asm.h), with the
// interpreter's rules at the edges: add/sub/mul/and/or/xor, shifts by a
// constant count (counts of the width or more), division and remainder by
// constants (multiply-high; Python's floor rules) and the general division
// (its zero and overflow checks). asm_ops.cpp has the float, memory, select
// and guard operations.
#include <asmjit/x86.h>

#include <optional>
#include <utility>

#include "jit/asm.h"
#include "jit/backend.h"
#include "jit/div_magic.h"
#include "jit/sink.h"
#include "jit/trace.h"
#include "vm/types/type.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

static std::optional<DivMagic> floor_divide32_magic(const Trace& t, const Ins& in);

// add/sub/mul/and/or/xor, computed in the result's own register when it
// has one (unless b lives there), with b as an immediate, register or slot.
bool Gen::int_binop(const Ins& in, Ref i) {
  bool logic = in.op == IrOp::band || in.op == IrOp::bor || in.op == IrOp::bxor;
  bool shift = in.op == IrOp::shl || in.op == IrOp::shr || in.op == IrOp::sar;
  if (shift) return const_shift(in, i);
  if (Ref x = lowest_bit_cleared(t, in); x >= 0 && blsrfold[in.a == x ? in.b : in.a]) {
    x86::Gp D = in_gp(i) ? home(i) : x86::Gp(x86::rax);
    a.blsr(D, gp_of(x, D));
    if (D.id() == x86::Gp::kIdAx) st(i);
    return true;
  }
  if (!logic && in.op != IrOp::add && in.op != IrOp::sub && in.op != IrOp::mul) return false;
  if (in.op == IrOp::add && in.a >= 0 && in.b >= 0 && (scalefold[in.a] || scalefold[in.b])) {  // base + x * 2/4/8 as one lea
    Ref M = scalefold[in.b] ? in.b : in.a, B = M == in.b ? in.a : in.b;
    auto [x, shift] = index_scale(t, t.ins[M]);
    x86::Gp D = in_gp(i) ? home(i) : x86::Gp(x86::rax);
    x86::Gp Bx = gp_of(B, x86::rax), X = gp_of(x, x86::rcx);
    a.lea(D, x86::ptr(Bx, X, (uint32_t)shift));
    if (D.id() == x86::Gp::kIdAx) st(i);
    return true;
  }
  // (logic ops keep the representation; an add that cannot wrap runs in 64 bits)
  bool w32 = !logic && (in.t == CT::i32 || in.t == CT::u32) && !nowrap[i];
  Ref A = in.a, B = in.b;
  bool commutes = in.op != IrOp::sub;
  if (commutes && in_gp(i) && in_gp(B) && same_home(B, i) && !t.is_const(A)) std::swap(A, B);
  x86::Gp D = in_gp(i) && !(in_gp(B) && same_home(B, i)) ? home(i) : x86::Gp(x86::rax);
  x86::Gp Dw = w32 ? x86::Gp(D.r32()) : D;
  int64_t k = t.is_const(B) ? t.ins[B].k : 0;
  bool kimm = t.is_const(B) && k == (int32_t)k;
  // A constant times or plus a value in another register: one three-operand
  // imul or lea instead of a copy into the result's register first (a
  // struct-for's row address, b * stride + table, is one of each).
  // A multiply by 2, 4 or 8 (64-bit: a cell's offset in a word row, a bit
  // number times the cell size) or by 3, 5 or 9 (x + x * 2, 4, 8, from
  // where x lives: Collatz's 3 * n + 1) is a lea: one cycle where imul
  // takes three, and both wrap alike.
  bool scaled = k == 2 || k == 4 || k == 8, plus_scaled = k == 3 || k == 5 || k == 9;
  if (kimm && in.op == IrOp::mul && ((scaled && !w32 && in_gp(A)) || plus_scaled)) {
    if (scaled) {
      a.lea(D, x86::ptr(0, home(A), k == 2 ? 1u : k == 4 ? 2u : 3u));
    } else {
      x86::Gp H = gp_of(A, D);
      x86::Gp Hw = w32 ? x86::Gp(H.r32()) : H;
      a.lea(Dw, x86::ptr(Hw, Hw, k == 3 ? 1 : k == 5 ? 2 : 3));
      if (w32 && in.t == CT::i32 && !low32[i]) a.movsxd(D, D.r32());
    }
    if (D.id() == x86::Gp::kIdAx) st(i);
    return true;
  }
  if (kimm && (in.op == IrOp::mul || in.op == IrOp::add) && in_gp(A) && !same_home(A, i)) {
    x86::Gp H = home(A);
    if (in.op == IrOp::mul) a.imul(Dw, w32 ? x86::Gp(H.r32()) : H, Imm(k));
    else a.lea(Dw, x86::ptr(H, (int32_t)k));
    if (w32 && in.t == CT::i32 && !low32[i]) a.movsxd(D, D.r32());
    if (D.id() == x86::Gp::kIdAx) st(i);
    return true;
  }
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
  if (kimm) {
    if (in.op == IrOp::mul) a.imul(Dw, Dw, Imm(k));
    else op(Imm(k));
  } else if (in_gp(B)) {
    op(w32 ? x86::Gp(home(B).r32()) : home(B));
  } else if (!t.is_const(B) && !in_xmm(B) && (w32 || al.fw[B] != 4)) {  // (an f32 slot: its low half)
    op(w32 ? x86::dword_ptr(x86::rsp, 8 * B) : slot(B));
  } else {
    ld(x86::rcx, B);
    op(w32 ? x86::Gp(x86::ecx) : x86::Gp(x86::rcx));
  }
  if (w32 && in.t == CT::i32 && !low32[i]) a.movsxd(D, D.r32());
  if (D.id() == x86::Gp::kIdAx) st(i);
  return true;
}

// The i32 adds, subtracts and multiplies whose every reader uses only the
// low half of the register: 32-bit adds, subtracts and multiplies, stores
// of 32 bits or less, floor_divide32, masks by a constant below 2^31. Their results skip the movsxd that
// re-extends a 32-bit op's result (sparse_lists' `(v * 3 + i) % 1001` had
// two). Not a value an exit, a phi, a sunk or fused reader or a vector loop
// reads (those take the 64-bit representation).
RefFlags low_half_only(const Trace& t, const RefFlags& sunk, const RefFlags& fused, bool lanes) {
  const Ref n = (Ref)t.ins.size();
  RefFlags low(ref_slots(t), 0);
  if (lanes) return low;
  auto w32op = [](const Ins& in) {
    return (in.op == IrOp::add || in.op == IrOp::sub || in.op == IrOp::mul) && (in.t == CT::i32 || in.t == CT::u32);
  };
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    low[i] = in.live && !sunk[i] && !fused[i] && i != t.loop_ref && in.t == CT::i32 && w32op(in);
  }
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    bool ok = !sunk[i] && !fused[i];
    if (in.op == IrOp::store) {
      Prim p = (Prim)in.k;
      ok &= in.a != in.b && (p == Prim::i32 || p == Prim::u32 || p == Prim::i16 || p == Prim::u16 || p == Prim::i8 ||
                             p == Prim::u8);
      for (Ref r : {in.a, in.c})  // (an address)
        if (r >= 0) low[r] = 0;
      if (in.b >= 0 && !ok) low[in.b] = 0;
      continue;
    }
    // (x & k for a constant k in [0, 2^31) reads x's low 31 bits: the
    // 64-bit `and` clears the rest, whatever the upper half held.)
    bool low_mask = in.op == IrOp::band && t.is_const(in.b) && (uint64_t)t.ins[in.b].k < (1ull << 31) && in.a != in.b;
    ok &= w32op(in) || low_mask || (floor_divide32_magic(t, in) && in.b != in.a);
    for (Ref r : {in.a, in.b, in.c})
      if (r >= 0 && !ok) low[r] = 0;
  }
  for (const Snapshot& s : t.snaps) {
    for (auto& [reg, ref] : s.regs) low[ref] = 0;
    if (s.pc_ref >= 0) low[s.pc_ref] = 0;
  }
  return low;
}

// The i32 `x + 1`s that cannot wrap: every value x has here passed a guard
// `x < E` (a signed i32 compare, so x <= INT32_MAX - 1). Such an add runs in
// 64 bits on the sign-extended x and needs no movsxd after it: a loop
// counter's `add ebp, 1; movsxd rbp, ebp` is a two-cycle chain per
// iteration (serial_loops' sq_mod ran 1.4x the C++ on it, issue 16). The
// guard on x: an earlier one in the same part of the trace (a `while i < n`
// loop's, at the top of its body); for a counter carried by a phi into the
// body, also the first iteration's guard on x with the body's on the value
// the phi carries back (a range-for's, at the end of its body). Side traces
// re-enter at the trace's start, through the first iteration's guards.
RefFlags adds_without_wrap(const Trace& t, bool lanes) {
  const Ref n = (Ref)t.ins.size();
  RefFlags nw(ref_slots(t), 0);
  if (lanes || t.loop_ref < 0) return nw;
  // pre[x], body[x]: the first guard `x < E` (i32) before the loop and in
  // its body, or -1.
  ScratchVec<Ref> pre(n, -1), body(n, -1);
  for (Ref g = 0; g < n; g++) {
    const Ins& gi = t.ins[g];
    if (!gi.live || gi.op != IrOp::guard_nz || gi.a < 0) continue;
    const Ins& c = t.ins[gi.a];
    if (c.op != IrOp::lt || c.t != CT::i32 || c.a < 0 || t.ins[c.a].t != CT::i32) continue;
    ScratchVec<Ref>& first = g < t.loop_ref ? pre : body;
    if (first[c.a] < 0) first[c.a] = g;
  }
  ScratchVec<Ref> carried(n, -1);  // x -> the value a phi carries into it
  for (Ref p = t.loop_ref + 1; p < n; p++)
    if (t.ins[p].live && t.ins[p].op == IrOp::phi && t.ins[p].a >= 0) carried[t.ins[p].a] = t.ins[p].b;
  auto checked = [&](Ref x, Ref at) {
    if (at < t.loop_ref) return pre[x] >= 0 && pre[x] < at;
    if (body[x] >= 0 && body[x] < at) return true;  // this iteration's x, checked before
    if (x > t.loop_ref || pre[x] < 0) return false;
    // a value from before the loop: its first value checked there, and the
    // value a phi carries back into it (if any) checked in the body
    Ref v = carried[x];
    return v < 0 || (v > t.loop_ref && body[v] >= 0);
  };
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live || in.op != IrOp::add || in.t != CT::i32 || in.a < 0 || in.b < 0) continue;
    Ref x = t.is_const(in.b) && t.ins[in.b].k == 1 ? in.a : t.is_const(in.a) && t.ins[in.a].k == 1 ? in.b : kNoRef;
    nw[i] = x != kNoRef && x != i && t.ins[x].t == CT::i32 && checked(x, i);
  }
  return nw;
}

// The integer values that are >= 0 in their type: constants, the register
// the function says is (a range_for's index over constant bounds from >= 0,
// below its type's max: so is that plus 1), `x + 1`s of such values that
// cannot wrap (nowrap), masks by a constant >= 0, and
// floor `%` (`//` of a value >= 0) by a constant > 0. A value a phi carries
// around the loop is one only if what the phi brings back is too (then by
// induction over the iterations): assumed first, dropped where that fails.
RefFlags non_negative(const Trace& t, const RefFlags& nowrap) {
  const Ref n = (Ref)t.ins.size();
  RefFlags nn(ref_slots(t), 0), broken(n, 0);
  auto konst = [&](Ref r, int64_t lo) { return t.is_const(r) && t.ins[r].k >= lo; };
  for (;;) {
    for (Ref i = 0; i < n; i++) {
      const Ins& in = t.ins[i];
      bool int_t = in.t == CT::i32 || in.t == CT::i64;
      bool v = false;
      switch (in.op) {
        case IrOp::kval: v = in.k >= 0; break;
        case IrOp::sload: v = t.nonneg_reg != 0xffff && in.k == (int64_t)t.nonneg_reg; break;
        case IrOp::add: {
          bool reg1 = in.a >= 0 && t.ins[in.a].op == IrOp::sload && t.ins[in.a].k == (int64_t)t.nonneg_reg &&
                      t.is_const(in.b) && t.ins[in.b].k == 1;
          v = int_t && in.a >= 0 && nn[in.a] && konst(in.b, 0) && (nowrap[i] || reg1);
          break;
        }
        case IrOp::band: v = int_t && (konst(in.b, 0) || konst(in.a, 0) || (nn[in.a] && nn[in.b])); break;
        case IrOp::mod: v = int_t && konst(in.b, 1); break;
        case IrOp::floordiv: v = int_t && konst(in.b, 1) && in.a >= 0 && nn[in.a]; break;
        default: break;
      }
      nn[i] = v && !broken[i];
    }
    bool changed = false;
    if (t.loop_ref >= 0)
      for (Ref p = t.loop_ref + 1; p < n; p++) {
        const Ins& in = t.ins[p];
        if (in.op == IrOp::phi && in.live && in.a >= 0 && nn[in.a] && !(in.b >= 0 && nn[in.b])) {
          broken[in.a] = 1;
          changed = true;
        }
      }
    if (!changed) return nn;
  }
}

// A shift by a constant count, with the interpreter's rules for counts of
// the width or more (shl/shr give 0, sar the sign). The 32-bit forms work on
// the low half and re-extend as the type's representation wants.
bool Gen::const_shift(const Ins& in, Ref i) {
  if (!t.is_const(in.b)) return false;
  bool w32 = in.t == CT::i32 || in.t == CT::u32;
  uint64_t n = (uint64_t)t.ins[in.b].k, w = w32 ? 32 : 64;
  x86::Gp D = in_gp(i) ? home(i) : x86::Gp(x86::rax);
  x86::Gp Dw = w32 ? x86::Gp(D.r32()) : D;
  if (n >= w && in.op != IrOp::sar) {
    a.xor_(D.r32(), D.r32());
  } else {
    ld(D, in.a);
    uint32_t c = (uint32_t)(n >= w ? w - 1 : n);
    if (in.op == IrOp::shl) a.shl(Dw, c);
    else if (in.op == IrOp::shr) a.shr(Dw, c);
    else a.sar(Dw, c);
    if (w32 && in.t == CT::i32) a.movsxd(D, D.r32());
  }
  if (D.id() == x86::Gp::kIdAx) st(i);
  return true;
}

// rdx = x - q * d for the dividend x in rcx and the quotient q in rax.
void Gen::remainder(int64_t d) {
  if (d == (int32_t)d) a.imul(x86::rdx, x86::rax, Imm(d));
  else {
    a.mov(x86::rdx, Imm(d));
    a.imul(x86::rdx, x86::rax);
  }
  a.neg(x86::rdx);
  a.add(x86::rdx, x86::rcx);
}

// Python's floor `//` and `%` of an i32 by a constant d (|d| >= 2, not a
// positive power of two: those shift and mask), and u32's `//`/`%`: with
// x's sign s (0 or -1), floor(x / d) = s ^ ((x ^ s) / d) for d > 0, where
// x ^ s = x or -x - 1 lies in [0, 2^31), and that quotient is one 64-bit
// multiply by div_magic's m and a shift (no 128-bit product, no shrd). A
// negative d divides -x by -d (floor(x / d) == floor(-x / -d); -x of an i32
// fits the 64-bit register, x ^ s then below 2^32). The remainder is
// x - q * d. None where it does not apply (truncating ops, d = -1). It reads
// x's low half only (low_half_only).
static std::optional<DivMagic> floor_divide32_magic(const Trace& t, const Ins& in) {
  bool sg = in.t == CT::i32;
  if ((!sg && in.t != CT::u32) || !t.is_const(in.b)) return std::nullopt;
  int64_t d = t.ins[in.b].k;
  if (sg ? in.op != IrOp::floordiv && in.op != IrOp::mod : d < 1 || (in.op != IrOp::floordiv && in.op != IrOp::div &&
                                                                     in.op != IrOp::mod && in.op != IrOp::raw_mod))
    return std::nullopt;
  if (d == 0 || d == -1 || d >= (1ll << 31) || d < -(1ll << 31) || (d > 0 && (d & (d - 1)) == 0)) return std::nullopt;
  return div_magic(d < 0 ? (uint64_t)-d : (uint64_t)d, sg && d > 0 ? 31 : 32);
}

bool Gen::floor_divide32(const Ins& in, Ref i) {
  std::optional<DivMagic> mg = floor_divide32_magic(t, in);
  if (!mg) return false;
  bool sg = in.t == CT::i32, rem = in.op == IrOp::mod || in.op == IrOp::raw_mod;
  int64_t d = t.ins[in.b].k;
  x86::Gp X = gp_of(in.a, x86::rcx);
  // x >= 0 (a range-for's counter from 0) by d > 0: s is 0, no sign fix;
  // x's low half is then x, below 2^31, as div_magic's bound wants.
  if (sg && d > 0 && nonneg[in.a]) sg = false;
  sg ? a.movsxd(x86::rax, X.r32()) : a.mov(x86::eax, X.r32());
  if (d < 0) a.neg(x86::rax);
  if (sg) {
    a.cqo();  // rdx = s
    a.xor_(x86::rax, x86::rdx);
  }
  if (mg->m < (1ull << 31)) a.imul(x86::rax, x86::rax, Imm(mg->m));
  else a.imul(x86::rax, kbits(mg->m, CT::f64));  // (from the pool: rsi may hold a value)
  if (mg->k) a.shr(x86::rax, Imm(mg->k));
  if (sg) a.xor_(x86::rax, x86::rdx);  // rax = floor(x / d)
  if (!rem) {
    put(i, x86::rax);
    return true;
  }
  a.imul(x86::eax, x86::eax, Imm(d));
  x86::Gp R = in_gp(i) ? home(i) : x86::Gp(x86::rdx);  // x - q * d, in the result's register
  if (R.id() != X.id()) a.mov(R.r32(), X.r32());
  a.sub(R.r32(), x86::eax);  // (in [0, d) for d > 0: its upper half zero is its sign)
  if (d < 0) a.movsxd(R, R.r32());
  put(i, R);
  return true;
}

// 32-bit division by a constant d in [1, 2^31) without a divide: shift x to
// y = x + K*d >= 0 (y < 2^33), then floor(y / d) = (y * m) >> k with
// k = 33 + ceil(log2 d), m = floor(2^k / d) + 1 (exact for y < 2^33 since
// m*d - 2^k <= d <= 2^(k-33)); the 128-bit product comes from mul. The
// floor quotient and Python remainder give the truncating ones by one fix.
bool Gen::const_divide(const Ins& in, Ref i) {
  bool sg = in.t == CT::i32;
  if ((!sg && in.t != CT::u32) || !t.is_const(in.b)) return false;
  int64_t d = t.ins[in.b].k;
  if (floor_divide32(in, i)) return true;
  if (d < 1 || d >= (1ll << 31)) return false;
  int s = 0;
  while ((1ll << s) < d) s++;
  bool want_rem = in.op == IrOp::mod || in.op == IrOp::raw_mod;
  bool trunc = sg && (in.op == IrOp::div || in.op == IrOp::raw_mod);
  if (d == (1ll << s)) {  // a power of two (an ndrange over a field of 2^k columns): shifts and masks
    if (trunc) {  // toward zero: a negative x biased by d - 1 first
      x86::Gp x = gp_of(in.a, x86::rax);
      a.mov(x86::rdx, x);
      a.sar(x86::rdx, 63);
      a.and_(x86::rdx, Imm(d - 1));
      a.add(x86::rdx, x);
      if (!want_rem) {
        a.sar(x86::rdx, Imm(s));
        put(i, x86::rdx);
        return true;
      }
      a.and_(x86::rdx, Imm(-d));
      if (x.id() != x86::Gp::kIdAx) a.mov(x86::rax, x);
      a.sub(x86::rax, x86::rdx);  // x - trunc(x / d) * d
      put(i, x86::rax);
      return true;
    }
    ld(x86::rax, in.a);
    if (want_rem) {
      a.and_(x86::rax, Imm(d - 1));  // floor's remainder, or u32's
    } else {
      sg ? a.sar(x86::rax, Imm(s)) : a.shr(x86::rax, Imm(s));
    }
    put(i, x86::rax);
    return true;
  }
  int k = 33 + s;
  unsigned __int128 m128 = ((unsigned __int128)1 << k) / (uint64_t)d + 1;
  uint64_t m = (uint64_t)m128;
  int64_t K = sg ? ((1ll << 31) + d - 1) / d : 0;
  ld(x86::rcx, in.a);
  if (K) {  // (K * d is past an imm32: the bias goes in first, then x adds)
    a.mov(x86::rax, Imm(K * d));
    a.add(x86::rax, x86::rcx);
  } else {
    a.mov(x86::rax, x86::rcx);
  }
  a.mul(x86::rdx, x86::rax, kbits(m, CT::f64));  // (from the pool: rsi may hold a value)
  if (k == 64) a.mov(x86::rax, x86::rdx);
  else a.shrd(x86::rax, x86::rdx, Imm(k));
  if (K) a.sub(x86::rax, Imm(K));  // rax = floor(x / d) (K < 2^31: d >= 3 here)
  if (want_rem || trunc) {
    remainder(d);               // in [0, d)
    if (trunc) {                // toward zero: a negative x with a remainder
      Label done = a.newLabel();
      a.test(x86::rcx, x86::rcx);
      a.jns(done);
      a.test(x86::rdx, x86::rdx);
      a.jz(done);
      if (in.op == IrOp::div) a.add(x86::rax, 1);
      else a.sub(x86::rdx, Imm(d));
      a.bind(done);
    }
  }
  put(i, want_rem ? x86::rdx : x86::rax);
  return true;
}

// Integer division family inline (the guard before it ruled out b == 0):
// idiv/div, then Python's floor corrections, and x / -1 and x % -1
// without idiv's overflow trap (interp_ops.h's rules).
// 64-bit division by a constant d in [2, 2^62]: for 0 <= x < 2^63,
// floor(x / d) = (x * m) >> k with k = 63 + ceil(log2 d), m = floor(2^k / d)
// + 1 < 2^64; mul gives the high half. Floor and truncation agree there, and
// a negative x (rare in index and counter arithmetic) takes the divide.
bool Gen::const_divide64(const Ins& in, Ref i) {
  if ((in.t != CT::i64 && in.t != CT::u64) || !t.is_const(in.b)) return false;
  int64_t d = t.ins[in.b].k;
  if (d < 2 || d > (1ll << 62)) return false;
  int s = 0;
  while ((1ll << s) < d) s++;
  int k = 63 + s;
  uint64_t m = (uint64_t)(((unsigned __int128)1 << k) / (uint64_t)d + 1);
  Label slow = a.newLabel(), done = a.newLabel();
  x86::Gp x = gp_of(in.a, x86::rcx);
  a.test(x, x);
  a.js(slow);
  // m from the constant pool, not a `mov rax, imm64` each time: sq_mod's
  // loop ran 5% faster so (a .S copy of it, docs/perf/lanes.md)
  a.mov(x86::rax, x);
  a.mul(x86::rdx, x86::rax, kbits(m, CT::f64));
  if (k > 64) a.shr(x86::rdx, Imm(k - 64));  // rdx = the quotient
  if (in.op == IrOp::mod || in.op == IrOp::raw_mod) {
    x86::Gp r = in_gp(i) ? home(i) : x86::Gp(x86::rax);  // x - q * d, in the result's register
    // d = 2^j -+ 1 (3, 5, 7, 9, 15, ...): x -+ q - (q << j), no multiply
    // (the multiplier is what the loop waits on: sq_mod's `i * i % 7` had
    // three multiplies an iteration, g++'s code two).
    int j = 63 - __builtin_clzll((uint64_t)d);  // 2^j <= d < 2^(j+1), j <= 62
    bool plus1 = d == (1ll << j) + 1, minus1 = !plus1 && j < 62 && d == (1ll << (j + 1)) - 1;
    if (minus1 || plus1) {
      if (r.id() != x.id()) a.mov(r, x);
      minus1 ? a.add(r, x86::rdx) : a.sub(r, x86::rdx);
      a.shl(x86::rdx, minus1 ? j + 1 : j);
      a.sub(r, x86::rdx);
    } else {
      if (d == (int32_t)d) a.imul(x86::rdx, x86::rdx, Imm(d));
      else {
        a.mov(x86::rax, Imm(d));
        a.imul(x86::rdx, x86::rax);
      }
      if (r.id() != x.id()) a.mov(r, x);
      a.sub(r, x86::rdx);
    }
    put(i, r);
  } else {
    put(i, x86::rdx);
  }
  a.bind(done);
  // A negative x divides, out of the loop's way: the common path falls
  // through (no taken jump around this block on every iteration).
  const Ins* op = &in;
  cold.push_back([this, op, i, slow, done] {
    a.bind(slow);
    divide_general(*op, i);
    a.jmp(done);
  });
  return true;
}

bool Gen::divide(const Ins& in, Ref i) {
  if (const_divide(in, i) || const_divide64(in, i)) return true;
  return divide_general(in, i);
}

bool Gen::divide_general(const Ins& in, Ref i) {
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

}  // namespace kiln::jit
