// Bounds-guard hoisting (see bounds.h).
#include "jit/bounds.h"

#include <algorithm>
#include <optional>

namespace kiln::jit {

using bc::CT;

namespace {

struct Range {
  Ref lo, hi;     // exact i64 values
  int bits = 63;  // known: both lie in [-2^bits, 2^bits)
};

int bits_of(int64_t v) {
  int b = 0;
  while (b < 63 && (v < -(int64_t(1) << b) || v >= (int64_t(1) << b))) b++;
  return b;
}

struct Hoister {
  Trace& t;
  Emitter& e;
  const std::vector<bool>& variant;
  Ref iv = kNoRef;         // the counter's first-iteration sload
  Range iv_range{};        // its values in the body
  Ref covered_from = 0;    // guards at or after this ref see `iv < E`
  std::vector<std::pair<Ref, Ref>> conds;  // guard_ult a b, for the guard at hand

  Ref k(int64_t v) { return e.kval((uint64_t)v); }
  Ref op(IrOp o, Ref a, Ref b) { return e.emit(o, CT::i64, a, b); }
  // Checks that both ends lie in [-2^bits, 2^bits), unless that is known.
  void within(Range& r, int bits) {
    if (r.bits <= bits) return;
    for (Ref x : {r.lo, r.hi})
      conds.push_back({op(IrOp::add, x, k(int64_t(1) << bits)), k(int64_t(1) << (bits + 1))});
    r.bits = bits;
  }
  // The exact result of a body op of type ty fits it (so the op did not
  // wrap), and the next step's exact arithmetic cannot overflow.
  void fits(Range& r, CT ty) { within(r, ty == CT::i32 ? 31 : 61); }
  Range konst(int64_t v) { return konst2(v, v); }
  Range konst2(int64_t lo, int64_t hi) { return Range{k(lo), k(hi), std::max(bits_of(lo), bits_of(hi))}; }
  std::optional<int64_t> pos_const(Ref r, int64_t limit) {
    if (!t.is_const(r)) return std::nullopt;
    int64_t v = t.ins[r].k;
    if (v <= 0 || v >= limit) return std::nullopt;
    return v;
  }

  std::optional<Range> range(Ref r, int depth) {
    if (depth > 24) return std::nullopt;
    if (r == iv) return iv_range;
    const Ins in = t.ins[r];  // a copy: emitting grows the vector
    if (!variant[r]) {
      if (in.op == IrOp::kval) return konst(in.k);
      Range x{r, r};
      fits(x, CT::i64);
      return x;
    }
    if (in.t != CT::i32 && in.t != CT::i64) return std::nullopt;
    auto sub_range = [&](Ref x) { return range(x, depth + 1); };
    switch (in.op) {
      case IrOp::add: case IrOp::sub: case IrOp::max: case IrOp::min: {
        auto x = sub_range(in.a), y = sub_range(in.b);
        if (!x || !y) return std::nullopt;
        fits(*x, CT::i64);
        fits(*y, CT::i64);
        Range z;
        int bits = std::max(x->bits, y->bits) + 1;
        if (in.op == IrOp::add) z = {op(IrOp::add, x->lo, y->lo), op(IrOp::add, x->hi, y->hi), bits};
        else if (in.op == IrOp::sub) z = {op(IrOp::sub, x->lo, y->hi), op(IrOp::sub, x->hi, y->lo), bits};
        else z = {op(in.op, x->lo, y->lo), op(in.op, x->hi, y->hi), bits - 1};
        fits(z, in.t);
        return z;
      }
      case IrOp::mul: case IrOp::shl: {
        Ref var = in.a, kref = in.b;
        if (in.op == IrOp::mul && t.is_const(in.a)) std::swap(var, kref);
        auto c = pos_const(kref, in.op == IrOp::mul ? (1 << 20) : 20);
        if (!c) return std::nullopt;
        int64_t factor = in.op == IrOp::mul ? *c : int64_t(1) << *c;
        auto x = sub_range(var);
        if (!x) return std::nullopt;
        within(*x, 40);  // so the exact product stays below 2^60
        Range z{op(IrOp::mul, x->lo, k(factor)), op(IrOp::mul, x->hi, k(factor)), x->bits + bits_of(factor)};
        fits(z, in.t);
        return z;
      }
      case IrOp::div: case IrOp::floordiv: case IrOp::sar: {
        // Monotone non-decreasing for a positive divisor / any shift.
        auto c = pos_const(in.b, in.op == IrOp::sar ? 64 : INT64_MAX);
        if (!c) return std::nullopt;
        auto x = sub_range(in.a);
        if (!x) return std::nullopt;
        int shift = in.op == IrOp::sar ? (int)*c : bits_of(*c) - 1;  // c >= 2^shift
        return Range{op(in.op, x->lo, in.b), op(in.op, x->hi, in.b), std::max(0, x->bits - shift)};
      }
      case IrOp::mod: case IrOp::raw_mod: {
        // Python's mod by a positive m is in [0, m) for every dividend; C's
        // remainder only for a dividend >= 0.
        auto c = pos_const(in.b, INT64_MAX);
        if (!c) return std::nullopt;
        if (in.op == IrOp::raw_mod) {
          auto x = sub_range(in.a);
          if (!x) return std::nullopt;
          conds.push_back({x->lo, k(int64_t(1) << 62)});  // lo >= 0
        }
        return konst2(0, *c - 1);
      }
      case IrOp::band: {
        Ref kref = t.is_const(in.a) ? in.a : in.b;
        if (!t.is_const(kref) || t.ins[kref].k < 0) return std::nullopt;
        return konst2(0, t.ins[kref].k);  // x & c for c >= 0 is in [0, c]
      }
      default: return std::nullopt;
    }
  }

  // Finds the loop counter: a register the iteration bumps by one and whose
  // next (case A) or current (case B) value a guard keeps `lt` an invariant.
  bool find_counter(Ref n1, const std::vector<Ref>& end_regs) {
    for (size_t reg = 0; reg < end_regs.size(); reg++) {
      Ref next = end_regs[reg];
      if (next == kNoRef || next >= n1) continue;
      const Ins nx = t.ins[next];
      if (nx.op != IrOp::add || (nx.t != CT::i32 && nx.t != CT::i64)) continue;
      Ref s = t.is_const(nx.b) ? nx.a : nx.b, one = t.is_const(nx.b) ? nx.b : nx.a;
      if (!t.is_const(one) || t.ins[one].k != 1 || s < 0 || t.ins[s].op != IrOp::sload ||
          t.ins[s].k != (int64_t)reg)
        continue;
      for (Ref g = 0; g < n1; g++) {
        const Ins gi = t.ins[g];
        if (gi.op != IrOp::guard_nz) continue;
        const Ins c = t.ins[gi.a];
        if (c.op != IrOp::lt || c.t != nx.t || (c.a != next && c.a != s) || variant[c.b]) continue;
        iv = s;
        // Case A (the range-for's forl): at every body entry the counter
        // passed `next < E` the iteration before; case B (a while loop's
        // test at the top): guards after the test see it.
        covered_from = c.a == next ? 0 : g + 1;
        Ref e_minus_1 = op(IrOp::sub, c.b, k(1));
        iv_range = Range{next, e_minus_1, nx.t == CT::i32 ? 32 : 63};
        return true;
      }
    }
    return false;
  }
};

}  // namespace

std::vector<bool> hoist_bounds(Trace& t, Emitter& e, Ref n1, const std::vector<Ref>& end_regs,
                               const std::vector<bool>& variant, const Snapshot& head) {
  std::vector<bool> implied(n1, false);
  if (!t.hoist_bounds) return implied;
  Snapshot at_head = head;
  at_head.hoisted = true;
  Hoister h{t, e, variant};
  if (!h.find_counter(n1, end_regs)) return implied;
  for (Ref g = h.covered_from; g < n1; g++) {
    const Ins gi = t.ins[g];
    if (gi.op != IrOp::guard_ult || variant[gi.b] || !variant[gi.a]) continue;
    h.conds.clear();
    h.within(h.iv_range, 61);
    auto r = h.range(gi.a, 0);
    if (!r) continue;
    h.conds.push_back({gi.b, h.k(int64_t(1) << 62)});  // the bound is a sane size
    h.conds.push_back({r->lo, gi.b});  // 0 <= lo < bound (a negative lo is huge unsigned)
    h.conds.push_back({r->hi, gi.b});
    bool never = false;
    for (auto [a, b] : h.conds)
      if (t.is_const(a) && t.is_const(b) && (uint64_t)t.ins[a].k >= (uint64_t)t.ins[b].k) never = true;
    if (never) continue;  // it would always exit: keep the guard in the loop
    for (auto [a, b] : h.conds) e.guard(IrOp::guard_ult, a, b, at_head);
    implied[g] = true;
  }
  return implied;
}

}  // namespace kiln::jit
