// The vector loop (vector.h): emitted once, between the peeled iteration and
// the scalar loop, when the plan says the body allows lanes. It runs the
// body eight counters at a time in ymm registers while more than eight
// iterations remain (or until Ctrl-C), then leaves the counter and the sums
// where the scalar loop reads them.
//
// The scalar code's registers are saved to the frame around it, so the
// vector loop has all 16 ymm and 11 general registers to itself; values
// come in through frame temporaries written while every home is intact.
#include <map>
#include <set>

#include "jit/asm.h"
#include "jit/backend.h"
#include "jit/div_magic.h"
#include "jit/lane_body.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

namespace {

// The masks of masked ends: 8 dwords of all ones, then 8 of zeros; the k
// lanes' mask is the 8 dwords from kTailMasks + 8 - k.
// The lane numbers 0..15 (the first 8 for ymm lanes).
alignas(64) const int32_t kIota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
alignas(64) const int32_t kTailMasks[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
// 0..15 twice: the 16 dwords from kRotate + m are lane j's source (j + m) % 16,
// a zmm of split-sum partials rotated by m (the m adds of a masked end).
alignas(64) const int32_t kRotate[32] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                         0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

// How far ahead of a contiguous load the vector loop prefetches (bytes):
// 2-8 KiB timed alike on this machine's streaming sums.
constexpr int32_t kPrefetchBytes = 4096;
// The furthest apart a stream's reads lie when they are one stencil's (the
// prefetched streams, vector_loop): its rows or planes, still in the L2
// cache (1 MiB a core on this project's host) when the next row reads them.
constexpr int64_t kStencilSpread = 1 << 20;

// A split sum's lanes that live in stack slots (vector_loop): lane j's
// partial at rsp + at + 8 j where bit j of mask is set.
struct SlotLanes {
  int32_t at;
  uint32_t mask;
};


}  // namespace

bool host_has_avx2() {
  static const bool yes = CpuInfo::host().hasFeature(CpuFeatures::X86::kAVX2);
  return yes;
}

bool prefetch_plain_streams() {
  static const bool yes = !CpuInfo::host().isVendor("AMD");
  return yes;
}

bool host_has_fma3() {
  static const bool yes = CpuInfo::host().hasFeature(CpuFeatures::X86::kFMA);
  return yes;
}

// How many copies of the body one pass of the vector loop runs: four of a
// small body (a memory-bound loop waits on the loop's own overhead), two of
// a larger one, one of a large one (code size); fewer when a copy's
// displacement would pass 32 bits. At least `least` copies (a split sum in
// two registers alternates them copy by copy), else 0: no vector loop.
static int unroll_of(const Trace& t, const VecPlan& p, int W, int least) {
  int n = (int)p.order.size();
  int u = std::max(n <= 16 ? 4 : n <= 48 ? 2 : 1, least);
  // A sparse block's row of 64 cells (row roots): one pass of eight copies
  // runs it whole, where four took two passes, each with its tests and poll.
  if (!p.row_roots.empty() && n <= 16 && p.row_m % 64 == 0) u = 8;
  auto fits = [&](int u) {
    bool ok = true;
    for (Ref i : p.order) {
      if (t.ins[i].op != IrOp::load && t.ins[i].op != IrOp::store) continue;
      const VecPlan::Access& acc = p.access[i];
      int64_t d = acc.disp + int64_t(W) * (acc.stride ? acc.stride : p.f64 ? 8 : 4) * (u - 1);
      ok &= d == (int32_t)d;
    }
    return ok;
  };
  for (; u > least; u /= 2)
    if (fits(u)) return u;
  return least == 1 || fits(least) ? least : 0;
}

bool Gen::vector_loop(const VecPlan& p, int32_t area, int32_t area_end) {
  const bool rows = p.row_m != 0;
  // 16 lanes in zmm registers where the body divides on an AVX-512 host
  // (asm_wide.cpp), else 8 (4 of 64 bits) in ymm.
  const bool wide = wide_lanes(t, p);
  const int W = wide ? 16 : p.width();
  vec_width = W;
  // A split sum's partials: one register of lanes (zmm: 16 f32), or two
  // (ymm: 16 f32 or 8 f64), which the copies of the body alternate: W adds
  // rotate the partials by W, so copy u adds into register u % 2 and a pass
  // of an even number of copies leaves them in place (a pass of one swaps
  // the two back).
  const int regs = partial_regs(t, p);
  for (auto& [p0, ring] : p.partials)
    if ((int)ring.size() != regs * W || regs > 2) return false;
  const int unroll = unroll_of(t, p, W, regs);
  if (unroll == 0) return false;
  // Rows end in lanes under a mask (and the next row starts in the same
  // vector loop) unless a sum is carried: a masked add would have to leave
  // the other lanes' partials where they are.
  VecRegs r;
  bool row_tails = rows && p.sums.empty() && p.lasts.empty() && assign(t, p, r, true);
  // A plain loop (no rows) runs its last iterations but one (the scalar
  // body always runs last) as one masked body instead of up to seven scalar
  // iterations: a sparse block's 64 cells after the peeled one were 7
  // vectors and 7 scalar iterations. Not with split float sums (a partial
  // batch of adds would rotate the partials), interleaved loads (whole
  // vectors past the end) or 64-bit lanes; an i32 sum adds its masked term.
  bool ordered = false;  // (an ordered sum's fma step has no masked form: vector.h)
  for (auto& [slot, f] : p.folds) ordered |= f.ordered;
  bool plain_tails = !wide && !rows && !p.f64 && !ordered && p.partials.empty() && p.interleaved.empty() && p.lasts.empty() &&
                     assign(t, p, r = VecRegs{}, true);
  if (!row_tails && !plain_tails && !assign(t, p, r = VecRegs{}, false)) return false;
  // A 16-lane loop's last iterations but one run as one body under an
  // AVX-512 mask (k1; k2-k5 an interleaved group's raw vectors): loads
  // zeroed past the end, stores and sums' adds merged, and each split sum's
  // partials then rotated by the m adds (vpermps), as m scalar iterations
  // would leave them. nbody's inner loop of 4095 iterations after the peeled
  // one ran 15 scalar iterations, each ~125 instructions (the 48 partials'
  // rotation through the frame), for 255 passes of 16 lanes.
  const bool wide_tails = wide && !rows;
  // Frame temporaries: the saved general registers, each incoming value,
  // the counter and limit, q, the lane offsets 0..7, a mask, one per sum,
  // and (rows) the counter at which the next row starts.
  int32_t gsave = area, vt = gsave + 8 * kNumAllocatable;
  std::map<Ref, int32_t> temp;
  auto tmp_of = [&](Ref v) {
    if (!temp.count(v)) temp[v] = vt + 8 * (int32_t)temp.size();
    return temp[v];
  };
  for (auto& [ref, y] : r.ymm)
    if (p.kind[ref] == VecPlan::uniform) tmp_of(ref);
  // A row root comes in as its table's base (the row's load is the body's).
  auto root_in = [&](Ref root) {
    auto rr = p.row_roots.find(root);
    return rr == p.row_roots.end() ? root : rr->second.base;
  };
  for (auto& [key, k] : r.root) tmp_of(root_in(key.first));
  int32_t t_iv = tmp_of(p.iv), t_end = tmp_of(p.end);
  // The first of a ring's temporaries when they are consecutive (in lane
  // order, 8 bytes apart), else -1.
  auto consecutive = [&](const std::vector<Ref>& ring) -> int32_t {
    for (size_t k = 0; k < ring.size(); k++)
      if (temp.at(ring[k]) != temp.at(ring[0]) + 8 * (int32_t)k) return -1;
    return temp.at(ring[0]);
  };
  for (auto& [p0, ring] : p.partials)  // first: each ring's temporaries consecutive (`consecutive` below)
    for (Ref x : ring) tmp_of(x);
  for (auto& [slot, add] : p.sums) tmp_of(slot);
  for (const VecPlan::Last& l : p.lasts) {  // (an invariant val's value too)
    tmp_of(l.slot);
    if (l.val != p.iv && !r.hold.count(l.slot)) tmp_of(l.val);
  }
  int32_t t_q = vt + 8 * (int32_t)temp.size(), t_lanes = t_q + 8, t_mask = t_lanes + 64, t_next = t_mask + 8;
  if (t_next + 8 > area_end) return false;
  // A 16-lane f32 ring whose partials are mostly values in the allocator's
  // stack slots at consecutive refs (nbody's three: 14 of 16 each, the
  // other two in xmm registers): those lanes move between their slots and
  // the ring's register as masked 8-qword moves, not as 8-byte copies through
  // the temporaries (two instructions a lane each way, ~170 of the ~1170 an
  // outer i ran: docs/perf.md); the others go through the temporaries as
  // before. Not a lane whose temporary something else reads (a uniform, a
  // root, the counter or its limit).
  std::map<Ref, SlotLanes> in_slots;
  if (wide && !p.f64 && regs == 1)
    for (auto& [p0, ring] : p.partials) {
      if (consecutive(ring) < 0) continue;
      auto movable = [&](Ref x) {
        if (in_gp(x) || in_xmm(x) || t.is_const(x) || (x < (Ref)remat.size() && remat[x])) return false;
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
  auto from_slot = [&](Ref x) {
    for (auto& [p0, s] : in_slots)
      if (x >= s.at / 8 && x < s.at / 8 + W && (s.mask >> (x - s.at / 8) & 1) && p.partials.at(p0)[(size_t)(x - s.at / 8)] == x) return true;
    return false;
  };
  // Half `half` of a ring's slot lanes (8 qwords) into zmm31 over the
  // temporaries' there (`load`), or zmm31's to their slots.
  auto slot_half = [&](const SlotLanes& s, int half, bool load) {
    uint32_t m = s.mask >> (8 * half) & 0xff;
    if (m == 0) return;
    a.mov(x86::edi, m);
    a.kmovw(x86::k1, x86::edi);
    x86::Mem at = x86::zmmword_ptr(x86::rsp, s.at + 64 * half);
    if (load) a.k(x86::k1).vmovdqu64(x86::zmm(31), at);
    else a.k(x86::k1).vmovdqu64(at, x86::zmm(31));
  };

  const int es = p.f64 ? 8 : 4;  // the element size
  // The body's emitter (asm_lane_body.cpp), and its lane registers: ymm(j)
  // is zmm j in a wide loop (a mask's 0/1 stays in ymm: x86::ymm below),
  // acc_of(slot, h) register h of a split sum's partials.
  Label guard_fail[8];  // (copy u of a pass: unroll_of gives at most 8)
  for (Label& l : guard_fail) l = a.newLabel();
  const LaneBody lb{a, t, p, r, W, regs, es, wide, t_mask, guard_fail};
  auto ymm = [&](int j) { return lb.ymm(j); };
  auto acc_of = [&](Ref slot, int h) { return lb.acc_of(slot, h); };
  auto mem = [](int32_t off) { return x86::qword_ptr(x86::rsp, off); };
  auto lanes_mem = [&](int32_t off) { return x86::ptr(x86::rsp, off, (uint32_t)(W * (p.f64 ? 8 : 4))); };
  vec_entry = a.newLabel();
  a.bind(vec_entry);
  Label skip = a.newLabel();
  if (p.guards) {  // not within a guard's back-off (asm_lane_guards.cpp)
    vec_guards = true;
    ld(x86::rax, p.iv);
    lane_guard_entry(a, skip);
  }
  a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, lane_runs)));
  for (auto& [ref, off] : temp)
    if (!from_slot(ref)) spill_to(mem(off), ref);
  // Only the registers the scalar code keeps values in and the vector loop
  // takes are saved: entered once per short inner loop (a sparse block's
  // cells), saving all 22 cost more than the loop's lanes. Of the xmm ones,
  // only those holding a value from before the loop that the loop still
  // reads: the body's own are computed again before they are read (the
  // vector loop is entered before the body runs, or from its back edge
  // once the phis have moved), and a split sum's partials come back from
  // the temporaries below. nbody saved and restored 14 an outer i where 3
  // (p's components) were needed.
  std::vector<bool> comes_back(al.reg.size(), false);
  for (auto& [p0, ring] : p.partials)
    for (Ref x : ring)
      if (x < (Ref)comes_back.size()) comes_back[x] = true;
  bool keep_gp[kNumAllocatable] = {}, keep_x[kNumXmm] = {};
  for (Ref v = 0; v < (Ref)al.reg.size(); v++) {
    if (in_xmm(v) && v < t.loop_ref && al.last[v] > t.loop_ref && !comes_back[v]) keep_x[al.reg[v]] = true;
    if (in_gp(v))
      for (auto& [key, k] : r.root)
        if (kRootRegs[k].id() == kAllocatable[al.reg[v]]) keep_gp[al.reg[v]] = true;
  }
  for (int j = 0; j < kNumAllocatable; j++)
    if (keep_gp[j]) a.mov(mem(gsave + 8 * j), x86::Gpq(kAllocatable[j]));
  for (int j = 0; j < kNumXmm; j++)
    if (keep_x[j]) a.movsd(mem(xsave + 8 * j), x86::xmm(kFirstXmm + j));

  Label top = a.newLabel(), done = a.newLabel();
  // The sums first: `done` adds them into the scalar ones, and a negative
  // row counter jumps there before any other setup (their registers held
  // whatever the last run left: kiln-fuzz seed 20533, s += 7 beside
  // x[i + 3] = i % 1000 from i = -3).
  // A split float sum's lanes are its partials as they are (lane k takes
  // the k-th next add); a fold's start from the slot's value or its op's
  // identity (asm_lane_fold.cpp) and fold into the slot after the loop.
  for (auto& [slot, add] : p.sums) {
    auto pr = p.partials.find(slot);
    if (pr == p.partials.end()) {
      lb.fold_init(slot, temp[slot]);
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
  lb.lasts_init(temp);
  a.mov(x86::rax, mem(t_iv));
  a.mov(x86::rcx, mem(t_end));
  a.sub(x86::rcx, W);
  if (rows) {
    // q, r = divmod(counter, M) once per row; a negative counter (whose
    // C division is not floor division) runs no vector iteration.
    a.mov(x86::rdx, -(int64_t(1) << 62));  // (then the "next row" is never reached)
    a.test(x86::rax, x86::rax);
    a.js(done);
    a.mov(x86::rsi, x86::rax);
    a.xor_(x86::edx, x86::edx);
    a.mov(x86::rdi, p.row_m);
    a.div(x86::rdi);
    a.mov(mem(t_q), x86::rax);
    a.mov(x86::rax, x86::rsi);
    a.mov(x86::rsi, p.row_m - 8);
  }
  // A row root's register: the address row q's table entry holds (cq is 0).
  auto load_row_root = [&](x86::Gp base, const VecPlan::RowRoot& rr) {
    a.mov(base, mem(t_q));
    a.imul(base, base, rr.sq);
    a.add(base, mem(temp[rr.base]));
    a.mov(base, x86::qword_ptr(base, rr.k));
  };
  for (auto& [key, k] : r.root) {  // root + cq * q
    x86::Gp base = kRootRegs[k];
    if (auto rr = p.row_roots.find(key.first); rr != p.row_roots.end()) {
      load_row_root(base, rr->second);
    } else if (key.second != 0) {
      a.mov(base, mem(t_q));
      a.imul(base, base, key.second);
      a.add(base, mem(temp[key.first]));
    } else {
      a.mov(base, mem(temp[key.first]));
    }
  }
  for (auto& [ref, y] : r.ymm) {
    if (p.kind[ref] != VecPlan::uniform) continue;
    if (p.f64) a.vbroadcastsd(ymm(y), x86::qword_ptr(x86::rsp, temp[ref]));
    else a.vbroadcastss(ymm(y), x86::dword_ptr(x86::rsp, temp[ref]));
  }
  if (r.q >= 0) a.vpbroadcastd(ymm(r.q), x86::dword_ptr(x86::rsp, t_q));
  if (wide)  // a vec3 group's blend masks and permute indices (asm_wide.cpp)
    for (auto& [first, comp] : p.interleaved)
      if (comp.size() == 3) {
        wide_vec3_setup(a);
        break;
      }
  if (r.iota >= 0) {
    a.mov(x86::rdi, (uint64_t)(uintptr_t)kIota);
    a.vmovups(ymm(r.iota), x86::ptr(x86::rdi, 0, wide ? 64 : 32));
  }
  auto mask = [&](int y, uint32_t bits) {
    a.mov(x86::dword_ptr(x86::rsp, t_mask), bits);
    a.vbroadcastss(ymm(y), x86::dword_ptr(x86::rsp, t_mask));
  };
  for (auto& [stride, y] : r.gidx) {
    for (int k = 0; k < 8; k++) a.mov(x86::dword_ptr(x86::rsp, t_lanes + 4 * k), k * stride);
    a.vmovdqu(ymm(y), x86::ymmword_ptr(x86::rsp, t_lanes));
  }
  for (auto& [op, y] : r.magic) mask(y, (uint32_t)lane_div_magic(t.ins[t.ins[op].b].k)->m);
  if (r.f2i_lim >= 0) mask(r.f2i_lim, 0x4f000000u);  // 2^31
  if (r.zero >= 0) a.vpxor(x86::ymm(r.zero), x86::ymm(r.zero), x86::ymm(r.zero));
  if (r.ones >= 0) a.vpcmpeqd(ymm(r.ones), ymm(r.ones), ymm(r.ones));
  if (p.f64) {  // the 64-bit sign bit and its complement, from all ones
    for (int y : {r.sign, r.absmask})
      if (y >= 0) a.vpcmpeqd(ymm(y), ymm(y), ymm(y));
    if (r.sign >= 0) a.vpsllq(ymm(r.sign), ymm(r.sign), 63);
    if (r.absmask >= 0) a.vpsrlq(ymm(r.absmask), ymm(r.absmask), 1);
  } else {
    if (r.sign >= 0) mask(r.sign, 0x80000000u);
    if (r.absmask >= 0) mask(r.absmask, 0x7fffffffu);
  }

  // The body is emitted `unroll` times per poll of the stop flag: copy u
  // runs the counters W * u on, at displacements W * u elements further (the
  // same ops in the same order: the same bits). The loop and its poll cost as
  // much as a small body does: a memory-bound sum ran one copy at a time at
  // 60% of the bandwidth. A loop of one copy takes what is left.
  auto body = [&](int u, bool masked = false) { lb(u, masked); };
  // Streams read far ahead: each contiguous load stream (an array base and
  // the counter or row position it is indexed by) is prefetched
  // kPrefetchBytes past its furthest element, a line per 64 bytes a pass
  // moves, in the unrolled loop only (the loop of one copy runs a few
  // passes per entry). A prefetch past the array's end cannot fault. On AMD
  // hosts only a stencil's stream is, one a body reads at two or more
  // displacements kStencilSpread apart at most (prefetch_plain_streams).
  // Measured on the fourth round's Sapphire Rapids: bench/reduction's sums
  // ran at ~80% of the bandwidth of the same loop with these prefetches (a
  // memory-bound loop keeps only as many lines in flight as its
  // out-of-order window holds loads). On this project's AMD EPYC (CPU time,
  // alternating, 11 rounds, on 2 MiB and 4 KiB pages; docs/perf.md) a
  // stream read once a pass is one the hardware prefetcher follows alone:
  // bench/saxpy ran 8-22% and bench/reduction's sums 4-14% faster without
  // its prefetches; bench/jacobi_grouped, whose leading row is the one of
  // its four reads that comes from memory, ran 7% (2 MiB pages) to 10-45%
  // (4 KiB pages) slower without. Not in a loop that computes more than it
  // reads (a division or square root, or more than four ops a load or
  // store): nbody_soa's body waits on vdivps, and its prefetches were only
  // more instructions. (Counted per memory access, not per stream: a
  // stencil reads one stream four times, and jacobi_grouped's one extra
  // add, `s = 0.0; s += ...`, cost it its prefetches and a fifth of its
  // bandwidth when the bound was per stream.)
  struct Stream {
    int32_t furthest;
    std::set<int32_t> disps;
  };
  std::map<std::pair<int, bool>, Stream> streams;  // (root register, by r) -> its reads
  int computed = 0, accesses = 0;
  for (Ref i : p.order) {
    IrOp op = t.ins[i].op;
    if (op == IrOp::div || op == IrOp::sqrt) computed += 1000;
    if (op != IrOp::load && op != IrOp::store) computed++;
    else accesses++;
    // (not from a row root: a row is a block of its own, the next one anywhere)
    if (op != IrOp::load || p.access[i].stride || p.row_roots.count(p.access[i].root)) continue;
    const VecPlan::Access& acc = p.access[i];
    auto key = std::make_pair(r.root.at({acc.root, acc.cq}), acc.by_r);
    auto it = streams.try_emplace(key, Stream{acc.disp, {}}).first;
    it->second.furthest = std::max(it->second.furthest, acc.disp);
    it->second.disps.insert(acc.disp);
  }
  if (computed > 4 * accesses) streams.clear();
  // (A stencil's reads lie within a few rows of each other: two fields that
  // happen to share a root lie megabytes apart and are two plain streams.)
  if (!prefetch_plain_streams())
    std::erase_if(streams, [](const auto& s) {
      const std::set<int32_t>& d = s.second.disps;
      return d.size() < 2 || int64_t(*d.rbegin()) - *d.begin() >= kStencilSpread;
    });
  auto prefetch = [&](int copies) {
    const int32_t pass = W * es * copies;
    for (auto& [key, st] : streams)
      for (int32_t off = 0; off < pass; off += 64) {
        int64_t d = int64_t(st.furthest) + kPrefetchBytes + off;
        if (d != (int32_t)d) continue;
        a.prefetcht0(x86::ptr(kRootRegs[key.first], key.second ? x86::rdx : x86::rax, p.f64 ? 3 : 2, (int32_t)d));
      }
  };
  // An odd number of copies rotated two registers of partials by W: they
  // swap back.
  auto swap_partials = [&] {
    for (auto& [slot, r2] : r.acc2) {
      a.vmovups(x86::ymmword_ptr(x86::rsp, t_lanes), x86::ymm(r.ymm[slot]));
      a.vmovaps(x86::ymm(r.ymm[slot]), x86::ymm(r2));
      a.vmovups(x86::ymm(r2), x86::ymmword_ptr(x86::rsp, t_lanes));
    }
  };
  // The loop of `copies` bodies from `head`, left for `exit` when fewer than
  // copies * W + 1 iterations (or row positions, copies * 8) remain. `poll`:
  // test the stop flag after each pass (not needed where the passes are
  // bounded: a plain loop's one-copy loop after the unrolled one runs at
  // most unroll - 1; with rows it is entered again at every row).
  auto loop = [&](Label head, int copies, Label exit, bool poll) {
    a.bind(head);
    if (copies > 1) {
      a.lea(x86::rdi, x86::qword_ptr(x86::rax, W * (copies - 1)));
      a.cmp(x86::rdi, x86::rcx);
    } else {
      a.cmp(x86::rax, x86::rcx);
    }
    a.jge(exit);
    if (rows) {
      if (copies > 1) {
        a.lea(x86::rdi, x86::qword_ptr(x86::rdx, 8 * (copies - 1)));
        a.cmp(x86::rdi, x86::rsi);
      } else {
        a.cmp(x86::rdx, x86::rsi);
      }
      a.jg(exit);
    }
    if (copies > 1) prefetch(copies);
    for (int u = 0; u < copies; u++) body(u);
    if (copies % regs != 0) swap_partials();  // (one copy of two registers)
    a.add(x86::rax, W * copies);
    if (rows) a.add(x86::rdx, 8 * copies);
    if (!poll) {
      a.jmp(head);
      return;
    }
    a.mov(x86::rdi, x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, stop)));
    a.cmp(x86::byte_ptr(x86::rdi), 0);
    a.je(head);  // Ctrl-C: the scalar loop's back edge leaves
    a.jmp(done);
  };
  Label first = unroll > 1 ? a.newLabel() : top;
  Label row_end = row_tails || plain_tails || wide_tails ? a.newLabel() : done;
  if (unroll > 1) loop(first, unroll, top, true);
  loop(top, 1, row_end, unroll == 1 || rows);
  if (row_tails) {
    // Fewer than 8 positions left in the row (or iterations in the loop).
    // When the loop goes on past this row, the row's last M - r positions
    // run under a mask and the next row starts here, as the re-entry from
    // the scalar loop's back edge would start it (rows of 2046 ran 6 scalar
    // iterations and a re-entry each). Else the scalar loop takes the rest.
    a.bind(row_end);
    a.lea(x86::rdi, x86::qword_ptr(x86::rcx, W));
    a.sub(x86::rdi, x86::rax);  // iterations left
    a.mov(x86::rsi, p.row_m);
    a.sub(x86::rsi, x86::rdx);  // positions left in the row, 0..7
    a.cmp(x86::rdi, x86::rsi);
    a.jle(done);
    Label next_row = a.newLabel();
    a.test(x86::rsi, x86::rsi);  // a row of a multiple of 8 (a sparse block's) ends without one
    a.jz(next_row);
    a.neg(x86::rsi);
    a.mov(x86::rdi, (uint64_t)(uintptr_t)(kTailMasks + 8));
    a.vmovdqu(ymm(r.tail), x86::ymmword_ptr(x86::rdi, x86::rsi, 2));  // the first M - r lanes
    body(0, true);
    a.bind(next_row);
    a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, row_tails)));
    a.mov(x86::rdi, p.row_m);
    a.sub(x86::rdi, x86::rdx);
    a.add(x86::rax, x86::rdi);
    a.xor_(x86::edx, x86::edx);
    a.inc(x86::qword_ptr(x86::rsp, t_q));
    for (auto& [key, k] : r.root) {
      if (auto rr = p.row_roots.find(key.first); rr != p.row_roots.end()) load_row_root(kRootRegs[k], rr->second);
      else if (key.second != 0) a.add(kRootRegs[k], key.second);
    }
    if (r.q >= 0) a.vpbroadcastd(ymm(r.q), x86::dword_ptr(x86::rsp, t_q));
    a.mov(x86::rsi, p.row_m - 8);
    a.jmp(first);
  }
  if (plain_tails) {
    // 1..8 iterations left: all but the last under a mask, the last in the
    // scalar loop (its test ends the loop and every exit keeps its meaning).
    a.bind(row_end);
    a.lea(x86::rsi, x86::qword_ptr(x86::rax, 1));
    a.sub(x86::rsi, x86::rcx);
    a.sub(x86::rsi, W);  // -(iterations left - 1): -7..0
    a.jge(done);
    a.mov(x86::rdi, (uint64_t)(uintptr_t)(kTailMasks + 8));
    a.vmovdqu(ymm(r.tail), x86::ymmword_ptr(x86::rdi, x86::rsi, 2));  // the first left - 1 lanes
    body(0, true);  // (the body leaves rsi: it is a row's limit, and plain loops have no rows)
    a.sub(x86::rax, x86::rsi);
    a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, plain_tails)));
  }
  if (wide_tails) {
    // 1..16 iterations left: all but the last under mask k1 (m lanes).
    a.bind(row_end);
    a.lea(x86::rsi, x86::qword_ptr(x86::rcx, W - 1));
    a.sub(x86::rsi, x86::rax);  // m = iterations left - 1: 0..15
    a.jle(done);
    a.mov(x86::dword_ptr(x86::rsp, t_mask), x86::esi);
    a.mov(x86::edi, -1);
    a.bzhi(x86::edi, x86::edi, x86::esi);
    a.kmovw(x86::k1, x86::edi);
    body(0, true);
    a.mov(x86::esi, x86::dword_ptr(x86::rsp, t_mask));
    if (!p.partials.empty()) {
      a.mov(x86::rdi, (uint64_t)(uintptr_t)kRotate);
      a.vmovdqu32(x86::zmm(31), x86::zmmword_ptr(x86::rdi, x86::rsi, 2));
      for (auto& [p0, ring] : p.partials) a.vpermps(acc_of(p0, 0), x86::zmm(31), acc_of(p0, 0));
    }
    a.add(x86::rax, x86::rsi);
    a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, plain_tails)));
  }
  if (p.guards)  // (their partials as after u copies)
    lane_guard_exits(a, guard_fail, unroll, W, rows, t_iv, done, [&](int u) {
      if (u % regs != 0) swap_partials();
    });
  a.bind(done);
  lb.lasts_out(temp, t_iv, t_lanes);
  a.mov(mem(t_iv), x86::rax);
  if (rows) {  // the next row starts at counter + (M - r): the back edge comes back here then
    a.mov(x86::rdi, p.row_m);
    a.sub(x86::rdi, x86::rdx);
    a.add(x86::rdi, x86::rax);
    a.mov(mem(t_next), x86::rdi);
    vec_next_row = t_next;
  }
  for (auto& [p0, ring] : p.partials)  // each lane back to its partial
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
  for (auto& [slot, add] : p.sums)  // each fold's lanes, folded (any order is exact: vector.h)
    if (!p.partials.count(slot)) lb.fold_out(slot, t_lanes, temp[slot]);
  a.vzeroupper();  // the scalar code's SSE must not pay for dirty upper halves
  for (int j = 0; j < kNumAllocatable; j++)
    if (keep_gp[j]) a.mov(x86::Gpq(kAllocatable[j]), mem(gsave + 8 * j));
  for (int j = 0; j < kNumXmm; j++)
    if (keep_x[j]) a.movsd(x86::xmm(kFirstXmm + j), mem(xsave + 8 * j));
  a.mov(x86::rax, mem(t_iv));
  put(p.iv, x86::rax);
  for (auto& [p0, ring] : p.partials)
    for (Ref x : ring) {
      if (from_slot(x)) continue;  // (its slot written above)
      a.mov(x86::rax, mem(temp[x]));
      put(x, x86::rax);
    }
  for (auto& [slot, add] : p.sums) {  // a sum, product or xor's lanes fold into the slot; the others started from it
    if (p.partials.count(slot)) continue;
    const VecPlan::Fold& f = p.folds.at(slot);
    x86::Mem lanes = x86::qword_ptr(x86::rsp, temp[slot]);
    if ((f.op == IrOp::add && !f.ordered) || f.op == IrOp::mul || f.op == IrOp::bxor) {  // (ordered: the sum itself)
      ld(x86::rax, slot);
      f.op == IrOp::add ? a.add(x86::rax, lanes) : f.op == IrOp::mul ? a.imul(x86::rax, lanes) : a.xor_(x86::rax, lanes);
      if (f.t == CT::i32) a.movsxd(x86::rax, x86::eax);
      if (f.t == CT::u32) a.mov(x86::eax, x86::eax);
    } else {
      a.mov(x86::rax, lanes);
    }
    put(slot, x86::rax);
  }
  for (const VecPlan::Last& l : p.lasts) {
    a.mov(x86::rax, mem(temp[l.slot]));
    put(l.slot, x86::rax);
  }
  if (p.guards) lane_guard_skipped(a, skip, rows, t_next);
  return true;
}

}  // namespace kiln::jit
