// The values the vector loop carries around (vector_planner.h, vector.h):
// folds, split float sums' partials, and last values that only exits read.
#include <algorithm>
#include <map>

#include "jit/backend.h"
#include "jit/vector_planner.h"

namespace kiln::jit::planner {

using bc::CT;

// A value carried around the loop as a fold (vector.h): the ops from the
// slot to `val`, each reading the one before (read by it alone) and
// folding in a term: adds and subs of one integer type, or max, min,
// and, or, xor or mul of one type, or a conditional add (`if c: n += e`
// is sel(c, prev + e, prev)). Records the steps; false if it is none of these.
bool Planner::fold_chain(Ref slot, Ref val, const ScratchVec<int>& reads) {
  // What reaches the slot through the body's ops (a step's `prev` side).
  ScratchVec<bool> reach(n, false);
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
  FlatMap<Ref, VecPlan::Step> steps;
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
ScratchVec<bool> Planner::find_partials(const ScratchVec<Ref>& phis, const ScratchVec<int>& reads) {
  ScratchVec<bool> split(n, false);
  FlatMap<Ref, Ref> next;  // slot -> its value at the back edge
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

// Last values (vector.h): val the counter, an invariant that is no
// carried slot, or a 32-bit lane value (not a fold's step).
bool Planner::last_values(const ScratchVec<Ref>& phis) {
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

}  // namespace kiln::jit::planner
