// The vector loop's register assignment (vector_regs.h).
#include "jit/vector_regs.h"

#include <span>

#include "jit/backend.h"
#include "jit/div_magic.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

// How many registers of the loop's lanes a split sum's partials fill: 1 in
// zmm lanes (16 f32), 2 in ymm lanes (16 f32 or 8 f64 in two), 1 when the
// loop has no split sum.
int partial_regs(const Trace& t, const VecPlan& p) {
  if (p.partials.empty()) return 1;
  int w = wide_lanes(t, p) ? 16 : p.width();
  return (int)p.partials.begin()->second.size() / w;
}

// ymm16-31 in an 8-lane loop (AVX-512 hosts, Trace::hi_ymm). EVEX encodes
// them, but only in instructions that have an EVEX form meaning the same
// thing; asmjit encodes the VEX-only ones (vblendvps, vptest, vmaskmovps,
// compares into a vector, vpblendd, gathers, vperm2f128, vroundpd) with an
// EVEX prefix anyway, without an error, as another instruction or an illegal
// one (vpand, vroundps and the 128-bit inserts and extracts it turns into
// their EVEX twins). So a value may live there only if
// every op of the loop that writes or reads it is one of these, whose
// emission (asm_lane_body.cpp) has EVEX forms throughout: the masked end's
// loads and stores take a k mask for a high register (LaneBody::masked_move),
// an interleaved group's inserts the EVEX one (deinterleave_load), an
// ordered sum's unconditional step its extracts (ordered_run). Another
// fold's step, a compare, a select, a guard, float max/min and f2i read and
// write ymm0-15 only. (The 16-lane loop is all EVEX: asm_wide.cpp.) Should this
// list and the emission ever disagree, the trace's assembler refuses the
// instruction (CheckedAssembler, asm_check.cpp): the loop is not compiled.
static bool evex_op(const Trace& t, const VecPlan& p, Ref i) {
  const Ins& in = t.ins[i];
  if (p.kind[i] == VecPlan::reduce) return p.batched_step(i);  // (ordered_run: EVEX forms on AVX-512 hosts)
  switch (in.op) {
    case IrOp::load: return !p.access[i].stride;  // (not a gather)
    case IrOp::store: case IrOp::add: case IrOp::sub: case IrOp::mul: case IrOp::div: case IrOp::sqrt: case IrOp::fma:
    case IrOp::band: case IrOp::bor: case IrOp::bxor: case IrOp::shl: case IrOp::shr: case IrOp::sar: case IrOp::neg:
    case IrOp::abs:
      return true;
    case IrOp::max: case IrOp::min: return in.t != CT::f32 && in.t != CT::f64;
    case IrOp::conv: return !lane_f2i(in);
    default: return false;
  }
}

// Which of the loop's uniforms and lane values may take ymm16-31.
static std::vector<char> evex_values(const Trace& t, const VecPlan& p) {
  std::vector<char> ok(t.ins.size(), 0);
  // An ordered sum whose steps are all batched: its scalar in lane 0 of any
  // register (loaded, folded into and stored by EVEX forms: vmovss/vmovsd,
  // the scalar adds and fmas, vmovd/vmovq).
  auto ordered_sums = [&] {
    for (auto& [slot, f] : p.folds)
      if (f.ordered) ok[slot] = 1;
    for (auto& [op, st] : p.steps)
      if (!p.batched_step(op)) ok[st.slot] = 0;
  };
  if (p.f64) {  // (64-bit lanes' ops, f64_lane_op, are not reviewed for EVEX: only those scalars)
    ordered_sums();
    return ok;
  }
  for (Ref i : p.order) {
    if (p.kind[i] == VecPlan::lane) ok[i] = evex_op(t, p, i);
    for (Ref o : {t.ins[i].a, t.ins[i].b, t.ins[i].c})
      if (o >= 0 && p.kind[o] == VecPlan::uniform) ok[o] = 1;
  }
  auto low = [&](Ref o) {
    if (o >= 0) ok[o] = 0;
  };
  for (Ref i : p.order) {
    const Ins& in = t.ins[i];
    if (evex_op(t, p, i)) continue;
    for (Ref o : {in.a, in.b, in.c}) low(o);
    low(i);
  }
  for (auto& [op, st] : p.steps)
    if (!p.batched_step(op)) low(st.term), low(st.term2), low(st.cond), low(st.add);
  ordered_sums();
  return ok;
}

// Assigns registers; false when the loop needs more than there are. With
// `tail`, one more for the mask of a masked end (and a scratch register
// for masking a sum's term). With `hi`, values hi allows take ymm16-31 first.
static bool assign_regs(const Trace& t, const VecPlan& p, VecRegs& r, bool tail, const std::vector<char>* hi) {
  // A 16-lane loop (asm_wide.cpp) has zmm0-23: EVEX names zmm16-23, and the
  // scalar code beside a vector loop keeps its floats in xmm2-15 (backend.cpp),
  // while zmm24-31 are the wide loop's tables and shuffle temporaries. An
  // outer loop jammed two iterations a pass (vm/ir/passes/jam_outer.cpp)
  // needs them: nbody's force loop for two i holds six sums, six uniforms and
  // the lane values of both.
  const bool wide = wide_lanes(t, p);
  const int nregs = wide ? 24 : 16;
  bool used[32] = {};
  bool full = false;
  auto evex = [&](Ref v) { return hi && (*hi)[v]; };
  auto take = [&](bool high = false) {  // (high: ymm16-31 first)
    if (high)
      for (int j = 16; j < 32; j++)
        if (!used[j]) {
          used[j] = true;
          return j;
        }
    for (int j = 0; j < nregs; j++)
      if (!used[j]) {
        used[j] = true;
        return j;
      }
    full = true;
    return 0;
  };
  // Loop-long registers first.
  for (Ref i : p.order) {
    const Ins& in = t.ins[i];
    if (in.op == IrOp::load || in.op == IrOp::store) {
      std::pair<Ref, int32_t> key{p.access[i].root, p.access[i].cq};
      if (!r.root.count(key)) {
        if (r.root.size() == std::size(kRootRegs)) return false;
        int k = (int)r.root.size();
        r.root[key] = k;
      }
    }
    for (Ref o : {in.a, in.b, in.c}) {
      if (o < 0 || in.op == IrOp::load || (in.op == IrOp::store && o == in.a) || lane_immediate(in, o)) continue;
      if (p.kind[o] == VecPlan::uniform && !r.ymm.count(o)) r.ymm[o] = take(evex(o));
      if ((p.kind[o] == VecPlan::iota || p.kind[o] == VecPlan::iota_r) && r.iota < 0) r.iota = take();
      if (p.kind[o] == VecPlan::iota && r.iv < 0) r.iv = take();
      if (p.kind[o] == VecPlan::iota_r && r.ir < 0) r.ir = take();
      if (p.kind[o] == VecPlan::rowq && r.q < 0) r.q = take();
      if (p.kind[o] == VecPlan::plane && r.plane < 0) r.plane = take();
      if (p.kind[o] == VecPlan::in_plane && r.in_plane < 0) r.in_plane = take();
      if (p.kind[o] == VecPlan::vol && r.vol < 0) r.vol = take();
      if (p.kind[o] == VecPlan::in_vol && r.in_vol < 0) r.in_vol = take();
    }
    if (in.op == IrOp::load && p.access[i].stride && !p.in_group(i)) {
      if (!r.gidx.count(p.access[i].stride)) r.gidx[p.access[i].stride] = take();
      if (r.gmask < 0) r.gmask = take();
    }
    if ((in.op == IrOp::sel || lane_blends(t, in)) && r.scratch < 0) r.scratch = take();
    if (lane_f2i(in) && r.f2i_lim < 0) r.f2i_lim = take();
    if ((in.op == IrOp::floordiv || in.op == IrOp::mod) && p.kind[i] == VecPlan::lane) {
      r.magic[i] = take();
      for (int& y : r.div_t)
        if (y < 0) y = take();
    }
    bool fl = in.t == CT::f32 || in.t == CT::f64;
    if ((in.op == IrOp::sel || (in.op == IrOp::neg && !fl) || in.op == IrOp::lnot || in.op == IrOp::guard_nz) && r.zero < 0)
      r.zero = take();
    if (in.op == IrOp::guard_nz && r.scratch < 0) r.scratch = take();
    if ((in.op == IrOp::ne || in.op == IrOp::le) && in.t != CT::f32 && r.ones < 0) r.ones = take();
    if (in.op == IrOp::neg && fl && r.sign < 0) r.sign = take();
    if (in.op == IrOp::abs && fl && r.absmask < 0) r.absmask = take();
  }
  const bool two = partial_regs(t, p) == 2;
  for (auto& [slot, add] : p.sums) {
    r.ymm[slot] = take(evex(slot));
    if (two && p.partials.count(slot)) r.acc2[slot] = take();
    if (auto f = p.folds.find(slot); f != p.folds.end() && !p.f64 && (f->second.t == CT::i64 || f->second.t == CT::u64))
      r.fold_hi[slot] = take();
  }
  for (const VecPlan::Last& l : p.lasts)
    if (p.kind[l.val] == VecPlan::lane) r.hold[l.slot] = take();
  if (tail) r.tail = take();
  if (tail && !p.sums.empty() && r.scratch < 0) r.scratch = take();
  // A float fold's maximumNumber needs both; an integer max, min, mul or
  // bitwise fold blends its new lanes in at a masked end.
  bool float_fold = false, other_fold = !r.fold_hi.empty();  // (a widened term's halves: fold_t)
  bool lane_folds = false;  // float folds whose lanes fold together after the loop (not an ordered sum's scalar)
  for (auto& [slot, f] : p.folds) {
    float_fold |= f.t == CT::f32 || f.t == CT::f64;
    lane_folds |= (f.t == CT::f32 || f.t == CT::f64) && !f.ordered;
    other_fold |= f.op != IrOp::add;
  }
  if (!r.fold_hi.empty() && r.scratch < 0) r.scratch = take();
  if ((float_fold || other_fold) && r.fold_t < 0) r.fold_t = take();
  if (float_fold && r.scratch < 0) r.scratch = take();
  if (full) return false;
  // A float fold's lanes fold after the loop in three registers that hold
  // no accumulator (asm_lane_fold.cpp).
  if (lane_folds && 16 - (int)(p.sums.size() + r.acc2.size() + r.fold_hi.size()) < 3) return false;
  // Lane values: one register from definition to last use in the loop.
  // (an interleaved store group's values are read where its last store is)
  FlatMap<Ref, size_t> group_at;
  for (size_t k = 0; k < p.order.size(); k++)
    if (p.interleaved_stores.count(p.order[k])) group_at[p.order[k]] = k;
  FlatMap<Ref, size_t> last;
  for (size_t k = 0; k < p.order.size(); k++) {
    Ref g = t.ins[p.order[k]].op == IrOp::store ? p.store_group(p.order[k]) : kNoRef;
    for (Ref o : {t.ins[p.order[k]].a, t.ins[p.order[k]].b, t.ins[p.order[k]].c})
      if (o >= 0 && p.kind[o] == VecPlan::lane) last[o] = std::max(last[o], g != kNoRef ? group_at.at(g) : k);
  }
  for (const VecPlan::Last& l : p.lasts)  // (copied to its hold register after the copy's last op)
    if (p.kind[l.val] == VecPlan::lane) last[l.val] = p.order.size();
  for (size_t k = 0; k < p.order.size(); k++) {
    Ref i = p.order[k];
    // (a lane_blends op reads its operands after writing its result: they
    // keep their registers until it has one, below)
    bool apart = lane_blends(t, t.ins[i]);
    if (auto sg = p.interleaved_stores.find(i); sg != p.interleaved_stores.end() && !wide) {  // (wide: zmm27-28)
      // its temporaries: apart from the values it stores, free again after
      std::vector<int>& tmp = r.store_tmp[i];
      for (size_t k = 0; k <= sg->second.size(); k++) {
        tmp.push_back(take(hi != nullptr));  // (interleave_store: EVEX forms for ymm16+)
        if (full) return false;
      }
      for (int y : tmp) used[y] = false;
    }
    auto free_operands = [&] {
      for (Ref o : {t.ins[i].a, t.ins[i].b, t.ins[i].c})
        if (o >= 0 && p.kind[o] == VecPlan::lane && last[o] == k && r.ymm.count(o)) used[r.ymm[o]] = false;
    };
    if (!apart) free_operands();
    // An interleaved group's components are all loaded at its first.
    auto group = p.interleaved.find(i);
    // (a span: `group ? its loads : {i}` as a vector copied the group or
    // allocated for every op of every try)
    const Ref just_i[1] = {i};
    std::span<const Ref> comps = group != p.interleaved.end() ? std::span<const Ref>(group->second) : std::span<const Ref>(just_i);
    for (Ref c : comps) {
      if (p.kind[c] != VecPlan::lane || r.ymm.count(c)) continue;
      int y = take(evex(c));
      if (full) return false;
      r.ymm[c] = y;
    }
    if (group != p.interleaved.end() && !wide) {  // its shuffle temporary: free again once the group is loaded
      int y = take(hi != nullptr);  // (deinterleave_load: EVEX forms for ymm16+)
      if (full) return false;
      r.shuf[i] = y;
      used[y] = false;
    }
    if (apart) free_operands();
    for (Ref c : comps)
      if (p.kind[c] == VecPlan::lane && !last.count(c)) used[r.ymm[c]] = false;  // (read only by exits: computed, never read)
  }
  // Every operand the loop reads has a register (a plan that disagrees
  // with itself leaves the loop scalar rather than failing here).
  for (Ref i : p.order) {
    const Ins& in = t.ins[i];
    if (in.op == IrOp::load) continue;
    for (Ref o : {in.a, in.b, in.c}) {
      if (o < 0 || (in.op == IrOp::store && o == in.a) || lane_immediate(in, o)) continue;
      // (a fold's chain: its slot, and steps it holds in the accumulator)
      bool ok = o == p.sum_slot(i) || p.folds.count(o) || p.kind[o] == VecPlan::reduce || (p.kind[o] == VecPlan::iota && r.iv >= 0) || (p.kind[o] == VecPlan::iota_r && r.ir >= 0) ||
                (p.kind[o] == VecPlan::rowq && r.q >= 0) || (p.kind[o] == VecPlan::plane && r.plane >= 0) ||
                (p.kind[o] == VecPlan::in_plane && r.in_plane >= 0) || (p.kind[o] == VecPlan::vol && r.vol >= 0) ||
                (p.kind[o] == VecPlan::in_vol && r.in_vol >= 0) ||
                ((p.kind[o] == VecPlan::uniform || p.kind[o] == VecPlan::lane) && r.ymm.count(o));
      if (!ok) return false;
    }
  }
  return true;
}

bool assign(const Trace& t, const VecPlan& p, VecRegs& r, bool tail) {
  const bool hi = t.hi_ymm && !wide_lanes(t, p);
  if (!(hi && t.hi_ymm >= 2) && assign_regs(t, p, r, tail, nullptr)) return true;
  if (!hi) return false;
  std::vector<char> ok = evex_values(t, p);
  r = VecRegs{};
  return assign_regs(t, p, r, tail, &ok);
}

}  // namespace kiln::jit
