// The vector planner's reading of addresses (vector_planner.h): linear
// forms in the counter and the ndrange row's q and r, each load's or
// store's access, row roots, interleaved groups, and which accesses lie
// apart.
#include <algorithm>
#include <map>

#include "jit/vector_planner.h"

namespace kiln::jit::planner {

using bc::CT;

bool Planner::lin(Ref r, Lin& out, int depth) {
  if (depth > 16) return false;
  if (r == p.iv || r == p.row_q || r == p.row_r) {
    out = {kNoRef, 0, r == p.iv, r == p.row_q, r == p.row_r};
    return true;
  }
  if (p.is_plane(r)) {  // p
    out = {kNoRef, 0, 0, 0, 0, 1};
    return true;
  }
  if (p.is_in_plane(r)) {  // q % P = q - P * p
    out = {kNoRef, 0, 0, 1, 0, -p.row_p};
    return true;
  }
  if (p.is_vol(r)) {  // v
    out = {kNoRef, 0, 0, 0, 0, 0, 1};
    return true;
  }
  if (p.is_in_vol(r)) {  // p % V = p - V * v
    out = {kNoRef, 0, 0, 0, 0, 1, -p.row_v};
    return true;
  }
  if (!body(r) || row_root(r)) {
    out = t.is_const(r) ? Lin{kNoRef, t.ins[r].k} : Lin{r};
    return true;
  }
  const Ins& in = t.ins[r];
  bool int_t = in.t == CT::i64 || in.t == CT::i32;
  if (!int_t) return false;
  Lin x, y;
  switch (in.op) {
    case IrOp::add: case IrOp::sub:
      if (!lin(in.a, x, depth + 1) || !lin(in.b, y, depth + 1)) return false;
      if (in.op == IrOp::sub) {
        if (y.root != kNoRef) return false;
        y = y.scaled(-1);
      }
      if (x.root != kNoRef && y.root != kNoRef) return false;
      // An i32 sum of the counter and a constant does not wrap: the
      // bounds check on it (hoisted, bounds.h) proved its range.
      out = {x.root != kNoRef ? x.root : y.root, x.k + y.k, x.s + y.s, x.sq + y.sq, x.sr + y.sr, x.sp + y.sp, x.sv + y.sv};
      return true;
    case IrOp::mul: {
      Ref v = in.a, c = in.b;
      if (t.is_const(v)) std::swap(v, c);
      if (!t.is_const(c) || !lin(v, x, depth + 1) || x.root != kNoRef) return false;
      int64_t f = t.ins[c].k;
      if (f < -(1 << 20) || f > (1 << 20)) return false;
      out = x.scaled(f);
      return true;
    }
    default: return false;
  }
}

// A 64-bit load at an invariant + sq * q + k (vector.h: row roots).
bool Planner::row_root(Ref r) {
  if (p.row_q == kNoRef || p.row_roots.count(r)) return p.row_roots.count(r) != 0;
  const Ins& in = t.ins[r];
  if (in.op != IrOp::load || ((Prim)in.k != Prim::i64 && (Prim)in.k != Prim::u64)) return false;
  Lin l;
  if (!lin(in.a, l) || l.root == kNoRef || body(l.root) || l.s || l.sr || l.sp || l.sv || !l.sq) return false;
  if (l.k != (int32_t)l.k || l.sq != (int32_t)l.sq) return false;
  p.row_roots[r] = {l.root, (int32_t)l.k, (int32_t)l.sq};
  return true;
}

// A load's or store's address as an Access: contiguous lanes along the
// counter or along r, any multiple of q.
bool Planner::access_of(Ref addr, VecPlan::Access& acc, const char* what) {
  Lin l;
  const int64_t e = p.f64 ? 8 : 4;  // the element size
  // A load at a constant stride of whole elements is gathered (32-bit lanes,
  // lane offsets up to 7 * stride in a 32-bit index); a store there is one
  // of a vector element's components (vector.cpp: interleaved_stores).
  bool gather = !p.f64 && lin(addr, l) && l.root != kNoRef && l.sr == 0 && l.sq == 0 &&
                l.sp == 0 && l.sv == 0 && l.s > e && l.s % e == 0 && l.s <= (1 << 24);
  if (!gather && (!lin(addr, l) || l.root == kNoRef || !((l.s == e && l.sr == 0) || (l.s == 0 && l.sr == e && !p.f64))))
    return fail(std::string("a ") + what + " that is not contiguous in the counter");
  if (l.k != (int32_t)l.k || l.sq != (int32_t)l.sq || l.sp != (int32_t)l.sp || l.sv != (int32_t)l.sv)
    return fail("a displacement beyond 32 bits");
  if ((l.sq || l.sp || l.sv) && p.row_roots.count(l.root)) return fail("a row root's address moving with q");
  acc = {l.root, (int32_t)l.k, (int32_t)l.sq, l.sr == 4, gather ? (int32_t)l.s : 0, (int32_t)l.sp, (int32_t)l.sv};
  return true;
}

// The ndrange split of the counter, if the body has one.
void Planner::find_rows() {
  for (Ref i = t.loop_ref + 1; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live || in.t != CT::i32 || in.a != p.iv || !t.is_const(in.b) || t.ins[in.b].k < 16) continue;
    if (p.row_m != 0 && t.ins[in.b].k != p.row_m) continue;
    if (in.op == IrOp::div || in.op == IrOp::floordiv) p.row_q = i, p.row_m = t.ins[in.b].k;
    if (in.op == IrOp::mod || in.op == IrOp::raw_mod) p.row_r = i, p.row_m = t.ins[in.b].k;
  }
  find_planes();
}

// Planes of rows (vector.h: a 3-D ndrange's i = counter / (M * P) and
// j = q % P): p as counter / (M * P) or q / P, and q % P, all with one P,
// the least the body splits by (a 4-D range's counter / (M * P * V) is a
// volume's); then volumes of planes the same way: v as counter / (M * P *
// V), q / (P * V) or p / V, and p % V, with one V. The vector loop's counter
// and q are never negative, so C's division and remainder are the floor
// ones there. Another split stays out: its value then has no linear form
// and the loop no lanes.
void Planner::find_planes() {
  if (p.row_m == 0) return;
  // (each: the split's P or V if it is one at this level, else 0)
  auto each = [&](auto&& level) {
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      const Ins& in = t.ins[i];
      if (!in.live || in.t != CT::i32 || !t.is_const(in.b) || t.ins[in.b].k < 2) continue;
      bool div = in.op == IrOp::div || in.op == IrOp::floordiv, mod = in.op == IrOp::mod || in.op == IrOp::raw_mod;
      if (div || mod) level(i, in.a, mod, t.ins[in.b].k);
    }
  };
  auto least = [](int64_t& at, int64_t k) { at = at == 0 ? k : std::min(at, k); };
  const int64_t M = p.row_m;
  auto plane_of = [&](Ref a, bool mod, int64_t k) -> int64_t {  // P, or 0
    if (a == p.iv && !mod && k > M && k % M == 0) return k / M;
    return p.row_q != kNoRef && a == p.row_q ? k : 0;
  };
  int64_t P = 0;
  each([&](Ref, Ref a, bool mod, int64_t k) { if (int64_t x = plane_of(a, mod, k)) least(P, x); });
  if (P == 0) return;
  p.row_p = P;
  each([&](Ref i, Ref a, bool mod, int64_t k) {
    if (plane_of(a, mod, k) == P) (mod ? p.in_plane_refs : p.plane_refs).push_back(i);
  });
  auto vol_of = [&](Ref a, bool mod, int64_t k) -> int64_t {  // V, or 0
    if (p.is_plane(a)) return k;
    if (mod) return 0;
    if (a == p.iv && k > M * P && k % (M * P) == 0) return k / (M * P);
    return p.row_q != kNoRef && a == p.row_q && k > P && k % P == 0 ? k / P : 0;
  };
  int64_t V = 0;
  each([&](Ref, Ref a, bool mod, int64_t k) { if (int64_t x = vol_of(a, mod, k)) least(V, x); });
  if (V == 0) return;
  p.row_v = V;
  each([&](Ref i, Ref a, bool mod, int64_t k) {
    if (vol_of(a, mod, k) == V) (mod ? p.in_vol_refs : p.vol_refs).push_back(i);
  });
}

// The allocation an invariant root belongs to, and its offset in it.
std::pair<Ref, int64_t> Planner::resolve(Ref r) {
  int64_t off = 0;
  for (int d = 0; d < 16 && r >= 0; d++) {
    const Ins& in = t.ins[r];
    if (in.op != IrOp::add || in.t != CT::i64) break;
    if (t.is_const(in.b)) off += t.ins[in.b].k, r = in.a;
    else if (t.is_const(in.a)) off += t.ins[in.a].k, r = in.b;
    else break;
  }
  return {r, off};
}

// Interleaved groups (vector.h): per (allocation, stride), the gathered
// loads sorted by offset; each run of S / 4 loads at B, B + 4, ..., B + S - 4
// reads whole elements, so the 8 * S bytes from B + S * counter are exactly
// the bytes their gathers read.
void Planner::find_interleaved() {
  FlatMap<std::pair<Ref, int32_t>, std::vector<std::pair<int64_t, Ref>>> by;
  for (Ref i : p.order) {
    const VecPlan::Access& acc = p.access[i];
    if (t.ins[i].op != IrOp::load || !(acc.stride == 8 || acc.stride == 12 || acc.stride == 16)) continue;
    auto [root, off] = resolve(acc.root);
    by[{root, acc.stride}].push_back({off + acc.disp, i});
  }
  for (auto& [key, v] : by) {
    std::sort(v.begin(), v.end());
    size_t n = (size_t)key.second / 4;
    for (size_t k = 0; k + n <= v.size();) {
      bool whole = true;
      for (size_t j = 1; j < n; j++) whole &= v[k + j].first == v[k].first + 4 * (int64_t)j;
      if (!whole) {
        k++;
        continue;
      }
      std::vector<Ref> comp;
      for (size_t j = 0; j < n; j++) comp.push_back(v[k + j].second);
      p.interleaved[*std::min_element(comp.begin(), comp.end())] = comp;
      k += n;
    }
  }
}

// Whether a store held back past a load (guards_in_lanes) cannot change
// what the load reads: arrays in different trees (different base
// pointers), or contiguous accesses of one allocation along one direction
// at least a chunk apart (64 bytes, 16 lanes: no lane of the load reads
// what a lane of the store writes in the same chunk, whichever comes first).
bool Planner::apart(Ref x, Ref y) {
  auto [rx, ox] = resolve(p.access[x].root);
  auto [ry, oy] = resolve(p.access[y].root);
  if (rx != ry) return t.ins[rx].op == IrOp::base && t.ins[ry].op == IrOp::base && t.ins[rx].k != t.ins[ry].k;
  const VecPlan::Access &ax = p.access[x], &ay = p.access[y];
  if (ax.stride || ay.stride || ax.cq != ay.cq || ax.cp != ay.cp || ax.cv != ay.cv || ax.by_r != ay.by_r) return false;
  int64_t d = (oy + ay.disp) - (ox + ax.disp);
  return d >= 64 || d <= -64;
}

}  // namespace kiln::jit::planner
