// Sinking and compare fusion (sink.h).
#include "jit/sink.h"

#include "jit/regalloc.h"

namespace kiln::jit {

namespace {
// Ops an exit stub can recompute inline (no calls: a call would clobber the
// registers the stub still has to write).
bool recomputable(const Ins& in) {
  bool fl = in.t == bc::CT::f32 || in.t == bc::CT::f64;
  switch (in.op) {
    case IrOp::add: case IrOp::sub: case IrOp::mul: case IrOp::band: case IrOp::bor: case IrOp::bxor:
      return !fl;
    case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne: return true;
    case IrOp::sel: return true;
    default: return false;
  }
}
// SinkPlan::negfold: float negs read only by fmas on the same side of the
// loop head (a value before it that the loop reads may be the vector loop's
// invariant, which it reads from the value's home) and by no exit.
void fold_negs_into_fmas(const Trace& t, SinkPlan& p) {
  const Ref n = (Ref)t.ins.size();
  std::vector<bool> ok(n, false);
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    ok[i] = in.live && !p.sunk[i] && in.op == IrOp::neg && (in.t == bc::CT::f32 || in.t == bc::CT::f64);
  }
  auto side = [&](Ref r) { return t.loop_ref >= 0 && r > t.loop_ref; };
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    for (Ref r : {in.a, in.b, in.c})
      if (r >= 0 && ok[r] && (in.op != IrOp::fma || p.sunk[i] || side(r) != side(i))) ok[r] = false;
  }
  for (const Snapshot& s : t.snaps) {
    for (auto& [reg, ref] : s.regs) ok[ref] = false;
    if (s.pc_ref >= 0) ok[s.pc_ref] = false;
  }
  for (Ref i = 0; i < n; i++)
    if (ok[i]) p.negfold[i] = p.sunk[i] = true;
}

// SinkPlan::addrfold: every reader of the add (sunk ones too: an exit would
// recompute from it) is a load or store taking it as its address, emitted
// on the add's side of the loop head.
void fold_address_adds(const Trace& t, SinkPlan& p) {
  const Ref n = (Ref)t.ins.size();
  std::vector<bool> ok(n, false);
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    bool wide = in.t == bc::CT::i64 || in.t == bc::CT::u64;
    Ref k = t.is_const(in.b) ? in.b : t.is_const(in.a) ? in.a : kNoRef;
    ok[i] = in.live && !p.sunk[i] && in.op == IrOp::add && wide && k >= 0 && t.ins[k].k == (int32_t)t.ins[k].k &&
            !t.is_const(k == in.b ? in.a : in.b) && i != t.loop_ref;
  }
  auto side = [&](Ref r) { return t.loop_ref >= 0 && r > t.loop_ref; };
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    bool mem = (in.op == IrOp::load || in.op == IrOp::store) && !p.sunk[i];
    for (Ref r : {in.a, in.b, in.c})
      if (r >= 0 && ok[r] && (!mem || r != in.a || in.b == r || in.c == r || side(r) != side(i))) ok[r] = false;
  }
  for (const Snapshot& s : t.snaps) {
    for (auto& [reg, ref] : s.regs) ok[ref] = false;
    if (s.pc_ref >= 0) ok[s.pc_ref] = false;
  }
  for (Ref i = 0; i < n; i++)
    if (ok[i]) p.addrfold[i] = p.sunk[i] = true;
}
// SinkPlan::blsrfold: every reader of the sub is a band clearing x's lowest
// set bit, emitted on the sub's side of the loop head; no exit reads it.
void fold_blsr_subs(const Trace& t, SinkPlan& p) {
  const Ref n = (Ref)t.ins.size();
  std::vector<int> readers(n, 0), blsr_readers(n, 0);
  auto side = [&](Ref r) { return t.loop_ref >= 0 && r > t.loop_ref; };
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    for (Ref r : {in.a, in.b, in.c})
      if (r >= 0) readers[r]++;
    Ref x = p.sunk[i] ? kNoRef : lowest_bit_cleared(t, in);
    if (x >= 0) {
      Ref s = in.a == x ? in.b : in.a;
      if (side(s) == side(i)) blsr_readers[s]++;
    }
  }
  std::vector<bool> ok(n, false);
  for (Ref i = 0; i < n; i++) ok[i] = t.ins[i].live && !p.sunk[i] && readers[i] > 0 && readers[i] == blsr_readers[i];
  for (const Snapshot& s : t.snaps) {
    for (auto& [reg, ref] : s.regs) ok[ref] = false;
    if (s.pc_ref >= 0) ok[s.pc_ref] = false;
  }
  for (Ref i = 0; i < n; i++)
    if (ok[i] && i != t.loop_ref) p.blsrfold[i] = p.sunk[i] = true;
}
// SinkPlan::scalefold: every reader of the mul is a 64-bit add of it and a
// non-constant, emitted on the mul's side of the loop head; no exit reads it.
void fold_index_scales(const Trace& t, SinkPlan& p) {
  const Ref n = (Ref)t.ins.size();
  std::vector<bool> ok(n, false);
  for (Ref i = 0; i < n; i++) ok[i] = t.ins[i].live && !p.sunk[i] && index_scale(t, t.ins[i]).first >= 0;
  auto side = [&](Ref r) { return t.loop_ref >= 0 && r > t.loop_ref; };
  auto wide = [](bc::CT c) { return c == bc::CT::i64 || c == bc::CT::u64; };
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    bool adds = in.op == IrOp::add && wide(in.t) && !p.sunk[i] && in.a != in.b && !t.is_const(in.a) &&
                !t.is_const(in.b);
    for (Ref r : {in.a, in.b, in.c})
      if (r >= 0 && ok[r] && (!adds || r == in.c || side(r) != side(i))) ok[r] = false;
  }
  for (const Snapshot& s : t.snaps) {
    for (auto& [reg, ref] : s.regs) ok[ref] = false;
    if (s.pc_ref >= 0) ok[s.pc_ref] = false;
  }
  for (Ref i = 0; i < n; i++)
    if (ok[i] && i != t.loop_ref) p.scalefold[i] = p.sunk[i] = true;
}
}  // namespace

std::pair<Ref, int> index_scale(const Trace& t, const Ins& in) {
  if (in.op != IrOp::mul || (in.t != bc::CT::i64 && in.t != bc::CT::u64) || in.a < 0 || in.b < 0) return {kNoRef, 0};
  Ref x = in.a, k = in.b;
  if (t.is_const(x)) std::swap(x, k);
  if (!t.is_const(k) || t.is_const(x)) return {kNoRef, 0};
  int64_t f = t.ins[k].k;
  return f == 2 ? std::pair{x, 1} : f == 4 ? std::pair{x, 2} : f == 8 ? std::pair{x, 3} : std::pair{kNoRef, 0};
}

Ref lowest_bit_cleared(const Trace& t, const Ins& in) {
  auto wide = [](bc::CT c) { return c == bc::CT::i64 || c == bc::CT::u64; };
  if (in.op != IrOp::band || !wide(in.t) || in.a < 0 || in.b < 0) return kNoRef;
  for (auto [x, s] : {std::pair{in.a, in.b}, std::pair{in.b, in.a}}) {
    const Ins& d = t.ins[s];
    if (d.op == IrOp::sub && wide(d.t) && d.a == x && t.is_const(d.b) && t.ins[d.b].k == 1) return x;
  }
  return kNoRef;
}

SinkPlan plan_sinking(const Trace& t, bool fold_negs, bool blend, bool fold_addrs) {
  const Ref n = (Ref)t.ins.size();
  SinkPlan p;
  p.sunk.assign(n, false);
  p.fused.assign(n, false);
  std::vector<int> uses(n, 0);  // operand uses by instructions that are emitted
  std::vector<bool> phi_dest(n, false);
  for (const Ins& in : t.ins)
    if (in.live && in.op == IrOp::phi && in.a >= 0) phi_dest[in.a] = true;
  for (Ref i = n - 1; i >= 0; i--) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    if (recomputable(in) && uses[i] == 0 && !phi_dest[i] && i != t.loop_ref) {
      p.sunk[i] = true;  // only snapshots (or other sunk values) read it
      continue;
    }
    for (Ref r : {in.a, in.b, in.c})
      if (r >= 0) uses[r]++;
    if (in.snap >= 0 && t.snaps[in.snap].pc_ref >= 0) uses[t.snaps[in.snap].pc_ref]++;
  }
  // A compare read once, by the guard right after it, is that guard's flags.
  for (Ref i = 0; i < n; i++) {
    const Ins& c = t.ins[i];
    if (!c.live || p.sunk[i] || uses[i] != 1) continue;
    if (c.op != IrOp::lt && c.op != IrOp::le && c.op != IrOp::eq && c.op != IrOp::ne) continue;
    bool fl = c.t == bc::CT::f32 || c.t == bc::CT::f64;
    if (fl && (c.op == IrOp::eq || c.op == IrOp::ne)) continue;  // needs two flags
    for (Ref j = i + 1; j < n; j++) {
      const Ins& g = t.ins[j];
      if (!g.live || g.op == IrOp::kval || p.sunk[j]) continue;
      p.fused[i] = (g.op == IrOp::guard_nz || g.op == IrOp::guard_z) && g.a == i;
      break;
    }
  }
  // A float compare that only float selects read as their condition is
  // their mask (vcmpss then vblendvps in each): a 0/1 value made through
  // the flags and a general register, and a cmov per select, cost more
  // than the select's arithmetic (bench/sparse_particles' bounce).
  if (blend) {
    std::vector<int> sel_uses(n, 0);
    for (Ref j = 0; j < n; j++) {
      const Ins& s = t.ins[j];
      if (!s.live || p.sunk[j] || s.op != IrOp::sel || s.a < 0) continue;
      const Ins& c = t.ins[s.a];
      int w = select_width(t, s), cw = c.t == bc::CT::f32 ? 4 : c.t == bc::CT::f64 ? 8 : 0;
      // (an f32 mask under an f64 blend would leave the lane's upper half)
      // (on the compare's side of the loop head: a vector loop reads an
      // invariant from its home, which a fused compare does not have)
      bool same_side = t.loop_ref < 0 || (s.a > t.loop_ref) == (j > t.loop_ref);
      if (w && cw >= w && s.b != s.a && s.c != s.a && same_side) sel_uses[s.a]++;
    }
    for (Ref i = 0; i < n; i++) {
      const Ins& c = t.ins[i];
      bool cmp = c.op == IrOp::lt || c.op == IrOp::le || c.op == IrOp::eq || c.op == IrOp::ne;
      if (cmp && c.live && !p.sunk[i] && !p.fused[i] && uses[i] > 0 && sel_uses[i] == uses[i] && !phi_dest[i] &&
          i != t.loop_ref)
        p.fused[i] = true;
    }
  }
  p.negfold.assign(n, false);
  if (fold_negs) fold_negs_into_fmas(t, p);
  p.addrfold.assign(n, false);
  if (fold_addrs) fold_address_adds(t, p);
  p.blsrfold.assign(n, false);
  if (fold_addrs && blend) fold_blsr_subs(t, p);  // (blend: an AVX2 host, which has BMI1)
  p.scalefold.assign(n, false);
  if (fold_addrs) fold_index_scales(t, p);
  return p;
}

}  // namespace kiln::jit
