// Which loop traces run their copies in lanes (while_lanes.h): the copies,
// their positions, the operands' sources and the guards.
#include "jit/while_lanes.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "jit/backend.h"

namespace kiln::jit {

using bc::CT;

namespace {

struct WhilePlanner {
  const Trace& t;
  WhilePlan& p;
  Ref n;
  std::vector<Ref> phis;           // live phis
  std::map<Ref, int> slot_phi;     // phi slot -> index in phis
  std::vector<uint64_t> dep;       // body op -> the phis whose slots it reads (transitively)
  std::vector<int> comp;           // phi -> its copy
  std::vector<int> copy_of;        // body op -> its copy, -1: none, -2: several
  std::vector<std::vector<Ref>> L; // L[c]: copy c's ops in body order
  std::vector<int> pos;            // body op -> its position in its copy
  std::vector<Ref> guards;

  bool body(Ref r) const { return r > t.loop_ref; }
  bool fail(const std::string& why) {
    if (p.why.empty()) p.why = why;
    return false;
  }

  // The ops with lanes: pure 32-bit arithmetic, compares and selects.
  static bool lane_op(const Ins& in) {
    switch (in.op) {
      case IrOp::add: case IrOp::sub: case IrOp::mul: case IrOp::neg: case IrOp::abs: case IrOp::max: case IrOp::min:
        return in.t == CT::f32 || in.t == CT::f64 || in.t == CT::i32 || in.t == CT::u32;
      case IrOp::div: case IrOp::sqrt: return in.t == CT::f32 || in.t == CT::f64;
      case IrOp::fma: return (in.t == CT::f32 || in.t == CT::f64) && host_has_fma3();
      case IrOp::band: case IrOp::bor: case IrOp::bxor: return in.t == CT::i32 || in.t == CT::u32;
      case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne: return in.t == CT::f32 || in.t == CT::f64 || in.t == CT::i32;
      case IrOp::sel: return true;
      default: return false;
    }
  }

  bool find_ops() {
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      const Ins& in = t.ins[i];
      if (!in.live) continue;
      if (in.op == IrOp::phi) {
        if (t.is_const(in.a) || body(in.a) || slot_phi.count(in.a)) return fail("a phi of a constant or a shared slot");
        slot_phi[in.a] = (int)phis.size();
        phis.push_back(i);
      } else if (in.op == IrOp::guard_nz || in.op == IrOp::guard_z) {
        guards.push_back(i);
      } else if (!lane_op(in)) {
        return fail(std::string("a ") + kIrOps[(int)in.op].name + " without lanes");
      }
    }
    if (phis.empty() || phis.size() > 64) return fail("no phis, or more than 64");
    return true;
  }

  // The copies: phis whose values read each other's slots are one copy's.
  bool find_copies() {
    dep.assign(n, 0);
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      const Ins& in = t.ins[i];
      if (!in.live || in.op == IrOp::phi) continue;
      for (Ref o : {in.a, in.b, in.c}) {
        if (o < 0) continue;
        if (body(o)) dep[i] |= dep[o];
        else if (auto s = slot_phi.find(o); s != slot_phi.end()) dep[i] |= 1ull << s->second;
      }
    }
    std::vector<int> up(phis.size());
    for (size_t q = 0; q < up.size(); q++) up[q] = (int)q;
    auto root = [&](int q) {
      while (up[q] != q) q = up[q] = up[up[q]];
      return q;
    };
    for (size_t q = 0; q < phis.size(); q++) {
      Ref v = t.ins[phis[q]].b;
      if (!body(v)) return fail("a phi of a value from before the loop");
      for (size_t r = 0; r < phis.size(); r++)
        if (dep[v] >> r & 1) up[root((int)r)] = root((int)q);
    }
    // Copy numbers in the order the copies' first ops come in the body.
    std::map<int, int> number;
    copy_of.assign(n, -1);
    comp.assign(phis.size(), -1);
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      const Ins& in = t.ins[i];
      if (!in.live || in.op == IrOp::phi || in.op == IrOp::guard_nz || in.op == IrOp::guard_z) continue;
      if (dep[i] == 0) return fail("an op in the loop that reads no carried value");
      int c = -1;
      for (size_t r = 0; r < phis.size(); r++) {
        if (!(dep[i] >> r & 1)) continue;
        int k = number.emplace(root((int)r), (int)number.size()).first->second;
        c = c == -1 || c == k ? k : -2;
      }
      copy_of[i] = c;
    }
    for (size_t q = 0; q < phis.size(); q++) {
      auto k = number.find(root((int)q));
      if (k == number.end()) return fail("a phi no op reads");
      comp[q] = k->second;
    }
    p.K = (int)number.size();
    if (p.K != 4 && p.K != 8) return fail("not 4 or 8 copies");
    L.assign(p.K, {});
    pos.assign(n, -1);
    for (Ref i = t.loop_ref + 1; i < n; i++)
      if (copy_of[i] >= 0) {
        pos[i] = (int)L[copy_of[i]].size();
        L[copy_of[i]].push_back(i);
      }
    for (auto& l : L)
      if (l.size() != L[0].size()) return fail("copies of different lengths");
    return true;
  }

  // Copy c's ops in copy 0's order: the recorder puts a converted if's
  // taken block first, so copies that took different branches while it
  // recorded hold the same ops in another order. Op j of copy 0 goes with the
  // first op of copy c of the same kind whose operands go with its operands
  // (earlier ops, by this matching; values from before the loop, one to one).
  // Any matching so found is right: the copies' values are then computed by
  // the same ops from corresponding values.
  bool align() {
    for (int c = 1; c < p.K; c++) {
      std::vector<Ref> img(n, kNoRef);
      std::map<Ref, Ref> head, back;  // copy 0's value from before the loop <-> copy c's
      std::vector<bool> used(n, false);
      std::vector<Ref> out;
      for (Ref r0 : L[0]) {
        const Ins& i0 = t.ins[r0];
        Ref found = kNoRef;
        for (Ref rc : L[(size_t)c]) {
          const Ins& ic = t.ins[rc];
          if (used[rc] || ic.op != i0.op || ic.t != i0.t || ic.k != i0.k) continue;
          std::vector<std::pair<Ref, Ref>> add;
          bool ok = true;
          for (int o = 0; o < 3 && ok; o++) {
            Ref x0 = o == 0 ? i0.a : o == 1 ? i0.b : i0.c, xc = o == 0 ? ic.a : o == 1 ? ic.b : ic.c;
            if (x0 < 0 || xc < 0) ok = x0 < 0 && xc < 0;
            else if (body(x0)) ok = img[x0] == xc;
            else if (body(xc)) ok = false;
            else if (x0 == xc || (t.is_const(x0) && t.is_const(xc) && t.ins[x0].k == t.ins[xc].k)) ok = !slot_phi.count(x0);
            else {
              auto h = head.find(x0);
              auto b = back.find(xc);
              bool pending = std::find(add.begin(), add.end(), std::make_pair(x0, xc)) != add.end();
              ok = (h != head.end() && h->second == xc) || pending ||
                   (h == head.end() && b == back.end() && slot_phi.count(x0) == slot_phi.count(xc));
              if (ok && h == head.end() && !pending) add.push_back({x0, xc});
            }
          }
          if (!ok) continue;
          for (auto& [x0, xc] : add) head[x0] = xc, back[xc] = x0;
          found = rc;
          break;
        }
        if (found == kNoRef) return fail("copies of different ops");
        img[r0] = found;
        used[found] = true;
        out.push_back(found);
      }
      L[(size_t)c] = out;
      for (size_t j = 0; j < out.size(); j++) pos[out[j]] = (int)j;
    }
    return true;
  }

  // The lane type of a body op's value (f32, i32 or u32); u64 where
  // unknown: a select of values from before the loop and constants (a live
  // flag), which the lane loop takes as a sign-extended 32-bit value
  // (checked at entry, while_lanes.h).
  CT type_of(Ref r) const {
    if (!body(r)) return CT::u64;
    const Ins& in = t.ins[r];
    if (in.op == IrOp::lt || in.op == IrOp::le || in.op == IrOp::eq || in.op == IrOp::ne) return CT::i32;
    if (in.op != IrOp::sel) return in.t;
    CT b = type_of(in.b);
    return b != CT::u64 ? b : type_of(in.c);
  }

  // The source of operand o of position j, the same in every copy.
  bool operand(int j, int o, WhilePlan::Operand& out) {
    auto opd = [&](int c) {
      const Ins& in = t.ins[L[c][j]];
      return o == 0 ? in.a : o == 1 ? in.b : in.c;
    };
    Ref r0 = opd(0);
    if (r0 < 0) return true;
    if (body(r0)) {
      out = {WhilePlan::kPacked, pos[r0], kNoRef};
      for (int c = 0; c < p.K; c++)
        if (!body(opd(c)) || copy_of[opd(c)] != c || pos[opd(c)] != pos[r0]) return fail("copies that differ in an operand");
      return true;
    }
    if (slot_phi.count(r0)) {
      int q0 = slot_phi.at(r0);
      int ci = -1;
      for (size_t k = 0; k < p.carried.size(); k++)
        if (p.carried[k].slot[0] == r0) ci = (int)k;
      if (ci < 0) return fail("a carried value of another copy");
      (void)q0;
      for (int c = 0; c < p.K; c++)
        if (p.carried[ci].slot[c] != opd(c)) return fail("copies that differ in a carried operand");
      out = {WhilePlan::kCarried, ci, kNoRef};
      return true;
    }
    bool same = true, consts = true;
    for (int c = 0; c < p.K; c++) {
      Ref r = opd(c);
      if (body(r) || slot_phi.count(r)) return fail("copies that differ in an operand");
      same &= r == r0;
      consts &= t.is_const(r) && t.ins[r].k == t.ins[r0].k;
    }
    if (same || consts) {
      out = {WhilePlan::kShared, -1, r0};
      return true;
    }
    std::vector<Ref> v;
    for (int c = 0; c < p.K; c++) v.push_back(opd(c));
    auto f = std::find(p.per_copy.begin(), p.per_copy.end(), v);
    out = {WhilePlan::kPerCopy, (int)(f - p.per_copy.begin()), kNoRef};
    if (f == p.per_copy.end()) p.per_copy.push_back(v);
    return true;
  }

  // Each copy's phis, matched by the position of their values.
  bool match_carried() {
    std::vector<std::vector<std::pair<int, Ref>>> by(p.K);  // (val's position, phi)
    for (size_t q = 0; q < phis.size(); q++) {
      Ref v = t.ins[phis[q]].b;
      if (copy_of[v] != comp[q]) return fail("a phi whose value is another copy's");
      by[comp[q]].push_back({pos[v], phis[q]});
    }
    for (auto& b : by) {
      std::sort(b.begin(), b.end());
      if (b.size() != by[0].size()) return fail("copies with different phis");
    }
    for (size_t k = 0; k < by[0].size(); k++) {
      WhilePlan::Carried cv;
      cv.val = by[0][k].first;
      for (int c = 0; c < p.K; c++) {
        if (by[c][k].first != cv.val) return fail("copies with different phis");
        cv.slot.push_back(t.ins[by[c][k].second].a);
      }
      cv.t = type_of(L[0][(size_t)cv.val]);
      p.carried.push_back(cv);
    }
    return true;
  }

  bool match_ops() {
    bool f32 = false;
    for (size_t j = 0; j < L[0].size(); j++) {
      WhilePlan::Op op;
      const Ins& i0 = t.ins[L[0][j]];
      for (int c = 0; c < p.K; c++) {
        const Ins& in = t.ins[L[c][j]];
        if (in.op != i0.op || in.t != i0.t || in.k != i0.k) return fail("copies of different ops");
        op.refs.push_back(L[c][j]);
      }
      for (int o = 0; o < 3; o++)
        if (!operand((int)j, o, op.opd[(size_t)o])) return false;
      op.t = type_of(L[0][j]);

      if ((i0.op == IrOp::max || i0.op == IrOp::min) && (i0.t == CT::f32 || i0.t == CT::f64) &&
          op.opd[0].src == WhilePlan::kShared && op.opd[1].src == WhilePlan::kShared)
        return fail("a float max or min of two values from before the loop");  // (one scratch register for them)
      if (i0.op == IrOp::sel) {
        if (!body(i0.a) || type_of(i0.a) == CT::f32) return fail("a select on a value that is not a 32-bit integer in the loop");

        if (!body(i0.b) && !body(i0.c) && op.opd[1].src == WhilePlan::kShared && op.opd[2].src == WhilePlan::kShared)
          return fail("a select of two values from before the loop");
      }
      p.ops.push_back(op);
    }
    types();
    for (const auto& op : p.ops) {
      const Ins& i0 = t.ins[op.refs[0]];
      if (i0.op == IrOp::sel && op.t == CT::u64)  // (taken as a sign-extended i32)
        for (Ref r : {i0.b, i0.c})
          if (t.is_const(r) && t.ins[r].k != (int64_t)(int32_t)t.ins[r].k) return fail("a select of a 64-bit constant");
      CT it = i0.op == IrOp::sel ? op.t : i0.t;  // (a compare's: its operands')
      if (it == CT::f64 || op.t == CT::f64) p.es = 8;
      f32 |= it == CT::f32 || op.t == CT::f32;
    }
    if (p.es == 8 && (f32 || p.K != 4)) return fail("f32 and f64 in one loop, or 8 copies of f64");
    return true;
  }

  // A select's type, where its values are from before the loop or carried
  // (`x = c0 if c0 < x else x`), is its float readers' or its values': the
  // types flow along selects and carried values until nothing changes. What stays
  // unknown (u64) is an integer select of constants and frame values (a
  // live flag), which the lane loop takes as a sign-extended i32 (checked at
  // entry). Then each operand's type as its op reads it.
  void types() {
    auto opd_t = [&](const WhilePlan::Op& op, int k) {
      const Ins& i0 = t.ins[op.refs[0]];
      return i0.op != IrOp::sel ? i0.t : k == 0 ? CT::i32 : op.t;
    };
    for (bool changed = true; changed;) {
      changed = false;
      // Only float types: an integer op reads the low half of what a select
      // passes whole (a frame value's 64 bits), so it says nothing of it.
      auto learn = [&](CT& x, CT y) {
        if (x == CT::u64 && (y == CT::f32 || y == CT::f64)) x = y, changed = true;
      };
      for (auto& op : p.ops) {
        const Ins& i0 = t.ins[op.refs[0]];
        for (int k = 0; k < 3; k++) {
          WhilePlan::Operand& o = op.opd[(size_t)k];
          CT want = opd_t(op, k);
          if (o.src == WhilePlan::kPacked) {
            learn(p.ops[(size_t)o.idx].t, want);
            if (i0.op == IrOp::sel && k > 0) learn(op.t, p.ops[(size_t)o.idx].t);
          } else if (o.src == WhilePlan::kCarried) {
            learn(p.carried[(size_t)o.idx].t, want);
            if (i0.op == IrOp::sel && k > 0) learn(op.t, p.carried[(size_t)o.idx].t);
          }
        }
      }
      for (auto& cv : p.carried) {
        learn(cv.t, p.ops[(size_t)cv.val].t);
        learn(p.ops[(size_t)cv.val].t, cv.t);
      }
    }
    for (auto& op : p.ops)
      for (int k = 0; k < 3; k++) op.opd[(size_t)k].t = opd_t(op, k);
  }

  // A guard of the or of the copies' values (the jammed loop's test), or
  // K guards, one a copy, of one position.
  bool match_guards() {
    std::map<std::pair<int, int>, int> per;  // (position, op) -> copies guarded
    for (Ref g : guards) {
      const Ins& gi = t.ins[g];
      bool nz = gi.op == IrOp::guard_nz;
      if (!body(gi.a)) return fail("a guard of a value from before the loop");
      if (copy_of[gi.a] >= 0) {
        per[{pos[gi.a], nz}] |= 1 << copy_of[gi.a];
        continue;
      }
      // An or of ors: its leaves one op a copy, all at one position.
      std::vector<Ref> todo{gi.a}, leaves;
      while (!todo.empty()) {
        Ref r = todo.back();
        todo.pop_back();
        if (copy_of[r] >= 0) {
          leaves.push_back(r);
          continue;
        }
        const Ins& in = t.ins[r];
        if (in.op != IrOp::bor || !body(in.a) || !body(in.b)) return fail("a guard of copies' values that is not an or");
        todo.push_back(in.a);
        todo.push_back(in.b);
      }
      uint32_t seen = 0;
      for (Ref l : leaves) {
        if (pos[l] != pos[leaves[0]] || (seen >> copy_of[l] & 1)) return fail("a guard of an or of other values");
        seen |= 1u << copy_of[l];
      }
      if (seen != (1u << p.K) - 1) return fail("a guard of an or of other values");
      p.guards.push_back({pos[leaves[0]], true, nz});
    }
    for (auto& [key, mask] : per) {
      if (mask != (1 << p.K) - 1) return fail("a guard in some copies only");
      p.guards.push_back({key.first, false, key.second != 0});
    }
    // Ops of several copies: only the guards' ors.
    for (Ref i = t.loop_ref + 1; i < n; i++) {
      const Ins& in = t.ins[i];
      if (!in.live || in.op == IrOp::phi) continue;
      for (Ref o : {in.a, in.b, in.c})
        if (o >= 0 && body(o) && copy_of[o] == -2 && copy_of[i] != -2 && in.op != IrOp::guard_nz && in.op != IrOp::guard_z)
          return fail("an op that reads several copies' values");
    }
    return true;
  }

  bool plan() {
    if (t.loop_ref < 0) return fail("no loop");
    if (!find_ops() || !find_copies() || !align()) return false;
    // The carried values' slots, matched before the ops read them.
    if (!match_carried() || !match_ops() || !match_guards()) return false;
    if (p.guards.empty()) return fail("no guard: the loop never ends");
    return true;
  }
};

}  // namespace

WhilePlan plan_while_lanes(const Trace& t) {
  WhilePlan p;
  WhilePlanner pl{t, p, (Ref)t.ins.size(), {}, {}, {}, {}, {}, {}, {}, {}};
  p.ok = pl.plan();
  return p;
}

}  // namespace kiln::jit
