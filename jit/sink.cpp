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
// The folds (SinkPlan::negfold, addrfold, blsrfold, scalefold): a value
// whose every reader takes it into its own instruction, on the value's side
// of the loop head (a value before it that the loop reads may be the vector
// loop's invariant, read from its home), and that no exit reads. The kinds
// are disjoint (a neg, an add, a sub, a mul), and no fold sinks a reader
// another kind's test depends on, so one pass over the readers tests them
// all (it took a pass a kind, each over every operand).
enum Fold : uint8_t { kNone, kNeg, kAddr, kBlsr, kScale };

void fold_into_readers(const Trace& t, SinkPlan& p, bool negs, bool addrs, bool blsr) {
  const Ref n = (Ref)t.ins.size();
  auto wide = [](bc::CT c) { return c == bc::CT::i64 || c == bc::CT::u64; };
  ScratchVec<uint8_t> fold(n, kNone);
  bool any = false;
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live || p.sunk[i] || i == t.loop_ref) continue;
    uint8_t k = kNone;
    if (in.op == IrOp::neg) {
      // a float neg read only by fmas: each reads its operand, the sign flipped in the instruction
      if (negs && (in.t == bc::CT::f32 || in.t == bc::CT::f64)) k = kNeg;
    } else if (in.op == IrOp::add) {
      // a 64-bit add of a 32-bit constant read only as loads' and stores' address: [X + c]
      Ref c = t.is_const(in.b) ? in.b : t.is_const(in.a) ? in.a : kNoRef;
      if (addrs && wide(in.t) && c >= 0 && t.ins[c].k == (int32_t)t.ins[c].k && !t.is_const(c == in.b ? in.a : in.b))
        k = kAddr;
    } else if (in.op == IrOp::sub) {
      // x - 1 read only by x & (x - 1): blsr (a band counts it when lowest_bit_cleared finds it)
      if (blsr && wide(in.t) && in.a >= 0 && in.b >= 0 && t.is_const(in.b) && t.ins[in.b].k == 1) k = kBlsr;
    } else if (in.op == IrOp::mul) {
      // x * 2/4/8 read only by 64-bit adds of a non-constant: lea's index
      if (addrs && index_scale(t, in).first >= 0) k = kScale;
    }
    fold[i] = k;
    any |= k != kNone;
  }
  if (!any) return;
  auto side = [&](Ref r) { return t.loop_ref >= 0 && r > t.loop_ref; };
  ScratchVec<uint8_t> read(n, 0);  // (a blsr needs a reader)
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    for (Ref r : {in.a, in.b, in.c}) {
      if (r < 0 || fold[r] == kNone) continue;
      read[r] = 1;
      bool ok = side(r) == side(i);
      switch (fold[r]) {
        case kNeg: ok &= in.op == IrOp::fma && !p.sunk[i]; break;
        case kAddr:
          ok &= (in.op == IrOp::load || in.op == IrOp::store) && !p.sunk[i] && r == in.a && in.b != r && in.c != r;
          break;
        case kBlsr: {
          Ref x = p.sunk[i] ? kNoRef : lowest_bit_cleared(t, in);
          ok &= x >= 0 && (in.a == x ? in.b : in.a) == r;
          break;
        }
        case kScale:
          ok &= in.op == IrOp::add && wide(in.t) && !p.sunk[i] && in.a != in.b && !t.is_const(in.a) &&
                !t.is_const(in.b) && r != in.c;
          break;
      }
      if (!ok) fold[r] = kNone;
    }
  }
  for (const Snapshot& s : t.snaps) {
    for (auto& [reg, ref] : s.regs) fold[ref] = kNone;
    if (s.pc_ref >= 0) fold[s.pc_ref] = kNone;
  }
  for (Ref i = 0; i < n; i++) {
    switch (fold[i]) {
      case kNone: continue;
      case kNeg: p.negfold[i] = 1; break;
      case kAddr: p.addrfold[i] = 1; break;
      case kBlsr: if (!read[i]) continue; p.blsrfold[i] = 1; break;
      case kScale: p.scalefold[i] = 1; break;
    }
    p.sunk[i] = 1;
  }
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
  p.sunk.assign(ref_slots(t), 0);
  p.fused.assign(ref_slots(t), 0);
  ScratchVec<int> uses(n, 0);  // operand uses by instructions that are emitted
  ScratchVec<uint8_t> phi_dest(n, 0);
  for (const Ins& in : t.ins)
    if (in.live && in.op == IrOp::phi && in.a >= 0) phi_dest[in.a] = true;
  for (Ref i = n - 1; i >= 0; i--) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    if (recomputable(in) && uses[i] == 0 && !phi_dest[i] && i != t.loop_ref) {
      p.sunk[i] = 1;  // only snapshots (or other sunk values) read it
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
    ScratchVec<int> sel_uses(n, 0);
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
        p.fused[i] = 1;
    }
  }
  p.negfold.assign(ref_slots(t), 0);
  p.addrfold.assign(ref_slots(t), 0);
  p.blsrfold.assign(ref_slots(t), 0);
  p.scalefold.assign(ref_slots(t), 0);
  // (blend: an AVX2 host, which has BMI1)
  fold_into_readers(t, p, fold_negs, fold_addrs, fold_addrs && blend);
  return p;
}

}  // namespace kiln::jit

namespace kiln::jit {

SnapshotNeeds::SnapshotNeeds(const Trace& t, const RefFlags& remat) {
  const size_t n = t.ins.size();
  // seen[r]: the last snapshot (plus one) whose list holds r
  ScratchVec<uint32_t> seen(n, 0);
  ScratchVec<Ref> stack;
  start_.reserve(t.snaps.size() + 1);
  // (the lists hold at least the snapshots' entries: reserved at once, refs_
  // and the walk's stack do not grow through 1, 2, 4, ... blocks, each one
  // more allocation and copy in a compile: 9 of saxpy's ~130 a compile)
  size_t entries = 0;
  for (const Snapshot& s : t.snaps) entries += s.regs.size() + (s.pc_ref >= 0);
  refs_.reserve(entries + entries / 2 + 8);
  stack.reserve(16);
  for (size_t si = 0; si < t.snaps.size(); si++) {
    const Snapshot& s = t.snaps[si];
    start_.push_back((uint32_t)refs_.size());
    const uint32_t mark = (uint32_t)si + 1;
    auto push = [&](Ref r) {
      if (r < 0 || seen[r] == mark) return;
      seen[r] = mark;
      stack.push_back(r);
    };
    for (auto& [reg, ref] : s.regs) push(ref);
    if (s.pc_ref >= 0) push(s.pc_ref);
    while (!stack.empty()) {
      Ref r = stack.back();
      stack.pop_back();
      refs_.push_back(r);
      if ((size_t)r < remat.size() && remat[r]) {
        const Ins& in = t.ins[r];
        push(in.a);
        push(in.b);
        push(in.c);
      }
    }
  }
  start_.push_back((uint32_t)refs_.size());
}

}  // namespace kiln::jit
