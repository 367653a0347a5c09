// Which loops run in lanes (vector.h): the planner's walk over the loop
// (vector_planner.h; addresses, lanes and carried values in files of their own).
#include <algorithm>

#include "jit/backend.h"
#include "jit/vector_planner.h"

namespace kiln::jit {
namespace planner {

using bc::CT;

bool Planner::plan() {
  if (t.loop_ref < 0) return fail("no loop");
  ScratchVec<Ref> phis, stores, guards;
  ScratchVec<std::pair<Ref, Ref>> carried;
  if (!loop_test(phis, stores, guards) || !carried_values(phis, guards, carried)) return false;
  p.kind.assign(n, VecPlan::none);
  p.access.assign(n, {kNoRef, 0});
  find_rows();
  if (!stores_and_folds(stores, carried)) return false;
  if (!last_values(phis) || !guards_in_lanes(guards)) return false;
  ScratchVec<Ref> mem = lane_order(guards);
  return apart_in_lanes(mem) && row_shape(mem) && store_groups(mem) && strided_apart(mem);
}

// The body's phis, guards and stores (and no op but pure ones), the
// counter, and the loop test (taken out of `guards`).
bool Planner::loop_test(ScratchVec<Ref>& phis, ScratchVec<Ref>& stores, ScratchVec<Ref>& guards) {
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
  return true;
}

// The values carried around the loop besides the counter: split float
// sums (find_partials), last values, and folds (returned in `carried`).
bool Planner::carried_values(const ScratchVec<Ref>& phis, const ScratchVec<Ref>& guards,
                             ScratchVec<std::pair<Ref, Ref>>& carried) {
  // Slots the body reads: only the counter's and those of i32 sums.
  ScratchVec<int> reads(n, 0), exits(n, 0);  // by body ops, by exits
  for (Ref i = t.loop_ref + 1; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live || in.op == IrOp::phi) continue;
    for (Ref r : {in.a, in.b, in.c})
      if (r >= 0) reads[r]++;
    if (in.snap >= 0)
      for (auto& [reg, ref] : t.snaps[in.snap].regs) exits[ref]++;
  }
  ScratchVec<bool> split = find_partials(phis, reads);
  for (auto& [p0, add] : p.sums) p.steps[add] = {p0, kNoRef, t.ins[add].op};  // (split sums: lanes of partials)
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
  return true;
}

// Stores and sums in lanes: each store's access and value, each sum's and
// fold's operands; the folds join p.sums after the split sums.
bool Planner::stores_and_folds(const ScratchVec<Ref>& stores, const ScratchVec<std::pair<Ref, Ref>>& carried) {
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
  return true;
}

// Guards besides the loop test (vector.h): each tests a lane value, an i32
// (a compare's 0/1 or any i32) for all of a chunk's lanes at once, and
// the chunk stores nothing before its last guard has passed, so a chunk
// that fails one has written nothing (the scalar loop then runs it from
// its first lane). A store before a guard waits until after the last
// (plan's order), which needs every load between them to read another
// array (two tree bases) than the store writes.
bool Planner::guards_in_lanes(const ScratchVec<Ref>& guards) {
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

// Loads and stores in body order; the planned ones are what the loop runs.
// A sum's add or a store before a guard waits until after the last
// guard (no body op reads the add; guards_in_lanes: no load between reads
// the store's array), so a chunk that fails a guard has added and
// stored nothing. An ordered sum's unconditional step goes to the body's
// end (nothing in the body reads it either): the steps there fold their
// lanes together, the sums' dependent adds interleaved (LaneBody::
// ordered_run) instead of one sum's chain after another's, each behind
// the divisions of its own terms. Returns the loads and stores in lanes,
// in body order.
ScratchVec<Ref> Planner::lane_order(const ScratchVec<Ref>& guards) {
  ScratchVec<Ref> mem, deferred, last;
  for (Ref i = t.loop_ref + 1; i < n; i++) {
    bool planned = p.kind[i] == VecPlan::lane || p.kind[i] == VecPlan::reduce || t.ins[i].op == IrOp::store;
    if (!guards.empty() && i > guards.back() && !deferred.empty()) {
      p.order.insert(p.order.end(), deferred.begin(), deferred.end());
      deferred.clear();
    }
    if (std::find(guards.begin(), guards.end(), i) != guards.end()) p.order.push_back(i);
    else if (planned && t.ins[i].live && p.kind[i] == VecPlan::reduce && p.batched_step(i)) last.push_back(i);
    else if (planned && t.ins[i].live)
      ((p.kind[i] == VecPlan::reduce || t.ins[i].op == IrOp::store) && !guards.empty() && i < guards.back() ? deferred : p.order).push_back(i);
    if (t.ins[i].live && (t.ins[i].op == IrOp::store || (t.ins[i].op == IrOp::load && p.kind[i] == VecPlan::lane)))
      mem.push_back(i);
  }
  p.order.insert(p.order.end(), deferred.begin(), deferred.end());
  p.order.insert(p.order.end(), last.begin(), last.end());
  p.guards = !guards.empty();
  return mem;
}

// Lanes reorder accesses across 8 iterations: Y after X in the body, one
// of them a store, must not reach X's bytes of an earlier iteration.
bool Planner::apart_in_lanes(const ScratchVec<Ref>& mem) {
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
      if (ax.stride && ax.stride == ay.stride) continue;  // (strided_apart, once the groups are known)
      if (ax.stride || ay.stride) return fail("a gathered load beside a store of its array");
      if (ax.cq != ay.cq || ax.cp != ay.cp || ax.cv != ay.cv || ax.by_r != ay.by_r)
        return fail("accesses of one array along different directions");
      int64_t d = (oy + ay.disp) - (ox + ax.disp);
      if (d > 0 && d < 32) return fail("an access that reads or writes what an earlier iteration wrote");
      if (d > 0 && d < 64) p.lanes8 = true;  // (16 lanes would: x[i + 10] = sqrt(x[i]))
    }
  return true;
}

// Without row accesses the split is just arithmetic on lanes.
bool Planner::row_shape(const ScratchVec<Ref>& mem) {
  bool rows = false;
  for (Ref i : mem) rows |= p.access[i].cq != 0 || p.access[i].cp != 0 || p.access[i].cv != 0 || p.access[i].by_r;
  // (a root's register moves by cp at each plane and cv at each volume: one
  // cp and cv for each root and cq)
  for (Ref x : mem)
    for (Ref y : mem) {
      const VecPlan::Access &ax = p.access[x], &ay = p.access[y];
      if (ax.root == ay.root && ax.cq == ay.cq && (ax.cp != ay.cp || ax.cv != ay.cv))
        return fail("accesses of one root along different planes");
    }
  bool gathers = false;
  for (Ref i : mem) gathers |= p.access[i].stride != 0;
  for (Ref i : p.order)  // (every operand: a select's value may be c, as in ti.select(x[i], x[i], i // 1000))
    for (Ref o : {t.ins[i].a, t.ins[i].b, t.ins[i].c})
      rows |= o >= 0 && (p.kind[o] == VecPlan::rowq || p.kind[o] == VecPlan::iota_r || p.kind[o] == VecPlan::plane ||
                         p.kind[o] == VecPlan::in_plane || p.kind[o] == VecPlan::vol || p.kind[o] == VecPlan::in_vol);
  rows |= !p.row_roots.empty();  // (a row root is a row's: lanes must not cross rows)
  if (!rows) {
    p.row_m = p.row_p = p.row_v = 0, p.row_q = p.row_r = kNoRef;
    p.plane_refs.clear(), p.in_plane_refs.clear(), p.vol_refs.clear(), p.in_vol_refs.clear();
  }
  if (rows && p.f64) return fail("ndrange rows in f64 lanes");
  for (auto& [i, st] : p.steps)  // (its lanes have no masked form: a row's end is masked)
    if (rows && st.op == IrOp::fma && p.folds.count(st.slot) && p.folds.at(st.slot).ordered)
      return fail("an ordered fma sum in ndrange rows");
  if (rows && gathers) return fail("a gathered load in ndrange rows");
  if (gathers) find_interleaved();
  return true;
}

// Interleaved stores (vector.h): a store at a stride is one of a group
// that stores every component of its element, with no guard between its
// first and last store: the lanes store the group at its last store
// (asm_interleave.cpp), and an exit between would find some components of
// the chunk stored and not others (guards_in_lanes defers stores past the
// last guard anyway; this keeps the rule simple). Loads between (x[i] +=
// v[i] * dt is x0 = x0 + ..., store x0, x1 = x1 + ..., store x1, ...) are
// strided_apart's: a load of the array's other component reads bytes the
// moved store does not write. The rest keep the refusal of any store not
// contiguous.
bool Planner::store_groups(const ScratchVec<Ref>& mem) {
  const char* refuse = "a store that is not contiguous in the counter";
  FlatMap<std::pair<Ref, int32_t>, std::vector<std::pair<int64_t, Ref>>> by;
  for (Ref i : mem) {
    const VecPlan::Access& acc = p.access[i];
    if (t.ins[i].op != IrOp::store || !acc.stride) continue;
    if (acc.stride != 8 && acc.stride != 12 && acc.stride != 16) return fail(refuse);
    auto [root, off] = resolve(acc.root);
    by[{root, acc.stride}].push_back({off + acc.disp, i});
  }
  for (auto& [key, v] : by) {
    std::sort(v.begin(), v.end());
    const size_t n = (size_t)key.second / 4;
    if (v.size() % n) return fail(refuse);
    for (size_t k = 0; k < v.size(); k += n) {
      std::vector<Ref> comp;
      for (size_t j = 0; j < n; j++) {
        if (v[k + j].first != v[k].first + 4 * (int64_t)j) return fail(refuse);
        comp.push_back(v[k + j].second);
      }
      Ref first = *std::min_element(comp.begin(), comp.end()), last = *std::max_element(comp.begin(), comp.end());
      for (Ref i = first + 1; i < last; i++) {
        const Ins& in = t.ins[i];
        if (!in.live || std::find(comp.begin(), comp.end(), i) != comp.end()) continue;
        if (kIrOps[(int)in.op].flags & G) return fail("a guard between the stores of a vector element's components");
      }
      p.interleaved_stores[last] = comp;
    }
  }
  return true;
}

// Strided accesses of one array at one stride S (apart_in_lanes left them
// here): interleaved groups move a load to its group's first load and a
// store to its group's last, so with A the access the lanes run first and
// B the other (one a store), all of a chunk's A then all of its B. The
// scalar loop runs B(j') before A(j) where j' < j, or j' = j and B comes
// first in the body: lanes that reach the same bytes then (A's offset +
// S * m within 4 bytes of B's, m = j - j' in 1..15, or 0 too) see them
// out of order. (15: a 16-lane loop, asm_wide.cpp.)
bool Planner::strided_apart(const ScratchVec<Ref>& mem) {
  auto pos = [&](Ref i) {  // where the lanes run it
    Ref at = i;
    if (Ref last = p.store_group(i); last != kNoRef) at = last;
    for (auto& [first, comp] : p.interleaved)
      if (std::find(comp.begin(), comp.end(), i) != comp.end()) at = first;
    return std::find(p.order.begin(), p.order.end(), at) - p.order.begin();
  };
  for (size_t x = 0; x < mem.size(); x++)
    for (size_t y = x + 1; y < mem.size(); y++) {
      Ref X = mem[x], Y = mem[y];
      const VecPlan::Access &ax = p.access[X], &ay = p.access[Y];
      if ((t.ins[X].op != IrOp::store && t.ins[Y].op != IrOp::store) || !ax.stride || ax.stride != ay.stride) continue;
      auto [rx, ox] = resolve(ax.root);
      auto [ry, oy] = resolve(ay.root);
      if (rx != ry) continue;  // (apart_in_lanes: other allocations)
      auto px = pos(X), py = pos(Y);
      if (px == py) continue;  // (one group: one element's distinct components)
      bool in_order = px < py;
      int64_t d = in_order ? (oy + ay.disp) - (ox + ax.disp) : (ox + ax.disp) - (oy + ay.disp);
      for (int64_t m = in_order ? 1 : 0; m < 16; m++)
        if (d - ax.stride * m > -4 && d - ax.stride * m < 4)
          return fail("an access that reads or writes what an earlier iteration wrote");
    }
  return true;
}

}  // namespace planner

VecPlan plan_vector(const Trace& t) {
  VecPlan p;
  planner::Planner pl{t, p, (Ref)t.ins.size()};
  p.ok = pl.plan();
  if (!p.ok) {  // eight 32-bit lanes failed: four f64 ones?
    VecPlan q;
    q.f64 = true;
    planner::Planner p64{t, q, (Ref)t.ins.size()};
    if ((q.ok = p64.plan())) return q;
    p.kind.clear();
    p.order.clear();
  }
  return p;
}

}  // namespace kiln::jit
