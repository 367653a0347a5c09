// Fold/CSE on emit, loop peeling and DCE (see opt.h). LuaJIT's design, in
// small: no instruction is stored that an earlier one already computes, so
// the second (peeled) copy of the loop body keeps only what varies.
#include "jit/opt.h"

#include "jit/bounds.h"

#include <algorithm>
#include <cstring>

namespace kiln::jit {

using bc::CT;

namespace {
bool is64(CT t) { return t == CT::i64 || t == CT::u64; }
bool is_value_source(IrOp op) {
  return op == IrOp::kval || op == IrOp::sload || op == IrOp::arg || op == IrOp::base || op == IrOp::gtemp ||
         op == IrOp::faddr || op == IrOp::load;
}
// The bits of 1 / x when x (bits of type t, f32 or f64) is a power of two
// whose reciprocal is a normal number of that type.
bool exact_reciprocal(CT t, uint64_t bits, uint64_t& out) {
  const int mbits = t == CT::f32 ? 23 : 52, ebits = t == CT::f32 ? 8 : 11;
  const uint64_t emax = (uint64_t(1) << ebits) - 1, sign = uint64_t(1) << (mbits + ebits);
  if (t == CT::f32) bits &= 0xffffffffu;
  uint64_t mant = bits & ((uint64_t(1) << mbits) - 1), e = (bits >> mbits) & emax;
  // 2^(e - bias) -> 2^(bias - e), biased: 2 * bias - e = emax - 1 - e.
  if (mant != 0 || e == 0 || e >= emax - 1) return false;
  out = (bits & sign) | ((emax - 1 - e) << mbits);
  return true;
}
}  // namespace

size_t Emitter::CseTable::probe(const Key& k) const {
  const size_t mask = index_.size() - 1;
  // (KeyHash's low bits follow its inputs' low bits: float constants' are
  // mostly zero. Mix the high bits down.)
  uint64_t h = KeyHash{}(k) * 0x9e3779b97f4a7c15ull;
  size_t i = (h ^ (h >> 32)) & mask;
  while (index_[i] >= 0 && !(entries_[index_[i]].first == k)) i = (i + 1) & mask;
  return i;
}

size_t Emitter::CseTable::slot(const Key& k) {
  if (2 * (entries_.size() + 1) > index_.size()) {  // grow: index every entry again
    if (index_.empty()) entries_.reserve(128);
    size_t size = index_.empty() ? 256 : 2 * index_.size();
    index_.resize(size);
    std::memset(index_.data(), 0xff, size * sizeof(int32_t));  // every slot -1 (as one memset, not a loop)
    for (size_t e = 0; e < entries_.size(); e++) index_[probe(entries_[e].first)] = (int32_t)e;
  }
  return probe(k);
}

void Emitter::CseTable::put(size_t s, const Key& k, Ref r) {
  if (index_[s] >= 0) {
    entries_[index_[s]].second = r;
    return;
  }
  index_[s] = (int32_t)entries_.size();
  entries_.emplace_back(k, r);
}

Ref Emitter::lookup_or_add(const Key& key, const Ins& ins) {
  size_t s = cse_.slot(key);
  const Ref* hit = cse_.at(s);
  if (hit && (!may_reuse || may_reuse(*hit))) return *hit;
  Ref r = (Ref)t_.ins.size();
  t_.ins.push_back(ins);
  cse_.put(s, key, r);
  return r;
}

Ref Emitter::emit(IrOp op, CT t, Ref a, Ref b, Ref c, int64_t k) {
  const IrOpInfo& info = kIrOps[(int)op];
  // Integer ops that commute keep a constant on the right: one form for CSE,
  // and the backend's immediate operands.
  bool int_t = t != CT::f32 && t != CT::f64;
  bool commutes = op == IrOp::add || op == IrOp::mul || op == IrOp::band || op == IrOp::bor || op == IrOp::bxor ||
                  op == IrOp::eq || op == IrOp::ne;
  if (int_t && commutes && t_.is_const(a) && !t_.is_const(b)) std::swap(a, b);
  // sel(x == 0, b, c) is sel(x, c, b) for an integer x (its register is
  // zero exactly when the value is): no 0/1 value to compute.
  if (op == IrOp::sel && a >= 0 && (t_.ins[a].op == IrOp::eq || t_.ins[a].op == IrOp::ne) &&
      t_.ins[a].t != CT::f32 && t_.ins[a].t != CT::f64 && t_.is_const(t_.ins[a].b) && t_.ins[a].k == 0 &&
      t_.ins[t_.ins[a].b].k == 0) {
    if (t_.ins[a].op == IrOp::eq) std::swap(b, c);
    a = t_.ins[a].a;
  }
  if ((info.flags & P) && !is_value_source(op) && info.nops > 0) {
    bool all_const = t_.is_const(a) && (info.nops < 2 || t_.is_const(b)) && (info.nops < 3 || t_.is_const(c));
    if (all_const) {
      uint64_t out;
      auto kv = [&](Ref r) { return r == kNoRef ? 0 : (uint64_t)t_.ins[r].k; };
      if (eval_pure(op, t, k, kv(a), kv(b), kv(c), out)) return kval(out);
    }
    // Identities that hold for every register representation of the type.
    if (is64(t) && t_.is_const(b)) {
      int64_t y = t_.ins[b].k;
      if ((op == IrOp::add || op == IrOp::sub || op == IrOp::bor || op == IrOp::bxor || op == IrOp::shl ||
           op == IrOp::shr || op == IrOp::sar) && y == 0)
        return a;
      if ((op == IrOp::mul || op == IrOp::div) && y == 1) return a;
    }
    // An i32 or u32 op's result is already its type's representation
    // (sign- or zero-extended), which adding 0 would only redo: ndrange
    // indices are `i % n + 0`.
    if ((t == CT::i32 || t == CT::u32) && t_.is_const(b) && t_.ins[b].k == 0 &&
        (op == IrOp::add || op == IrOp::sub || op == IrOp::bor || op == IrOp::bxor) && a >= 0) {
      const Ins& x = t_.ins[a];
      bool arith = (kIrOps[(int)x.op].flags & P) && !is_value_source(x.op) && x.op != IrOp::conv && x.op != IrOp::sel &&
                   x.op != IrOp::lt && x.op != IrOp::le && x.op != IrOp::eq && x.op != IrOp::ne;
      if (arith && x.t == t) return a;
    }
    if (op == IrOp::sel && t_.is_const(a)) return t_.ins[a].k != 0 ? b : c;
    // Nested ifs converted to selects (record_ifconv.cpp) test flags each
    // of which holds only where the one outside it does: a while loop run
    // in lockstep (vm/ir/passes/jam_while.cpp), each copy's turn under
    // `if live`, its break clearing live, the rest under `if live` again.
    // sel(a, sel(d, x, y), y) is sel(d, x, y), and sel(a, d, a) is d, when
    // d != 0 implies a != 0: one select per value instead of one per level.
    if (op == IrOp::sel && b >= 0 && t_.ins[b].op == IrOp::sel && t_.ins[b].c == c && nz_implies(t_.ins[b].a, a))
      return b;
    if (op == IrOp::sel && c == a && int_t && nz_implies(b, a)) return b;
    // A float divided by a power of two is a product with its reciprocal:
    // both round the same exact value x * 2^-k (zeros, infinities, NaNs and
    // subnormal results alike), and a multiply is a fifth of a divide's
    // latency (mandelbrot's `3.0 * i / W` per pixel).
    if (op == IrOp::div && (t == CT::f32 || t == CT::f64) && t_.is_const(b)) {
      uint64_t r;
      if (exact_reciprocal(t, (uint64_t)t_.ins[b].k, r)) return emit(IrOp::mul, t, a, kval(r));
    }
    // x & (2^n - 1) and x % d (d > 0) are x where a guard already passed
    // has x <u 2^n (<u d): a list's new cell under its capacity, a
    // walk's level cell that its index guard bounds (sparse_walk.cpp).
    if ((op == IrOp::band || op == IrOp::mod) && t != CT::f32 && t != CT::f64 && t_.is_const(b) && a >= 0) {
      uint64_t m = (uint64_t)t_.ins[b].k, bound = op == IrOp::band ? m + 1 : m;
      bool mask = op == IrOp::mod || (m != 0 && (bound & m) == 0);
      if (mask && (int64_t)bound > 0 && implied(IrOp::guard_ult, a, kval(bound))) return a;
    }
    // Floor division and Python's mod by a power of two are a shift and a
    // mask for every two's complement value (Collatz's n % 2, n // 2).
    if ((op == IrOp::floordiv || op == IrOp::mod) && t != CT::f32 && t != CT::f64 && t_.is_const(b)) {
      int64_t y = t_.ins[b].k;
      if (y > 0 && (y & (y - 1)) == 0) {
        if (op == IrOp::mod) return emit(IrOp::band, t, a, kval((uint64_t)(y - 1)));
        bool sgn = t == CT::i32 || t == CT::i64;
        return emit(sgn ? IrOp::sar : IrOp::shr, t, a, kval((uint64_t)__builtin_ctzll((uint64_t)y)));
      }
    }
  }
  Ins ins;
  ins.op = op;
  ins.t = t;
  ins.a = a;
  ins.b = b;
  ins.c = c;
  ins.k = k;
  if (op == IrOp::load || op == IrOp::rload) ins.epoch = epoch_;
  return lookup_or_add(Key{op, t, a, b, c, k, ins.epoch}, ins);
}

Ref Emitter::effect(IrOp op, Ref a, Ref b, int64_t k) {
  epoch_++;
  t_.has_mem_effects = true;
  Ins ins;
  ins.op = op;
  ins.a = a;
  ins.b = b;
  ins.k = k;
  ins.epoch = epoch_;  // (the epoch of the loads that follow it: grows_past)
  t_.ins.push_back(ins);
  return (Ref)t_.ins.size() - 1;
}

// d != 0 implies a != 0: d is a, or an integer select whose values are each
// 0 or such a value (a flag cleared on one path, kept on the other).
bool Emitter::nz_implies(Ref d, Ref a, int depth) const {
  if (d == a) return true;
  if (d < 0 || depth == 0) return false;
  const Ins& x = t_.ins[d];
  if (x.op != IrOp::sel || x.t == CT::f32 || x.t == CT::f64) return false;
  auto ok = [&](Ref v) { return (t_.is_const(v) && t_.ins[v].k == 0) || nz_implies(v, a, depth - 1); };
  return ok(x.b) && ok(x.c);
}

// A guard on (y == 0) or (y != 0) for an integer y is a guard on y itself:
// registers of every integer type are zero exactly when the value is.
void Emitter::canonical_guard(IrOp& op, Ref& a) const {
  while ((op == IrOp::guard_nz || op == IrOp::guard_z) && a >= 0) {
    const Ins& c = t_.ins[a];
    bool int_t = c.t != CT::f32 && c.t != CT::f64;
    if (!int_t || (c.op != IrOp::eq && c.op != IrOp::ne) || !t_.is_const(c.b) || t_.ins[c.b].k != 0) break;
    if (c.op == IrOp::eq) op = op == IrOp::guard_nz ? IrOp::guard_z : IrOp::guard_nz;
    a = c.a;
  }
}

// A guard on constants: 1 when it passes, 0 when it fails, -1 when it is not one.
int Emitter::const_guard(IrOp op, Ref a, Ref b) const {
  if (op == IrOp::guard_nz && t_.is_const(a)) return t_.ins[a].k != 0;
  if (op == IrOp::guard_z && t_.is_const(a)) return t_.ins[a].k == 0;
  if (op == IrOp::guard_ult && t_.is_const(a) && t_.is_const(b)) return (uint64_t)t_.ins[a].k < (uint64_t)t_.ins[b].k;
  return -1;
}

// Whether `len` is a load of the list length that atomic `old` bumped, with
// no effect of the trace between them: then old <u len. The bump made the
// length old + 1 (old >= 0: a length is never negative), and other threads
// only append too (a deactivation racing an append is a data race in Taichi
// as in C++). ti.append's cell then needs no second length check.
bool Emitter::grows_past(Ref old, Ref len) const {
  if (old < 0 || len < 0) return false;
  const Ins& at = t_.ins[old];
  const Ins& ld = t_.ins[len];
  return at.op == IrOp::atomic && (at.k & kLengthAtomic) && atomic_aop(at.k) == 0 && t_.is_const(at.b) &&
         t_.ins[at.b].k > 0 && ld.op == IrOp::load && ld.a == at.a && ld.k == (int64_t)Prim::i64 && ld.epoch == at.epoch;
}

bool Emitter::guard(IrOp op, Ref a, Ref b, Snapshot snap) {
  canonical_guard(op, a);
  if (int c = const_guard(op, a, b); c >= 0) return c == 1;
  if (op == IrOp::guard_ult && grows_past(a, b)) return true;
  Key key{op, CT::i64, a, b, kNoRef, 0, 0};
  size_t s = cse_.slot(key);
  if (implied_at(s, a, b)) return true;
  Ins ins;
  ins.op = op;
  ins.a = a;
  ins.b = b;
  ins.snap = (int32_t)t_.snaps.size();
  t_.snaps.push_back(std::move(snap));
  t_.ins.push_back(ins);
  cse_.put(s, key, (Ref)t_.ins.size() - 1);
  return true;
}

// An earlier guard on the same operands implies this one only if those
// operands still hold the same values (while peeling: invariant ones).
bool Emitter::implied_at(size_t s, Ref a, Ref b) {
  return cse_.at(s) && (!may_reuse || (may_reuse(a) && (b == kNoRef || may_reuse(b))));
}

bool Emitter::implied(IrOp op, Ref a, Ref b) {
  canonical_guard(op, a);
  // (a constant guard that passes: guard() emits nothing; one that fails: it aborts)
  if (int c = const_guard(op, a, b); c >= 0) return c == 1;
  if (op == IrOp::guard_ult && grows_past(a, b)) return true;
  return implied_at(cse_.slot(Key{op, CT::i64, a, b, kNoRef, 0, 0}), a, b);
}

Ref Emitter::loaded(Ref addr, int64_t prim) {
  const Ref* hit = cse_.at(cse_.slot(Key{IrOp::load, CT::i64, addr, kNoRef, kNoRef, prim, epoch_}));
  return hit && (!may_reuse || may_reuse(*hit)) ? *hit : kNoRef;
}

Ref Emitter::call_trace(int64_t k, Snapshot flush) {
  epoch_++;
  t_.has_mem_effects = true;
  Ins ins;
  ins.op = IrOp::calltr;
  ins.k = k;
  ins.snap = (int32_t)t_.snaps.size();
  t_.snaps.push_back(std::move(flush));
  t_.ins.push_back(ins);
  return (Ref)t_.ins.size() - 1;
}

Ref Emitter::raw(IrOp op, Ref a, Ref b) {
  Ins ins;
  ins.op = op;
  ins.a = a;
  ins.b = b;
  t_.ins.push_back(ins);
  return (Ref)t_.ins.size() - 1;
}

bool peel(Trace& t, Emitter& e, const std::vector<Ref>& end_regs, const LiveFn& live) {
  const Ref n1 = (Ref)t.ins.size();
  auto is_sload_of = [&](Ref r, size_t reg) {
    return r >= 0 && t.ins[r].op == IrOp::sload && t.ins[r].k == (int64_t)reg;
  };
  // Which first-iteration values change from one iteration to the next:
  // an op with effects, or one reading such a value.
  std::vector<bool> variant(n1, false);
  auto varies = [&](const Ins& in) {
    bool v = !(kIrOps[(int)in.op].flags & P);
    for (Ref r : {in.a, in.b, in.c})
      if (r >= 0) v |= variant[r];
    return v;
  };
  for (Ref i = 0; i < n1; i++) {
    const Ins& in = t.ins[i];
    switch (in.op) {
      case IrOp::kval: case IrOp::arg: case IrOp::base: case IrOp::gtemp: case IrOp::faddr: break;
      case IrOp::sload: {
        Ref end = end_regs[in.k];
        variant[i] = end != kNoRef && end != i;
        break;
      }
      case IrOp::load: variant[i] = t.has_mem_effects || variant[in.a]; break;
      default: variant[i] = varies(in); break;
    }
  }
  // The frame at the loop head, once the back edge has moved the phis: each
  // register's first-iteration slot then holds its current value.
  Snapshot head;
  head.pc = t.head_pc;
  for (size_t r = 0; r < end_regs.size(); r++)
    if (end_regs[r] != kNoRef && !is_sload_of(end_regs[r], r) && (!live || live(head.pc, (uint16_t)r)))
      head.regs.push_back({(uint16_t)r, end_regs[r]});
  // Bounds guards the body need not repeat: their checks go here, once.
  std::vector<bool> implied = hoist_bounds(t, e, n1, end_regs, variant, head);
  // What hoisting computed from the counter's first value must not be
  // reused by the body either.
  for (Ref i = n1; i < (Ref)t.ins.size(); i++) variant.push_back(varies(t.ins[i]));
  e.may_reuse = [&variant](Ref r) { return r >= (Ref)variant.size() || !variant[r]; };
  t.loop_ref = e.raw(IrOp::loop);

  std::vector<Ref> subst(n1, kNoRef);
  auto S = [&](Ref r) { return r == kNoRef ? kNoRef : subst[r]; };
  bool after_call = false;
  for (Ref i = 0; i < n1; i++) {
    Ins in = t.ins[i];  // a copy: emitting grows the vector
    switch (in.op) {
      case IrOp::kval: case IrOp::arg: case IrOp::base: case IrOp::gtemp: case IrOp::faddr: subst[i] = i; break;
      case IrOp::sload: {
        Ref end = end_regs[in.k];
        subst[i] = end == kNoRef ? i : end;
        break;
      }
      case IrOp::store: case IrOp::atomic: case IrOp::rtcall: subst[i] = e.effect(in.op, S(in.a), S(in.b), in.k); break;
      case IrOp::guard_nz: case IrOp::guard_z: case IrOp::guard_ult: case IrOp::calltr: {
        if (implied[i]) break;
        // In the second iteration a register holds the first one's final
        // value until the iteration writes it, unless an inner loop trace
        // ran since: then the frame has it.
        const Snapshot& s1 = t.snaps[in.snap];
        Snapshot s2;
        s2.pc = s1.pc;
        s2.pc_ref = S(s1.pc_ref);
        std::vector<Ref> regs(end_regs.size(), kNoRef);
        if (!after_call) regs = end_regs;
        for (auto& [reg, ref] : s1.regs) regs[reg] = S(ref);
        for (size_t r = 0; r < regs.size(); r++)
          if (regs[r] != kNoRef && !is_sload_of(regs[r], r) && (!live || live(s2.pc, (uint16_t)r)))
            s2.regs.push_back({(uint16_t)r, regs[r]});
        if (in.op == IrOp::calltr) {
          subst[i] = e.call_trace(in.k, std::move(s2));
          after_call = true;
        } else {
          if (!e.guard(in.op, S(in.a), S(in.b), std::move(s2))) {
            e.may_reuse = nullptr;
            return false;
          }
        }
        break;
      }
      default: subst[i] = e.emit(in.op, in.t, S(in.a), S(in.b), S(in.c), in.k); break;
    }
  }
  e.may_reuse = nullptr;
  t.loop_snap = (int32_t)t.snaps.size();
  t.snaps.push_back(std::move(head));
  // Registers carried around the loop: the back edge moves the second
  // iteration's value into the first iteration's slot.
  std::vector<Ref> done;
  for (size_t r = 0; r < end_regs.size(); r++) {
    Ref m1 = end_regs[r];
    if (m1 == kNoRef || m1 >= n1) continue;
    Ref m2 = subst[m1];
    if (m2 == m1 || std::find(done.begin(), done.end(), m1) != done.end()) continue;
    done.push_back(m1);
    e.raw(IrOp::phi, m1, m2);
  }
  return true;
}

void dce(Trace& t) {
  // Roots: effects and guards. A phi is needed only while the loop reads its
  // destination (an operand or a snapshot entry after `loop`), which is known
  // only after a pass: iterate to a fixed point (phis are few).
  std::vector<uint8_t> phi_live(t.ins.size(), 0);  // (bytes: vector<bool>'s bit access costs)
  for (;;) {
    for (auto& in : t.ins) in.live = false;
    // The back edge's Ctrl-C exit reads these: roots too, before the pass
    // reaches them, so that their operands are kept.
    if (t.loop_snap >= 0)
      for (auto& [reg, ref] : t.snaps[t.loop_snap].regs) t.ins[ref].live = true;
    for (Ref i = (Ref)t.ins.size() - 1; i >= 0; i--) {
      Ins& in = t.ins[i];
      uint8_t f = kIrOps[(int)in.op].flags;
      if ((f & (G | M)) || in.op == IrOp::loop || (in.op == IrOp::phi && phi_live[i])) in.live = true;
      if (!in.live) continue;
      for (Ref r : {in.a, in.b, in.c})
        if (r >= 0) t.ins[r].live = true;
      if (in.snap >= 0) {
        for (auto& [reg, ref] : t.snaps[in.snap].regs) t.ins[ref].live = true;
        if (t.snaps[in.snap].pc_ref >= 0) t.ins[t.snaps[in.snap].pc_ref].live = true;
      }
    }
    if (t.loop_ref < 0) return;
    std::vector<uint8_t> read_in_loop(t.ins.size(), 0);
    if (t.loop_snap >= 0)
      for (auto& [reg, ref] : t.snaps[t.loop_snap].regs) read_in_loop[ref] = 1;  // (already live: roots of the pass)
    for (Ref i = t.loop_ref + 1; i < (Ref)t.ins.size(); i++) {
      const Ins& in = t.ins[i];
      if (!in.live || in.op == IrOp::phi) continue;
      for (Ref r : {in.a, in.b, in.c})
        if (r >= 0) read_in_loop[r] = 1;
      if (in.snap >= 0)
        for (auto& [reg, ref] : t.snaps[in.snap].regs) read_in_loop[ref] = 1;
    }
    bool changed = false;
    for (Ref i = t.loop_ref + 1; i < (Ref)t.ins.size(); i++)
      if (t.ins[i].op == IrOp::phi && !phi_live[i] && read_in_loop[t.ins[i].a]) {
        phi_live[i] = 1;
        changed = true;
      }
    if (!changed) return;
  }
}

}  // namespace kiln::jit
