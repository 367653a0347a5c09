// A vector loop's way in and out (vector_loop.h): the frame temporaries
// that carry the scalar code's values into the loop and its results back,
// the registers saved around it, and split sums' partials moved between
// their scalar homes and their lane registers.
#include <cstddef>

#include "jit/backend.h"
#include "jit/vector_loop.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

// The temporaries' offsets (in the order they are first asked for), past
// the saved general registers at `area`; false where they pass area_end.
bool VectorLoop::frame(int32_t area, int32_t area_end) {
  gsave = area;
  vt = gsave + 8 * kNumAllocatable;
  for (auto& [ref, y] : r.ymm)
    if (p.kind[ref] == VecPlan::uniform) tmp_of(ref);
  for (auto& [key, k] : r.root) tmp_of(root_in(key.first));
  t_iv = tmp_of(p.iv);
  t_end = tmp_of(p.end);
  for (auto& [p0, ring] : p.partials)  // first: each ring's temporaries consecutive (`consecutive` below)
    for (Ref x : ring) tmp_of(x);
  for (auto& [slot, add] : p.sums) tmp_of(slot);
  for (const VecPlan::Last& l : p.lasts) {  // (an invariant val's value too)
    tmp_of(l.slot);
    if (l.val != p.iv && !r.hold.count(l.slot)) tmp_of(l.val);
  }
  t_q = vt + 8 * (int32_t)temp.size();
  t_lanes = t_q + 8;
  t_mask = t_lanes + 64;
  t_next = t_mask + 8;
  int32_t end = t_next + 8;
  if (p.row_p != 0) {
    t_plane = end;
    t_in_plane = end + 8;
    end += 16;
  }
  if (p.row_v != 0) {
    t_vol = end;
    t_in_vol = end + 8;
    end += 16;
  }
  if (end > area_end) return false;
  if (t.late_fold && !row_tails && !plain_tails && !wide_tails) {  // (no masked copy folds at once; 32-byte aligned from rsp)
    size_t n = fold_buffers(t, p).size();
    int32_t at = (end + 31) & ~31;
    if (n > 0 && at + 32 * (int32_t)n <= area_end) t_terms = at;
  }
  find_slot_lanes();
  return true;
}

int32_t VectorLoop::tmp_of(Ref v) {
  if (!temp.count(v)) temp[v] = vt + 8 * (int32_t)temp.size();
  return temp[v];
}

// A row root comes in as its table's base (the row's load is the body's).
Ref VectorLoop::root_in(Ref root) const {
  auto rr = p.row_roots.find(root);
  return rr == p.row_roots.end() ? root : rr->second.base;
}

// The first of a ring's temporaries when they are consecutive (in lane
// order, 8 bytes apart), else -1.
int32_t VectorLoop::consecutive(const std::vector<Ref>& ring) const {
  for (size_t k = 0; k < ring.size(); k++)
    if (temp.at(ring[k]) != temp.at(ring[0]) + 8 * (int32_t)k) return -1;
  return temp.at(ring[0]);
}

// A 16-lane f32 ring whose partials are mostly values in the allocator's
// stack slots at consecutive refs (nbody's three: 14 of 16 each, the
// other two in xmm registers): those lanes move between their slots and
// the ring's register as masked 8-qword moves, not as 8-byte copies through
// the temporaries (two instructions a lane each way, ~170 of the ~1170 an
// outer i ran: docs/perf/nbody.md); the others go through the temporaries as
// before. Not a lane whose temporary something else reads (a uniform, a
// root, the counter or its limit).
void VectorLoop::find_slot_lanes() {
  if (wide && !p.f64 && regs == 1)
    for (auto& [p0, ring] : p.partials) {
      if (consecutive(ring) < 0) continue;
      auto movable = [&](Ref x) {
        if (g.in_gp(x) || g.in_xmm(x) || t.is_const(x) || (x < (Ref)g.remat.size() && g.remat[x])) return false;
        if (x == p.iv || x == p.end || (r.ymm.count(x) && p.kind[x] == VecPlan::uniform)) return false;
        for (auto& [key, k] : r.root)
          if (root_in(key.first) == x) return false;
        return true;
      };
      SlotLanes best{0, 0};
      for (int k = 0; k < W; k++) {  // lane 0's slot: the one that puts the most lanes in theirs
        Ref b = ring[(size_t)k] - k;
        if (b < 0 || b + W > (Ref)t.ins.size()) continue;
        uint32_t m = 0;
        for (int j = 0; j < W; j++)
          if (ring[(size_t)j] == b + j && movable(b + j)) m |= 1u << j;
        if (__builtin_popcount(m) > __builtin_popcount(best.mask)) best = {8 * b, m};
      }
      if (__builtin_popcount(best.mask) >= W / 2) in_slots[p0] = best;
    }
}

bool VectorLoop::from_slot(Ref x) const {
  for (auto& [p0, s] : in_slots)
    if (x >= s.at / 8 && x < s.at / 8 + W && (s.mask >> (x - s.at / 8) & 1) && p.partials.at(p0)[(size_t)(x - s.at / 8)] == x) return true;
  return false;
}

// Half `half` of a ring's slot lanes (8 qwords) into zmm31 over the
// temporaries' there (`load`), or zmm31's to their slots.
void VectorLoop::slot_half(const SlotLanes& s, int half, bool load) {
  uint32_t m = s.mask >> (8 * half) & 0xff;
  if (m == 0) return;
  a.mov(x86::edi, m);
  a.kmovw(x86::k1, x86::edi);
  x86::Mem at = x86::zmmword_ptr(x86::rsp, s.at + 64 * half);
  if (load) a.k(x86::k1).vmovdqu64(x86::zmm(31), at);
  else a.k(x86::k1).vmovdqu64(at, x86::zmm(31));
}

// Only the registers the scalar code keeps values in and the vector loop
// takes are saved: entered once per short inner loop (a sparse block's
// cells), saving all 22 cost more than the loop's lanes. Of the xmm ones,
// only those holding a value from before the loop that the loop still
// reads: the body's own are computed again before they are read (the
// vector loop is entered before the body runs, or from its back edge
// once the phis have moved), and a split sum's partials come back from
// the temporaries below. nbody saved and restored 14 an outer i where 3
// (p's components) were needed.
void VectorLoop::save_registers() {
  std::vector<bool> comes_back(g.al.reg.size(), false);
  for (auto& [p0, ring] : p.partials)
    for (Ref x : ring)
      if (x < (Ref)comes_back.size()) comes_back[x] = true;
  for (Ref v = 0; v < (Ref)g.al.reg.size(); v++) {
    if (g.in_xmm(v) && v < t.loop_ref && g.al.last[v] > t.loop_ref && !comes_back[v]) keep_x[g.al.reg[v]] = true;
    if (g.in_gp(v))
      for (auto& [key, k] : r.root)
        if (kRootRegs[k].id() == kAllocatable[g.al.reg[v]]) keep_gp[g.al.reg[v]] = true;
  }
  for (int j = 0; j < kNumAllocatable; j++)
    if (keep_gp[j]) a.mov(mem(gsave + 8 * j), x86::Gpq(kAllocatable[j]));
  for (int j = 0; j < kNumXmm; j++)
    if (keep_x[j]) a.movsd(mem(g.xsave + 8 * j), x86::xmm(kFirstXmm + j));
}

// The sums first: `done` adds them into the scalar ones, and a negative
// row counter jumps there before any other setup (their registers held
// whatever the last run left: kiln-fuzz seed 20533, s += 7 beside
// x[i + 3] = i % 1000 from i = -3).
// A split float sum's lanes are its partials as they are (lane k takes
// the k-th next add); a fold's start from the slot's value or its op's
// identity (asm_lane_fold.cpp) and fold into the slot after the loop.
void VectorLoop::sums_in() {
  for (auto& [slot, add] : p.sums) {
    auto pr = p.partials.find(slot);
    if (pr == p.partials.end()) {
      lb->fold_init(slot, temp[slot]);
      continue;
    }
    for (int h = 0; h < regs; h++) {
      x86::Vec v = acc_of(slot, h);
      x86::Ymm acc = v.ymm();
      if (int32_t t0 = consecutive(pr->second); t0 >= 0) {
        // The partials' temporaries are consecutive 8-byte slots: four
        // qwords at a time, and (f32) their low halves packed in lane order.
        t0 += 8 * W * h;
        if (es == 8) {
          a.vmovups(acc, x86::ymmword_ptr(x86::rsp, t0));
        } else if (wide) {  // 16: each 8 qwords truncated to dwords (zmm30-31: the body's scratch)
          auto s = in_slots.find(slot);
          for (int half = 0; half < 2; half++) {
            a.vmovups(x86::zmm(31), x86::zmmword_ptr(x86::rsp, t0 + 64 * half));
            if (s != in_slots.end()) slot_half(s->second, half, true);
            a.vpmovqd(half ? x86::ymm(30) : acc, x86::zmm(31));
          }
          a.vinsertf32x8(v.zmm(), v.zmm(), x86::ymm(30), 1);
        } else {
          a.vmovups(acc, x86::ymmword_ptr(x86::rsp, t0));
          a.vshufps(acc, acc, x86::ymmword_ptr(x86::rsp, t0 + 32), 0x88);  // q0 q1 q4 q5 | q2 q3 q6 q7
          a.vpermpd(acc, acc, 0xd8);                                       // q0 q1 q2 q3 | q4 q5 q6 q7
        }
        continue;
      }
      for (int k = 0; k < W; k++) {
        a.mov(x86::rax, mem(temp[pr->second[(size_t)(h * W + k)]]));
        if (es == 8) a.mov(x86::qword_ptr(x86::rsp, t_lanes + 8 * k), x86::rax);
        else a.mov(x86::dword_ptr(x86::rsp, t_lanes + 4 * k), x86::eax);
      }
      a.vmovups(v, lanes_mem(t_lanes));
    }
  }
}

// Each lane of a split sum back to its partial's temporary (or slot).
void VectorLoop::partials_out() {
  for (auto& [p0, ring] : p.partials)
    for (int h = 0; h < regs; h++) {
      x86::Vec v = acc_of(p0, h);
      x86::Ymm acc = v.ymm();
      if (int32_t t0 = consecutive(ring); t0 >= 0) {  // (f32: zero-extended, as the loop below)
        t0 += 8 * W * h;
        if (es == 8) {
          a.vmovups(x86::ymmword_ptr(x86::rsp, t0), acc);
        } else if (wide) {  // 16 dwords widened 8 at a time (zmm30-31: no value is live)
          auto s = in_slots.find(p0);
          a.vextractf32x8(x86::ymm(30), v.zmm(), 1);
          for (int half = 0; half < 2; half++) {
            a.vpmovzxdq(x86::zmm(31), half ? x86::ymm(30) : acc);
            a.vmovdqu32(x86::zmmword_ptr(x86::rsp, t0 + 64 * half), x86::zmm(31));
            if (s != in_slots.end()) slot_half(s->second, half, false);
          }
        } else {  // through memory: no scratch register (another sum's may be any); the partials are dead now
          a.vmovups(x86::ymmword_ptr(x86::rsp, t_lanes), acc);
          a.vpmovzxdq(acc, x86::xmmword_ptr(x86::rsp, t_lanes));
          a.vmovdqu(x86::ymmword_ptr(x86::rsp, t0), acc);
          a.vpmovzxdq(acc, x86::xmmword_ptr(x86::rsp, t_lanes + 16));
          a.vmovdqu(x86::ymmword_ptr(x86::rsp, t0 + 32), acc);
        }
        continue;
      }
      a.vmovups(lanes_mem(t_lanes), v);
      for (int k = 0; k < W; k++) {
        if (es == 8) a.mov(x86::rax, x86::qword_ptr(x86::rsp, t_lanes + 8 * k));
        else a.mov(x86::eax, x86::dword_ptr(x86::rsp, t_lanes + 4 * k));  // (zero above: an f32 register)
        a.mov(mem(temp[ring[(size_t)(h * W + k)]]), x86::rax);
      }
    }
}

void VectorLoop::restore_registers() {
  for (int j = 0; j < kNumAllocatable; j++)
    if (keep_gp[j]) a.mov(x86::Gpq(kAllocatable[j]), mem(gsave + 8 * j));
  for (int j = 0; j < kNumXmm; j++)
    if (keep_x[j]) a.movsd(x86::xmm(kFirstXmm + j), mem(g.xsave + 8 * j));
}

// The counter, the partials, the folds and the last values into their scalar homes.
void VectorLoop::values_out() {
  a.mov(x86::rax, mem(t_iv));
  g.put(p.iv, x86::rax);
  for (auto& [p0, ring] : p.partials)
    for (Ref x : ring) {
      if (from_slot(x)) continue;  // (its slot written above)
      a.mov(x86::rax, mem(temp[x]));
      g.put(x, x86::rax);
    }
  for (auto& [slot, add] : p.sums) {  // a sum, product or xor's lanes fold into the slot; the others started from it
    if (p.partials.count(slot)) continue;
    const VecPlan::Fold& f = p.folds.at(slot);
    x86::Mem lanes = x86::qword_ptr(x86::rsp, temp[slot]);
    if ((f.op == IrOp::add && !f.ordered) || f.op == IrOp::mul || f.op == IrOp::bxor) {  // (ordered: the sum itself)
      g.ld(x86::rax, slot);
      f.op == IrOp::add ? a.add(x86::rax, lanes) : f.op == IrOp::mul ? a.imul(x86::rax, lanes) : a.xor_(x86::rax, lanes);
      if (f.t == CT::i32) a.movsxd(x86::rax, x86::eax);
      if (f.t == CT::u32) a.mov(x86::eax, x86::eax);
    } else {
      a.mov(x86::rax, lanes);
    }
    g.put(slot, x86::rax);
  }
  for (const VecPlan::Last& l : p.lasts) {
    a.mov(x86::rax, mem(temp[l.slot]));
    g.put(l.slot, x86::rax);
  }
}

// The loop test's snapshot when the loop may leave through it from its
// lanes (lane_exit), else -1. Each outer iteration of a nest whose inner
// loop runs in lanes paid for the scalar body's last iteration on the way
// out: its split sums' partials out of their registers into slots, the
// scalar registers back, the iteration (a scalar square root and division
// in nbody), and the exit's flush copying those slots to the frame (~200
// instructions an nbody pair of i). Here the masked end runs the last
// iteration too, and the exit's snapshot goes to the frame from the lanes.
// It must name only what the lanes hold then: each split sum's partials as
// the next iteration's head would find them (the rotation's p1..p15 and the
// add's result, lane k = the k-th), the counter's next value (the end),
// and values from before the loop that the loop does not carry. The test
// must be the body's last guard with only phis after it (nothing the last
// iteration would skip), and nothing else carried: folds, ordered sums,
// last values and lane guards keep the scalar iteration.
int VectorLoop::exit_in_lanes() {
  if (!t.lane_exit || !wide || rows || p.f64 || regs != 1 || p.guards || !p.lasts.empty() || !p.folds.empty()) return -1;
  for (auto& [slot, add] : p.sums)
    if (!p.partials.count(slot)) return -1;
  const Ref n = (Ref)t.ins.size();
  std::vector<Ref> phi_of(n, kNoRef);  // a carried slot -> its value at the back edge
  for (Ref i = t.loop_ref + 1; i < n; i++)
    if (t.ins[i].live && t.ins[i].op == IrOp::phi) phi_of[t.ins[i].a] = t.ins[i].b;
  next = phi_of[p.iv];
  // The test: the body's last guard, `next < end`, then only phis.
  Ref test = kNoRef;
  for (Ref i = t.loop_ref + 1; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live || in.op == IrOp::kval) continue;
    if (test != kNoRef && in.op != IrOp::phi) return -1;
    if (kIrOps[(int)in.op].flags & G) {
      const Ins& c = t.ins[in.a];
      if (in.op != IrOp::guard_nz || c.op != IrOp::lt || c.t != CT::i32 || c.a != next || c.b != p.end) return -1;
      test = i;
    }
  }
  if (test == kNoRef || next == kNoRef) return -1;
  const int s = t.ins[test].snap;
  if (s < 0 || t.snaps[s].pc_ref >= 0) return -1;
  for (auto& [reg, ref] : t.snaps[s].regs) {
    if (ref == next || t.is_const(ref) || lane_of(ref).first != kNoRef) continue;
    bool remat = ref < (Ref)g.remat.size() && g.remat[ref];
    if (ref > t.loop_ref || phi_of[ref] != kNoRef || remat) return -1;  // (a carried slot, a body value, or one the exit computes)
  }
  return s;
}

// Which split sum's lane holds ref when the loop leaves from its lanes: the
// rotation's ring[k + 1] is lane k, the add's result lane W - 1.
std::pair<Ref, int> VectorLoop::lane_of(Ref ref) const {
  for (auto& [p0, ring] : p.partials) {
    for (int k = 0; k + 1 < W; k++)
      if (ring[(size_t)k + 1] == ref) return {p0, k};
    for (auto& [slot, add] : p.sums)
      if (slot == p0 && add == ref) return {p0, W - 1};
  }
  return {kNoRef, 0};
}

// At `done` with every iteration run (the counter at the end): the loop
// test's snapshot into the frame, each sum's lanes zero-extended into its
// registers (two zmm stores where they are 16 consecutive ones in lane
// order), then on as that exit's stub goes (backend.cpp): its side trace
// or the interpreter.
void VectorLoop::lane_exit() {
  const Snapshot& s = t.snaps[(size_t)lane_exit_snap];
  Label stay = a.newLabel();
  a.cmp(x86::rax, mem(t_end));
  a.jne(stay);
  a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, lane_exits)));
  Snapshot rest;  // what the scalar code's homes hold
  for (auto& [p0, ring] : p.partials) {
    std::vector<int32_t> reg_of(W, -1);  // lane -> frame register (-1: dead)
    for (auto& [reg, ref] : s.regs)
      if (auto [sum, k] = lane_of(ref); sum == p0) reg_of[k] = reg;
    bool run = true;
    for (int k = 0; k < W; k++) run &= reg_of[k] == reg_of[0] + k;
    x86::Vec v = acc_of(p0, 0);
    if (run && reg_of[0] >= 0) {  // (the frame's f32 registers zero above: vpmovzxdq)
      a.vextractf32x8(x86::ymm(30), v.zmm(), 1);
      for (int half = 0; half < 2; half++) {
        a.vpmovzxdq(x86::zmm(31), half ? x86::ymm(30) : v.ymm());
        a.vmovdqu64(x86::zmmword_ptr(x86::rbx, 8 * reg_of[0] + 64 * half), x86::zmm(31));
      }
      continue;
    }
    a.vmovups(lanes_mem(t_lanes), v);
    for (int k = 0; k < W; k++) {
      if (reg_of[k] < 0) continue;
      a.mov(x86::eax, x86::dword_ptr(x86::rsp, t_lanes + 4 * k));
      a.mov(x86::qword_ptr(x86::rbx, 8 * reg_of[k]), x86::rax);
    }
  }
  a.vzeroupper();
  bool homes = false;  // (the registers the loop took back, where a value the exit writes lives)
  for (auto& e : s.regs) {
    if (e.second == next) {  // i32: the end, sign-extended as the scalar add leaves it
      a.movsxd(x86::rax, x86::dword_ptr(x86::rsp, t_end));
      a.mov(x86::qword_ptr(x86::rbx, 8 * (int32_t)e.first), x86::rax);
    } else if (lane_of(e.second).first == kNoRef) {
      rest.regs.push_back(e);
      homes |= g.in_gp(e.second) || g.in_xmm(e.second);
    }
  }
  if (homes) restore_registers();
  g.flush(rest);
  if (g.infos) {  // as the exit's stub leaves (backend.cpp)
    const ExitInfo& info = g.infos[lane_exit_snap];
    a.mov(x86::rax, Imm((uint64_t)(uintptr_t)&info));
    if (info.outer_head != UINT32_MAX) {  // (only the outermost trace goes on in the enclosing loop)
      a.cmp(x86::dword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, calls)), 0);
      a.jne(g.exit_tail);
    }
    a.jmp(x86::qword_ptr(x86::rax, (int32_t)offsetof(ExitInfo, jump)));
  } else {
    a.mov(x86::eax, Imm(s.pc));
    a.jmp(g.epilogue);
  }
  a.bind(stay);
}

}  // namespace kiln::jit
