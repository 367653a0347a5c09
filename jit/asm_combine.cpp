// A split sum's combine in lanes (asm.h: Gen::plan_combines, combine).
// After a loop whose float sum fast_math split into 16 partials
// (vm/ir/passes/split_sums.cpp), the code that goes on adds them pairwise:
// (p0 + p1), (p2 + p3), ..., then those pairwise, four levels of adds.
// As scalar code that is 16 frame loads and 15 dependent-in-pairs adds a
// sum; nbody's outer iteration (two i a pass, three sums each) ran 96 loads
// and 90 adds in its stitched side trace. Here the 16 partials, 16
// consecutive frame registers (where the inner loop's exit writes them from
// its lanes as two zmm stores: asm_vector_frame.cpp's lane_exit), load as
// two zmm and each level is one packed add of two shuffles: the same adds
// of the same operands in the same operand order (which of two NaNs comes
// out), so the same bits. 17 instructions a sum where there were 31.
#include "jit/asm.h"

namespace kiln::jit {

using namespace asmjit;
using bc::CT;

namespace {

struct Span {
  int32_t reg = -1;  // the first frame register
  int32_t size = 0;
};

}  // namespace

// Per ref: 0, -1 for the leaves and inner adds of a combine emitted in
// lanes (not emitted themselves), 1 + (reg << 4 | orient) at its last add:
// orient's bit l set where level l + 1's adds take their upper half first.
void Gen::plan_combines() {
  if (!t.allow_zmm || !t.lane_exit) return;
  const Ref n = (Ref)t.ins.size();
  // (most traces have no 15 f32 adds: no more walks for them). Not past an
  // inner trace's run (calltr), which may write the frame between a leaf's
  // load and the combine's.
  int adds = 0;
  for (const Ins& in : t.ins) {
    if (in.live && in.op == IrOp::calltr) return;
    adds += in.op == IrOp::add && in.t == CT::f32;
  }
  if (adds < 15) return;
  std::vector<int> uses(n, 0);
  for (Ref i = 0; i < n; i++) {
    const Ins& in = t.ins[i];
    if (!in.live) continue;
    for (Ref r : {in.a, in.b, in.c})
      if (r >= 0) uses[r]++;
  }
  for (const Snapshot& s : t.snaps)
    for (auto& [reg, ref] : s.regs)
      if (ref >= 0) uses[ref] += 2;  // (never a combine's part)
  auto plain = [&](Ref r) {
    return t.ins[r].live && !(r < (Ref)remat.size() && remat[r]) && !(r < (Ref)sunk.size() && sunk[r]);
  };
  // The span of node r, a level-`level` node of a combine (0: a leaf's
  // frame load), its adds' orientations into `orient`; size 0 when not one.
  auto match = [&](auto& self, Ref r, int level, uint32_t& orient, uint32_t& seen) -> Span {
    const Ins& in = t.ins[r];
    if (!plain(r)) return {};
    if (level == 0) {
      if (in.op != IrOp::sload || uses[r] != 1) return {};
      return {(int32_t)in.k, 1};
    }
    if (in.op != IrOp::add || in.t != CT::f32) return {};
    Span x = self(self, in.a, level - 1, orient, seen), y = self(self, in.b, level - 1, orient, seen);
    if (x.size == 0 || y.size == 0) return {};
    bool upper = y.reg + y.size == x.reg && x.size == y.size;
    if (!upper && !(x.reg + x.size == y.reg && x.size == y.size)) return {};
    const uint32_t bit = 1u << (level - 1);
    if ((seen & bit) && ((orient & bit) != 0) != upper) return {};  // (one shuffle a level)
    seen |= bit;
    if (upper) orient |= bit;
    return {std::min(x.reg, y.reg), 2 * x.size};
  };
  for (Ref r = 0; r < n; r++) {
    const Ins& in = t.ins[r];
    if (in.op != IrOp::add || in.t != CT::f32 || !plain(r) || (r < (Ref)combined.size() && combined[r])) continue;
    uint32_t orient = 0, seen = 0;
    Span s = match(match, r, 4, orient, seen);
    if (s.size != 16) continue;
    bool inner_once = true;  // (the inner adds and leaves read once, by their parent)
    if (combined.empty()) combined.assign(n, 0);
    std::vector<Ref> inner;
    auto collect = [&](auto& self, Ref x, int level) -> void {
      if (level == 0) return;
      for (Ref y : {t.ins[x].a, t.ins[x].b}) {
        if (uses[y] != 1) inner_once = false;
        inner.push_back(y);
        self(self, y, level - 1);
      }
    };
    collect(collect, r, 4);
    if (!inner_once) continue;
    for (Ref y : inner) combined[y] = -1;
    combined[r] = 1 + (s.reg << 4 | (int32_t)orient);
  }
}

// Node r's combine: the 16 partials from the frame into zmm0 (lane j =
// register reg + j, an f32 in each qword's low half), then each level's
// pairs as two shuffles (zmm1: the first operands, zmm0: the second) and
// an add, the last level's halves in xmm0 and xmm1; the sum to r's home.
void Gen::combine(Ref r) {
  const int32_t code = combined[r] - 1, reg = code >> 4, orient = code & 15;
  const x86::Mem lo = x86::zmmword_ptr(x86::rbx, 8 * reg), hi = x86::zmmword_ptr(x86::rbx, 8 * reg + 64);
  a.vmovdqu64(x86::zmm0, lo);
  a.vpmovqd(x86::ymm0, x86::zmm0);
  a.vmovdqu64(x86::zmm1, hi);
  a.vpmovqd(x86::ymm1, x86::zmm1);
  a.vinsertf32x8(x86::zmm0, x86::zmm0, x86::ymm1, 1);
  // Levels 1 and 2 pair neighbours within each 128 bits (evens with odds,
  // then the results in dwords 0 and 1), level 3 the 128-bit quarters
  // (0 with 1, 2 with 3); 0x88 picks the lower of each pair, 0xDD the upper
  // (dwords 0 and 2 / 1 and 3, or quarters 0 and 2 / 1 and 3), 0x00 / 0x55
  // dword 0 / 1.
  for (int level = 0; level < 3; level++) {
    bool upper = orient >> level & 1;
    uint32_t first = level == 1 ? (upper ? 0x55 : 0x00) : (upper ? 0xDD : 0x88);
    uint32_t second = level == 1 ? (upper ? 0x00 : 0x55) : (upper ? 0x88 : 0xDD);
    if (level < 2) {
      a.vshufps(x86::zmm1, x86::zmm0, x86::zmm0, first);
      a.vshufps(x86::zmm0, x86::zmm0, x86::zmm0, second);
    } else {
      a.vshuff32x4(x86::zmm1, x86::zmm0, x86::zmm0, first);
      a.vshuff32x4(x86::zmm0, x86::zmm0, x86::zmm0, second);
    }
    a.vaddps(x86::zmm0, x86::zmm1, x86::zmm0);
  }
  a.vextractf32x4(x86::xmm1, x86::zmm0, 1);  // (quarter 0: p0..p7's sum, quarter 1: p8..p15's)
  if (orient >> 3 & 1) a.vaddss(x86::xmm0, x86::xmm1, x86::xmm0);
  else a.vaddss(x86::xmm0, x86::xmm0, x86::xmm1);
  upper_dirty = true;
  stx(r, x86::xmm0, CT::f32);
}

}  // namespace kiln::jit
