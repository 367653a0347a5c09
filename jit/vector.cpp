// Which loops run in lanes (vector.h).
#include "jit/vector.h"

#include "jit/backend.h"
#include "jit/div_magic.h"

#include <algorithm>
#include <functional>
#include <map>

#include "vm/types/type.h"

namespace kiln::jit {

using bc::CT;

namespace {

struct Planner {
  const Trace& t;
  VecPlan& p;
  Ref n;

  bool body(Ref r) const { return r > t.loop_ref; }

  // An address as root + k + s * counter + sq * q + sr * r, root an
  // invariant the body reads (so it is live in the loop) or none.
  struct Lin {
    Ref root = kNoRef;
    int64_t k = 0, s = 0, sq = 0, sr = 0;
    Lin scaled(int64_t f) const { return {root, k * f, s * f, sq * f, sr * f}; }
  };
  bool lin(Ref r, Lin& out, int depth = 0) {
    if (depth > 16) return false;
    if (r == p.iv || r == p.row_q || r == p.row_r) {
      out = {kNoRef, 0, r == p.iv, r == p.row_q, r == p.row_r};
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
        out = {x.root != kNoRef ? x.root : y.root, x.k + y.k, x.s + y.s, x.sq + y.sq, x.sr + y.sr};
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
  bool row_root(Ref r) {
    if (p.row_q == kNoRef || p.row_roots.count(r)) return p.row_roots.count(r) != 0;
    const Ins& in = t.ins[r];
    if (in.op != IrOp::load || ((Prim)in.k != Prim::i64 && (Prim)in.k != Prim::u64)) return false;
    Lin l;
    if (!lin(in.a, l) || l.root == kNoRef || body(l.root) || l.s || l.sr || !l.sq) return false;
    if (l.k != (int32_t)l.k || l.sq != (int32_t)l.sq) return false;
    p.row_roots[r] = {l.root, (int32_t)l.k, (int32_t)l.sq};
    return true;
  }
  // A load's or store's address as an Access: contiguous lanes along the
  // counter or along r, any multiple of q.
  bool access_of(Ref addr, VecPlan::Access& acc, const char* what) {
    Lin l;
    const int64_t e = p.f64 ? 8 : 4;  // the element size
    // A load at a constant stride of whole elements is gathered (32-bit lanes,
    // lane offsets up to 7 * stride in a 32-bit index).
    bool gather = !p.f64 && std::string(what) == "load" && lin(addr, l) && l.root != kNoRef && l.sr == 0 && l.sq == 0 &&
                  l.s > e && l.s % e == 0 && l.s <= (1 << 24);
    if (!gather && (!lin(addr, l) || l.root == kNoRef || !((l.s == e && l.sr == 0) || (l.s == 0 && l.sr == e && !p.f64))))
      return fail(std::string("a ") + what + " that is not contiguous in the counter");
    if (l.k != (int32_t)l.k || l.sq != (int32_t)l.sq) return fail("a displacement beyond 32 bits");
    if (l.sq && p.row_roots.count(l.root)) return fail("a row root's address moving with q");
    acc = {l.root, (int32_t)l.k, (int32_t)l.sq, l.sr == 4, gather ? (int32_t)l.s : 0};
    return true;
  }
  // The ndrange split of the counter, if the body has one.
  void find_rows() {
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      const Ins& in = t.ins[i];
      if (!in.live || in.t != CT::i32 || in.a != p.iv || !t.is_const(in.b) || t.ins[in.b].k < 16) continue;
      if (p.row_m != 0 && t.ins[in.b].k != p.row_m) continue;
      if (in.op == IrOp::div || in.op == IrOp::floordiv) p.row_q = i, p.row_m = t.ins[in.b].k;
      if (in.op == IrOp::mod || in.op == IrOp::raw_mod) p.row_r = i, p.row_m = t.ins[in.b].k;
    }
  }
  // The allocation an invariant root belongs to, and its offset in it.
  std::pair<Ref, int64_t> resolve(Ref r) {
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

  static bool lanes32(Prim pr) { return pr == Prim::f32 || pr == Prim::i32 || pr == Prim::u32; }
  static bool lanes64(Prim pr) { return pr == Prim::f64 || pr == Prim::i64 || pr == Prim::u64; }
  bool lanes_of(Prim pr) const { return p.f64 ? lanes64(pr) : lanes32(pr); }
  static bool int64(CT t) { return t == CT::i64 || t == CT::u64; }

  // The 32-bit lane type a value has (f32 or i32; u32 counts as i32 for
  // the wrapping ops), or none.
  CT lane_t(Ref r) {
    if (r == p.iv || r == p.row_q || r == p.row_r) return CT::i32;
    const Ins& in = t.ins[r];
    if (in.op == IrOp::load) return (Prim)in.k == Prim::f32 ? CT::f32 : CT::i32;
    if (is_compare(in.op)) return CT::i32;  // 0 or 1, whatever it compares
    if (in.op == IrOp::sel) return body(in.b) ? lane_t(in.b) : body(in.c) ? lane_t(in.c) : CT::u64;  // (u64: either)
    return in.t == CT::f32 ? CT::f32 : CT::i32;
  }
  static bool is_compare(IrOp op) { return op == IrOp::lt || op == IrOp::le || op == IrOp::eq || op == IrOp::ne; }

  bool signed32(Ref r) {
    if (r == p.iv || r == p.row_q || r == p.row_r) return true;
    const Ins& in = t.ins[r];
    if (in.op == IrOp::load) return (Prim)in.k == Prim::i32;
    if (is_compare(in.op)) return body(r);
    return body(r) && in.t == CT::i32;
  }

  // Marks what computing r in lanes needs; false (with p.why) when it can't be.
  bool lanes(Ref r) {
    if (r == p.iv || r == p.row_q || r == p.row_r) {
      if (p.f64) return fail("the counter as a value in f64 lanes");
      p.kind[r] = r == p.iv ? VecPlan::iota : r == p.row_q ? VecPlan::rowq : VecPlan::iota_r;
      return true;
    }
    if (!body(r)) {
      p.kind[r] = VecPlan::uniform;
      return true;
    }
    if (p.kind[r] != VecPlan::none) return true;
    const Ins& in = t.ins[r];
    if (p.f64) return lanes64(r, in);
    auto both = [&] { return lanes(in.a) && (in.b < 0 || lanes(in.b)); };
    bool f32 = in.t == CT::f32, i32 = in.t == CT::i32 || in.t == CT::u32;
    bool ok = false;
    switch (in.op) {
      case IrOp::load:
        if (!lanes32((Prim)in.k)) return fail("a load that is not 32-bit");
        if (!access_of(in.a, p.access[r], "load")) return false;
        ok = true;
        break;
      case IrOp::add: case IrOp::sub: case IrOp::mul: ok = (f32 || i32) && both(); break;
      case IrOp::div: ok = f32 && both(); break;
      case IrOp::band: case IrOp::bor: case IrOp::bxor: ok = i32 && both(); break;
      case IrOp::shl: case IrOp::shr: case IrOp::sar: ok = i32 && t.is_const(in.b) && lanes(in.a); break;
      case IrOp::floordiv: case IrOp::mod:  // Python's floor forms by a constant (asm_lane_body.cpp)
        ok = in.t == CT::i32 && t.is_const(in.b) && lane_div_magic(t.ins[in.b].k) && lanes(in.a) &&
             (in.op == IrOp::floordiv || lanes(in.b));
        break;
      case IrOp::sqrt: ok = f32 && lanes(in.a); break;
      case IrOp::floor: case IrOp::ceil: ok = f32 && lanes(in.a); break;
      case IrOp::max: case IrOp::min: ok = (f32 || i32) && both(); break;  // (f32: exact_maxmin_const or general_maxmin)
      case IrOp::fma: ok = f32 && host_has_fma3() && lanes(in.a) && lanes(in.b) && lanes(in.c); break;
      case IrOp::neg: case IrOp::abs: ok = (f32 || in.t == CT::i32) && lanes(in.a); break;  // (i32: wrapping)
      case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne:
        // f32 or i32 operands (u32 would need unsigned compares); 0/1 lanes
        ok = (f32 || in.t == CT::i32) && both();
        break;
      case IrOp::sel:  // a != 0 ? b : c, on 32-bit lanes (the result's users and stores check the width)
        ok = lanes(in.a) && lanes(in.b) && lanes(in.c) && (!body(in.a) || lane_t(in.a) == CT::i32);
        break;
      case IrOp::conv:  // int -> f32 rounds as cvtdq2ps does, for signed 32-bit sources only;
        // f32 -> i32 truncates as cvttps2dq with sem::f2i's fixes (lane_f2i)
        ok = (in.k == (int64_t)bc::Op::i64_f32 && signed32(in.a) && lanes(in.a)) ||
             (in.k == (int64_t)bc::Op::f32_i32 && lanes(in.a) && lane_t(in.a) == CT::f32);
        break;
      default: break;
    }
    if (!ok) return fail(std::string("no lanes for ") + kIrOps[(int)in.op].name);
    p.kind[r] = VecPlan::lane;
    return true;
  }
  // 64-bit lanes: f64 loads and the exact packed ops, i64/u64 loads and the
  // wrapping ones (add, sub, neg, bitwise: AVX2 has no 64-bit multiply), and
  // invariants.
  bool lanes64(Ref r, const Ins& in) {
    bool ok = false;
    switch (in.op) {
      case IrOp::load:
        if (!lanes64((Prim)in.k)) return fail("a load that is not 64-bit in 64-bit lanes");
        if (!access_of(in.a, p.access[r], "load")) return false;
        ok = true;
        break;
      case IrOp::add: case IrOp::sub:
        ok = (in.t == CT::f64 || int64(in.t)) && lanes(in.a) && lanes(in.b);
        break;
      case IrOp::mul: case IrOp::div: ok = in.t == CT::f64 && lanes(in.a) && lanes(in.b); break;
      case IrOp::band: case IrOp::bor: case IrOp::bxor: ok = int64(in.t) && lanes(in.a) && lanes(in.b); break;
      case IrOp::neg: ok = (in.t == CT::f64 || int64(in.t)) && lanes(in.a); break;
      case IrOp::sqrt: case IrOp::abs: case IrOp::floor: case IrOp::ceil: ok = in.t == CT::f64 && lanes(in.a); break;
      case IrOp::max: case IrOp::min: ok = in.t == CT::f64 && lanes(in.a) && lanes(in.b); break;  // (exact_maxmin_const or general_maxmin)
      case IrOp::fma: ok = in.t == CT::f64 && host_has_fma3() && lanes(in.a) && lanes(in.b) && lanes(in.c); break;
      default: break;
    }
    if (!ok) return fail(std::string("no 64-bit lanes for ") + kIrOps[(int)in.op].name);
    p.kind[r] = VecPlan::lane;
    return true;
  }
  // How a 32-bit lane value is held in 64 bits (for an i64 sum in 32-bit
  // lanes): 's' sign-extended (i32), 'z' zero-extended (u32), or 0: unknown.
  char widening(Ref r) {
    if (r == p.iv || r == p.row_q || r == p.row_r) return 's';
    const Ins& in = t.ins[r];
    if (t.is_const(r)) return in.k == (int32_t)in.k ? 's' : in.k == (int64_t)(uint32_t)in.k ? 'z' : 0;
    if (in.op == IrOp::load) return (Prim)in.k == Prim::i32 ? 's' : (Prim)in.k == Prim::u32 ? 'z' : 0;
    if (is_compare(in.op)) return 's';  // 0 or 1
    if (in.op == IrOp::sel || in.op == IrOp::conv) return 0;
    return in.t == CT::i32 ? 's' : in.t == CT::u32 ? 'z' : 0;
  }
  // A value carried around the loop as a fold (vector.h): the ops from the
  // slot to `val`, each reading the one before (read by it alone) and
  // folding in a term: adds and subs of one integer type, or max, min,
  // and, or, xor or mul of one type, or a conditional add (`if c: n += e`
  // is sel(c, prev + e, prev)). Records the steps; false if it is none of these.
  bool fold_chain(Ref slot, Ref val, const std::vector<int>& reads) {
    // What reaches the slot through the body's ops (a step's `prev` side).
    std::vector<bool> reach(n, false);
    for (Ref i = t.loop_ref + 1; i <= val; i++)
      for (Ref o : {t.ins[i].a, t.ins[i].b, t.ins[i].c})
        if (o >= 0 && (o == slot || (body(o) && reach[o]))) reach[i] = true;
    auto reaches = [&](Ref o) { return o == slot || (o >= 0 && body(o) && reach[o]); };
    // The family and type: a sel's from its add.
    const Ins& last = t.ins[val];
    IrOp fam = last.op == IrOp::sub || last.op == IrOp::sel ? IrOp::add : last.op;
    CT ty = last.t;
    if (last.op == IrOp::sel) {
      if (last.b < 0 || last.c < 0) return false;
      const Ins &b = t.ins[last.b], &c = t.ins[last.c];
      ty = body(last.b) && (b.op == IrOp::add || b.op == IrOp::sub) ? b.t : c.t;
    }
    // (an i64 sum in 32-bit lanes: its 32-bit terms widened, vector.h)
    bool ints = p.f64 ? int64(ty) : ty == CT::i32 || ty == CT::u32 || (int64(ty) && fam == IrOp::add);
    bool floats = ty == (p.f64 ? CT::f64 : CT::f32);
    bool ordered = (fam == IrOp::add || fam == IrOp::fma) && floats;  // (vector.h: one step, folded lane by lane)
    bool ok = ordered ? true
              : fam == IrOp::add || fam == IrOp::band || fam == IrOp::bor || fam == IrOp::bxor ? ints
              : fam == IrOp::mul                                                         ? ints && !p.f64
              : fam == IrOp::max || fam == IrOp::min ? (ints && (!p.f64 || host_has_avx512())) || floats
                                                     : false;
    if (!ok) return false;
    std::map<Ref, VecPlan::Step> steps;
    int want = 1;  // reads of the next prev: 1, or 2 under a conditional add (its add and the sel)
    for (Ref cur = val; cur != slot;) {
      if (!body(cur) || steps.size() > 16 || (cur != val && reads[cur] != want)) return false;
      const Ins& in = t.ins[cur];
      VecPlan::Step st{slot, kNoRef, in.op};
      Ref prev = kNoRef;
      if (in.op == IrOp::sel) {  // sel(c, x, prev) or sel(c, prev, x), x = prev + e or prev - e
        if (fam != IrOp::add || p.f64 || reaches(in.a)) return false;
        for (bool b_is_x : {true, false}) {
          Ref cx = b_is_x ? in.b : in.c, cp = b_is_x ? in.c : in.b;
          if (!reaches(cp) || cx == slot || !body(cx)) continue;
          const Ins& xi = t.ins[cx];
          if ((xi.op != IrOp::add && xi.op != IrOp::sub) || xi.t != ty || reads[cx] != 1) continue;
          if (xi.a == cp && !reaches(xi.b)) st.term = xi.b;
          else if (xi.op == IrOp::add && xi.b == cp && !reaches(xi.a)) st.term = xi.a;
          else continue;
          prev = cp, st.op = xi.op, st.add = cx, st.cond = in.a, st.when_zero = !b_is_x;
          break;
        }
        if (prev == kNoRef) return false;
        want = 2;
      } else if (in.op == IrOp::fma) {  // an ordered sum's fma(a, b, prev)
        if (fam != IrOp::fma || in.t != ty || !reaches(in.c) || reaches(in.a) || reaches(in.b)) return false;
        prev = in.c;
        st.term = in.a;
        st.term2 = in.b;
        want = 1;
      } else {
        IrOp f = in.op == IrOp::sub ? IrOp::add : in.op;
        if (f != fam || in.t != ty || in.b < 0) return false;
        bool ra = reaches(in.a), rb = reaches(in.b);
        if (ra == rb || (in.op == IrOp::sub && !ra)) return false;
        prev = ra ? in.a : in.b;
        st.term = ra ? in.b : in.a;
        st.term_first = !ra;
        want = 1;
      }
      steps[cur] = st;
      cur = prev;
    }
    if (reads[slot] != want || (ordered && steps.size() != 1)) return false;  // (two steps: lanes of one, then the other)
    p.steps.insert(steps.begin(), steps.end());
    p.folds[slot] = {fam, ty, ordered};
    return true;
  }
  // Split float sums (vector.h): cycles of phis p0 <- p1 <- ... <- pR-1 <-
  // p0 + e, R the partials split_sums gives (16 f32, 8 f64: one or two
  // registers of lanes), p0 read by that sum only. Marks the partials' slots.
  std::vector<bool> find_partials(const std::vector<Ref>& phis, const std::vector<int>& reads) {
    std::vector<bool> split(n, false);
    std::map<Ref, Ref> next;  // slot -> its value at the back edge
    for (Ref ph : phis) next[t.ins[ph].a] = t.ins[ph].b;
    const CT ft = p.f64 ? CT::f64 : CT::f32;
    for (Ref ph : phis) {
      Ref add = t.ins[ph].b;
      if (!body(add)) continue;
      const Ins& s = t.ins[add];
      Ref p0 = kNoRef;
      if (s.t != ft || reads[add] != 0) continue;
      if (s.op == IrOp::add) p0 = next.count(s.a) && s.b != s.a ? s.a : next.count(s.b) ? s.b : kNoRef;
      if (s.op == IrOp::sub && s.b != s.a) p0 = s.a;
      if (s.op == IrOp::fma && s.a != s.c && s.b != s.c) p0 = s.c;
      if (p0 == kNoRef || !next.count(p0) || reads[p0] != 1 || body(p0)) continue;
      std::vector<Ref> ring{p0};
      bool ok = true;
      while (ok && ring.size() < (size_t)(p.f64 ? 8 : 16)) {
        Ref nx = next[ring.back()];
        ok = !body(nx) && next.count(nx) && !t.is_const(nx) && reads[nx] == 0 && !split[nx] &&
             std::find(ring.begin(), ring.end(), nx) == ring.end();
        ring.push_back(nx);
      }
      if (!ok || next[ring.back()] != add || t.is_const(p0)) continue;
      for (Ref r : ring) split[r] = true;
      p.sums.push_back({p0, add});
      p.partials[p0] = ring;
    }
    return split;
  }
  // Interleaved groups (vector.h): per (allocation, stride), the gathered
  // loads sorted by offset; each run of S / 4 loads at B, B + 4, ..., B + S - 4
  // reads whole elements, so the 8 * S bytes from B + S * counter are exactly
  // the bytes their gathers read.
  void find_interleaved() {
    std::map<std::pair<Ref, int32_t>, std::vector<std::pair<int64_t, Ref>>> by;
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
  // Guards besides the loop test (vector.h): each tests a lane value, an i32
  // (a compare's 0/1 or any i32) for all of a chunk's lanes at once, and
  // the chunk stores nothing before its last guard has passed, so a chunk
  // that fails one has written nothing (the scalar loop then runs it from
  // its first lane). A store before a guard waits until after the last
  // (plan's order), which needs every load between them to read another
  // array (two tree bases) than the store writes.
  bool guards_in_lanes(const std::vector<Ref>& guards) {
    if (guards.empty()) return true;
    if (p.f64) return fail("a guard in 64-bit lanes");
    for (Ref gi : guards) {
      const Ins& g = t.ins[gi];
      if (g.op != IrOp::guard_nz && g.op != IrOp::guard_z) return fail(std::string("a ") + kIrOps[(int)g.op].name + " in the loop");
      if (!lanes(g.a)) return false;
      if (body(g.a) && lane_t(g.a) != CT::i32) return fail("a guard of an f32 value");
      if (!body(g.a) && t.ins[g.a].t != CT::i32) return fail("a guard of a 64-bit invariant");
    }
    for (Ref s = t.loop_ref + 1; s < guards.back(); s++) {
      if (!t.ins[s].live || t.ins[s].op != IrOp::store) continue;
      for (Ref l = s + 1; l < guards.back(); l++)
        if (t.ins[l].live && t.ins[l].op == IrOp::load && p.kind[l] == VecPlan::lane && !apart(s, l))
          return fail("a load between a store and a guard that may read what it stores");
    }
    return true;
  }
  // Whether a store held back past a load (guards_in_lanes) cannot change
  // what the load reads: arrays in different trees (different base
  // pointers), or contiguous accesses of one allocation along one direction
  // at least a chunk apart (64 bytes, 16 lanes: no lane of the load reads
  // what a lane of the store writes in the same chunk, whichever comes first).
  bool apart(Ref x, Ref y) {
    auto [rx, ox] = resolve(p.access[x].root);
    auto [ry, oy] = resolve(p.access[y].root);
    if (rx != ry) return t.ins[rx].op == IrOp::base && t.ins[ry].op == IrOp::base && t.ins[rx].k != t.ins[ry].k;
    const VecPlan::Access &ax = p.access[x], &ay = p.access[y];
    if (ax.stride || ay.stride || ax.cq != ay.cq || ax.by_r != ay.by_r) return false;
    int64_t d = (oy + ay.disp) - (ox + ax.disp);
    return d >= 64 || d <= -64;
  }
  // Last values (vector.h): val the counter, an invariant that is no
  // carried slot, or a 32-bit lane value (not a fold's step).
  bool last_values(const std::vector<Ref>& phis) {
    for (VecPlan::Last& l : p.lasts) {
      if (p.f64) return fail("a carried value exits read in 64-bit lanes");
      if (l.val == p.iv) continue;
      if (!body(l.val)) {
        for (Ref ph : phis)
          if (t.ins[ph].a == l.val) return fail("a carried value exits read that is another's");
        continue;
      }
      if (!lanes(l.val)) return false;
      if (p.kind[l.val] != VecPlan::lane) return fail("a carried value exits read that is a fold's");
      const Ins& in = t.ins[l.val];
      l.zext = lane_t(l.val) == CT::f32 || in.t == CT::u32 || (in.op == IrOp::load && (Prim)in.k == Prim::u32);
    }
    return true;
  }
  bool fail(const std::string& why) {
    if (p.why.empty()) p.why = why;
    return false;
  }

  bool plan() {
    if (t.loop_ref < 0) return fail("no loop");
    std::vector<Ref> phis, stores, guards;
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      const Ins& in = t.ins[i];
      if (!in.live) continue;
      uint8_t f = kIrOps[(int)in.op].flags;
      if (in.op == IrOp::phi) phis.push_back(i);
      else if (f & G) guards.push_back(i);
      else if (in.op == IrOp::store) stores.push_back(i);
      else if (!(f & P) || in.op == IrOp::copy) return fail(std::string("a ") + kIrOps[(int)in.op].name + " in the loop");
    }
    // The counter: slot += 1 (i32), tested `next < end` by the only guard.
    Ref next = kNoRef;
    for (Ref ph : phis) {
      const Ins& nx = t.ins[t.ins[ph].b];
      if (nx.op == IrOp::add && nx.t == CT::i32 && nx.a == t.ins[ph].a && t.is_const(nx.b) && t.ins[nx.b].k == 1) {
        p.iv = t.ins[ph].a;
        next = t.ins[ph].b;
      }
    }
    if (p.iv == kNoRef) return fail("no counter stepping by one");
    // The loop test: `next < end` as the body's last guard (a for loop), or
    // `counter < end` anywhere (a while loop's test, at the body's start),
    // which a vector chunk always passes. The other guards are tested in
    // lanes (guards_in_lanes).
    auto is_test = [&](Ref gi, Ref v) {
      const Ins& g = t.ins[gi];
      const Ins& c = t.ins[g.a];
      return g.op == IrOp::guard_nz && c.op == IrOp::lt && c.t == CT::i32 && c.a == v && !body(c.b);
    };
    auto test = guards.end();
    if (guards.empty()) return fail("a loop test that is not counter < end");
    if (is_test(guards.back(), next)) test = guards.end() - 1;
    for (auto gi = guards.begin(); gi != guards.end() && test == guards.end(); ++gi)
      if (is_test(*gi, p.iv)) test = gi;
    if (test == guards.end()) return fail("a loop test that is not counter < end");
    p.end = t.ins[t.ins[*test].a].b;
    guards.erase(test);
    // Slots the body reads: only the counter's and those of i32 sums.
    std::vector<int> reads(n, 0), exits(n, 0);  // by body ops, by exits
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      const Ins& in = t.ins[i];
      if (!in.live || in.op == IrOp::phi) continue;
      for (Ref r : {in.a, in.b, in.c})
        if (r >= 0) reads[r]++;
      if (in.snap >= 0)
        for (auto& [reg, ref] : t.snaps[in.snap].regs) exits[ref]++;
    }
    std::vector<bool> split = find_partials(phis, reads);
    for (auto& [p0, add] : p.sums) p.steps[add] = {p0, kNoRef, t.ins[add].op};  // (split sums: lanes of partials)
    std::vector<std::pair<Ref, Ref>> carried;
    for (Ref ph : phis) {
      Ref slot = t.ins[ph].a, val = t.ins[ph].b;
      if (split[slot]) continue;
      if (slot == p.iv || (reads[slot] == 0 && exits[slot] == 0)) continue;
      if (reads[slot] == 0) {  // only exits read it: a last value (vector.h)
        p.lasts.push_back({slot, val});
        continue;
      }
      // A value whose running value the body also reads (a prefix sum:
      // y[i] = s after s += x) has no lanes: each iteration needs the last.
      // (An exit may read it as it was before the body's update where the
      // loop has guards: the vector loop leaves it exact at the chunk where
      // the scalar loop goes on.)
      if ((exits[slot] != 0 && guards.empty()) || reads[val] != 0 || !fold_chain(slot, val, reads))
        return fail("a value carried around the loop that is not a sum, max, min, product or bitwise fold");
      carried.push_back({slot, val});
    }
    p.kind.assign(n, VecPlan::none);
    p.access.assign(n, {kNoRef, 0});
    find_rows();
    for (Ref s : stores) {
      const Ins& st = t.ins[s];
      if (!lanes_of((Prim)st.k)) return fail(p.f64 ? "a store that is not 64-bit in 64-bit lanes" : "a store that is not 32-bit");
      if (!access_of(st.a, p.access[s], "store") || !lanes(st.b)) return false;
      if (p.f64) {  // an f64 store of an f64 value, an integer one of an integer
        if ((t.ins[st.b].t == CT::f64) != ((Prim)st.k == Prim::f64)) return fail("a store of another lane type");
        continue;
      }
      CT vt = body(st.b) && st.b != p.iv ? lane_t(st.b) : CT::u64;
      if (vt != CT::u64 && (vt == CT::f32) != ((Prim)st.k == Prim::f32))
        return fail("a store of another lane type");
    }
    for (auto& [slot, add] : p.sums) {
      const Ins& s = t.ins[add];
      if (s.op == IrOp::fma && !host_has_fma3()) return fail("an fma sum without FMA3");
      for (Ref o : {s.a, s.b, s.c})
        if (o >= 0 && o != slot && !lanes(o)) return false;
      p.kind[add] = VecPlan::reduce;
    }
    for (auto& [slot, val] : carried) p.sums.push_back({slot, val});
    for (auto& [i, st] : p.steps) {
      if (p.partials.count(st.slot)) continue;
      if (!lanes(st.term) || (st.term2 != kNoRef && !lanes(st.term2)) ||
          (st.cond != kNoRef && (!lanes(st.cond) || (body(st.cond) && lane_t(st.cond) != CT::i32))))
        return false;
      if (st.op == IrOp::fma && !host_has_fma3()) return fail("an fma sum without FMA3");
      CT lt = body(st.term) && !p.f64 ? lane_t(st.term) : CT::u64;  // (u64: either)
      if (lt != CT::u64 && (lt == CT::f32) != (p.folds[st.slot].t == CT::f32)) return fail("a fold of another lane type");
      if (!p.f64 && int64(p.folds[st.slot].t) && !(st.widen = widening(st.term)))
        return fail("an i64 sum of a term that is not a 32-bit integer");
      p.kind[i] = VecPlan::reduce;
      if (st.add != kNoRef) p.kind[st.add] = VecPlan::reduce;  // (a conditional add's add: emitted with its sel)
    }
    if (!last_values(phis) || !guards_in_lanes(guards)) return false;
    // Loads and stores in body order; the planned ones are what the loop runs.
    // A sum's add or a store before a guard waits until after the last
    // guard (no body op reads the add; guards_in_lanes: no load between reads
    // the store's array), so a chunk that fails a guard has added and
    // stored nothing.
    std::vector<Ref> mem, deferred;
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      bool planned = p.kind[i] == VecPlan::lane || p.kind[i] == VecPlan::reduce || t.ins[i].op == IrOp::store;
      if (!guards.empty() && i > guards.back() && !deferred.empty()) {
        p.order.insert(p.order.end(), deferred.begin(), deferred.end());
        deferred.clear();
      }
      if (std::find(guards.begin(), guards.end(), i) != guards.end()) p.order.push_back(i);
      else if (planned && t.ins[i].live)
        ((p.kind[i] == VecPlan::reduce || t.ins[i].op == IrOp::store) && !guards.empty() && i < guards.back() ? deferred : p.order).push_back(i);
      if (t.ins[i].live && (t.ins[i].op == IrOp::store || (t.ins[i].op == IrOp::load && p.kind[i] == VecPlan::lane)))
        mem.push_back(i);
    }
    p.order.insert(p.order.end(), deferred.begin(), deferred.end());
    p.guards = !guards.empty();
    // Lanes reorder accesses across 8 iterations: Y after X in the body, one
    // of them a store, must not reach X's bytes of an earlier iteration.
    for (size_t x = 0; x < mem.size(); x++)
      for (size_t y = x + 1; y < mem.size(); y++) {
        Ref X = mem[x], Y = mem[y];
        if (t.ins[X].op != IrOp::store && t.ins[Y].op != IrOp::store) continue;
        auto [rx, ox] = resolve(p.access[X].root);
        auto [ry, oy] = resolve(p.access[Y].root);
        if (rx != ry) {
          if (t.ins[rx].op == IrOp::base && t.ins[ry].op == IrOp::base && t.ins[rx].k != t.ins[ry].k) continue;
          return fail("two arrays that may overlap");
        }
        const VecPlan::Access &ax = p.access[X], &ay = p.access[Y];
        if (ax.stride || ay.stride) return fail("a gathered load beside a store of its array");
        if (ax.cq != ay.cq || ax.by_r != ay.by_r) return fail("accesses of one array along different directions");
        int64_t d = (oy + ay.disp) - (ox + ax.disp);
        if (d > 0 && d < 32) return fail("an access that reads or writes what an earlier iteration wrote");
      }
    // Without row accesses the split is just arithmetic on lanes.
    bool rows = false;
    for (Ref i : mem) rows |= p.access[i].cq != 0 || p.access[i].by_r;
    bool gathers = false;
    for (Ref i : mem) gathers |= p.access[i].stride != 0;
    for (Ref i : p.order)
      for (Ref o : {t.ins[i].a, t.ins[i].b})
        rows |= o >= 0 && (p.kind[o] == VecPlan::rowq || p.kind[o] == VecPlan::iota_r);
    rows |= !p.row_roots.empty();  // (a row root is a row's: lanes must not cross rows)
    if (!rows) p.row_m = 0, p.row_q = p.row_r = kNoRef;
    if (rows && p.f64) return fail("ndrange rows in f64 lanes");
    for (auto& [i, st] : p.steps)  // (its lanes have no masked form: a row's end is masked)
      if (rows && st.op == IrOp::fma && p.folds.count(st.slot) && p.folds.at(st.slot).ordered)
        return fail("an ordered fma sum in ndrange rows");
    if (rows && gathers) return fail("a gathered load in ndrange rows");
    if (gathers) find_interleaved();
    return true;
  }
};

}  // namespace

VecPlan plan_vector(const Trace& t) {
  VecPlan p;
  Planner pl{t, p, (Ref)t.ins.size()};
  p.ok = pl.plan();
  if (!p.ok) {  // eight 32-bit lanes failed: four f64 ones?
    VecPlan q;
    q.f64 = true;
    Planner p64{t, q, (Ref)t.ins.size()};
    if ((q.ok = p64.plan())) return q;
    p.kind.clear();
    p.order.clear();
  }
  return p;
}

}  // namespace kiln::jit
