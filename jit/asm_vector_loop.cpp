// A vector loop's own code (vector_loop.h): the counter, roots and
// constants set up as it is entered, its passes of unrolled copies of the
// body with their prefetches and polls, and its masked ends.
#include <algorithm>

#include "jit/backend.h"
#include "jit/div_magic.h"
#include "jit/vector_loop.h"

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

}  // namespace

// The counter in rax, the limit of a pass in rcx; with rows, q in its
// temporary, r in rdx and the row's last pass start in rsi.
void VectorLoop::counter_in() {
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
    if (p.row_p != 0) {  // p, q % P = divmod(q, P), r kept in rdx
      a.mov(mem(t_plane), x86::rdx);
      a.xor_(x86::edx, x86::edx);
      a.mov(x86::rdi, p.row_p);
      a.div(x86::rdi);
      a.mov(mem(t_in_plane), x86::rdx);
      if (p.row_v != 0) {  // v, p % V = divmod(p, V); p = v * V + p % V again
        a.xor_(x86::edx, x86::edx);
        a.mov(x86::rdi, p.row_v);
        a.div(x86::rdi);
        a.mov(mem(t_vol), x86::rax);
        a.mov(mem(t_in_vol), x86::rdx);
        a.imul(x86::rax, x86::rax, p.row_v);
        a.add(x86::rax, x86::rdx);
      }
      a.mov(x86::rdx, mem(t_plane));
      a.mov(mem(t_plane), x86::rax);
    }
    a.mov(x86::rax, x86::rsi);
    a.mov(x86::rsi, p.row_m - 8);
  }
}

// What a root's register moves by from one plane of rows to the next (its
// accesses' cp), or from one volume of planes to the next (cv): one for
// each root and cq (vector.cpp's row_shape).
int32_t VectorLoop::plane_step(std::pair<Ref, int32_t> root, bool vol) const {
  for (Ref i : p.order)
    if ((t.ins[i].op == IrOp::load || t.ins[i].op == IrOp::store) && p.access[i].root == root.first &&
        p.access[i].cq == root.second)
      return vol ? p.access[i].cv : p.access[i].cp;
  return 0;
}

// A row root's register: the address row q's table entry holds (cq is 0).
void VectorLoop::load_row_root(x86::Gp base, const VecPlan::RowRoot& rr) {
  a.mov(base, mem(t_q));
  a.imul(base, base, rr.sq);
  a.add(base, mem(temp[rr.base]));
  a.mov(base, x86::qword_ptr(base, rr.k));
}

// The lanes of a row's uniform values the body reads (q; p and q % P):
// each row's, from the frame, as the loop enters it.
void VectorLoop::row_values() {
  if (r.q >= 0) a.vpbroadcastd(ymm(r.q), x86::dword_ptr(x86::rsp, t_q));
  if (r.plane >= 0) a.vpbroadcastd(ymm(r.plane), x86::dword_ptr(x86::rsp, t_plane));
  if (r.in_plane >= 0) a.vpbroadcastd(ymm(r.in_plane), x86::dword_ptr(x86::rsp, t_in_plane));
  if (r.vol >= 0) a.vpbroadcastd(ymm(r.vol), x86::dword_ptr(x86::rsp, t_vol));
  if (r.in_vol >= 0) a.vpbroadcastd(ymm(r.in_vol), x86::dword_ptr(x86::rsp, t_in_vol));
}

// The roots' registers, and the lanes of uniforms, q, the lane numbers,
// gather offsets and the constants the body reads.
void VectorLoop::roots_and_constants() {
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
    if (int32_t cp = p.row_p != 0 ? plane_step(key) : 0) {  // + cp * p
      a.mov(x86::rdi, mem(t_plane));
      a.imul(x86::rdi, x86::rdi, cp);
      a.add(base, x86::rdi);
    }
    if (int32_t cv = p.row_v != 0 ? plane_step(key, true) : 0) {  // + cv * v
      a.mov(x86::rdi, mem(t_vol));
      a.imul(x86::rdi, x86::rdi, cv);
      a.add(base, x86::rdi);
    }
  }
  for (auto& [ref, y] : r.ymm) {
    if (p.kind[ref] != VecPlan::uniform) continue;
    if (p.f64) a.vbroadcastsd(ymm(y), x86::qword_ptr(x86::rsp, temp[ref]));
    else a.vbroadcastss(ymm(y), x86::dword_ptr(x86::rsp, temp[ref]));
  }
  row_values();
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
}

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
// alternating, 11 rounds, on 2 MiB and 4 KiB pages; docs/perf/memory.md) a
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
void VectorLoop::find_streams() {
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
}

void VectorLoop::prefetch(int copies) {
  const int32_t pass = W * es * copies;
  for (auto& [key, st] : streams)
    for (int32_t off = 0; off < pass; off += 64) {
      int64_t d = int64_t(st.furthest) + kPrefetchBytes + off;
      if (d != (int32_t)d) continue;
      a.prefetcht0(x86::ptr(kRootRegs[key.first], key.second ? x86::rdx : x86::rax, p.f64 ? 3 : 2, (int32_t)d));
    }
}

// An odd number of copies rotated two registers of partials by W: they
// swap back.
void VectorLoop::swap_partials() {
  for (auto& [slot, r2] : r.acc2) {
    a.vmovups(x86::ymmword_ptr(x86::rsp, t_lanes), x86::ymm(r.ymm[slot]));
    a.vmovaps(x86::ymm(r.ymm[slot]), x86::ymm(r2));
    a.vmovups(x86::ymm(r2), x86::ymmword_ptr(x86::rsp, t_lanes));
  }
}

// The body is emitted `unroll` times per poll of the stop flag: copy u
// runs the counters W * u on, at displacements W * u elements further (the
// same ops in the same order: the same bits). The loop and its poll cost as
// much as a small body does: a memory-bound sum ran one copy at a time at
// 60% of the bandwidth. A loop of one copy takes what is left.
//
// The loop of `copies` bodies from `head`, left for `exit` when fewer than
// copies * W + 1 iterations (or row positions, copies * 8) remain. `poll`:
// test the stop flag after each pass (not needed where the passes are
// bounded: a plain loop's one-copy loop after the unrolled one runs at
// most unroll - 1; with rows it is entered again at every row).
void VectorLoop::pass_loop(Label head, int copies, Label exit, bool poll) {
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
  for (int u = 0; u < copies; u++) (*lb)(u);
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
}

// Fewer than 8 positions left in the row (or iterations in the loop).
// When the loop goes on past this row, the row's last M - r positions
// run under a mask and the next row starts here, as the re-entry from
// the scalar loop's back edge would start it (rows of 2046 ran 6 scalar
// iterations and a re-entry each). Else the scalar loop takes the rest.
void VectorLoop::row_tail(Label row_end, Label first) {
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
  (*lb)(0, true);
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
  if (p.row_p != 0) {  // every P rows the next plane: each root moves by its cp too
    Label same_plane = a.newLabel();
    a.inc(x86::qword_ptr(x86::rsp, t_in_plane));
    a.cmp(x86::qword_ptr(x86::rsp, t_in_plane), (int32_t)p.row_p);
    a.jne(same_plane);
    a.mov(x86::qword_ptr(x86::rsp, t_in_plane), 0);
    a.inc(x86::qword_ptr(x86::rsp, t_plane));
    for (auto& [key, k] : r.root)
      if (int32_t cp = plane_step(key)) a.add(kRootRegs[k], cp);
    if (p.row_v != 0) {  // every V planes the next volume: each root moves by its cv too
      a.inc(x86::qword_ptr(x86::rsp, t_in_vol));
      a.cmp(x86::qword_ptr(x86::rsp, t_in_vol), (int32_t)p.row_v);
      a.jne(same_plane);
      a.mov(x86::qword_ptr(x86::rsp, t_in_vol), 0);
      a.inc(x86::qword_ptr(x86::rsp, t_vol));
      for (auto& [key, k] : r.root)
        if (int32_t cv = plane_step(key, true)) a.add(kRootRegs[k], cv);
    }
    a.bind(same_plane);
  }
  row_values();
  a.mov(x86::rsi, p.row_m - 8);
  a.jmp(first);
}

// 1..8 iterations left: all but the last under a mask, the last in the
// scalar loop (its test ends the loop and every exit keeps its meaning).
void VectorLoop::plain_tail(Label row_end) {
  a.bind(row_end);
  a.lea(x86::rsi, x86::qword_ptr(x86::rax, 1));
  a.sub(x86::rsi, x86::rcx);
  a.sub(x86::rsi, W);  // -(iterations left - 1): -7..0
  a.jge(done);
  a.mov(x86::rdi, (uint64_t)(uintptr_t)(kTailMasks + 8));
  a.vmovdqu(ymm(r.tail), x86::ymmword_ptr(x86::rdi, x86::rsi, 2));  // the first left - 1 lanes
  (*lb)(0, true);  // (the body leaves rsi: it is a row's limit, and plain loops have no rows)
  a.sub(x86::rax, x86::rsi);
  a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, plain_tails)));
}

// 1..16 iterations left: all but the last under mask k1 (m lanes), or
// all of them where the loop leaves from its lanes (lane_exit).
void VectorLoop::wide_tail(Label row_end) {
  a.bind(row_end);
  a.lea(x86::rsi, x86::qword_ptr(x86::rcx, lane_exit_snap >= 0 ? W : W - 1));
  a.sub(x86::rsi, x86::rax);  // m = iterations left (- 1): 1..16 (0..15)
  a.jle(done);
  a.mov(x86::dword_ptr(x86::rsp, t_mask), x86::esi);
  a.mov(x86::edi, -1);
  a.bzhi(x86::edi, x86::edi, x86::esi);
  a.kmovw(x86::k1, x86::edi);
  (*lb)(0, true);
  a.mov(x86::esi, x86::dword_ptr(x86::rsp, t_mask));
  if (!p.partials.empty()) {
    a.mov(x86::rdi, (uint64_t)(uintptr_t)kRotate);
    a.vmovdqu32(x86::zmm(31), x86::zmmword_ptr(x86::rdi, x86::rsi, 2));
    for (auto& [p0, ring] : p.partials) a.vpermps(acc_of(p0, 0), x86::zmm(31), acc_of(p0, 0));
  }
  a.add(x86::rax, x86::rsi);
  a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, plain_tails)));
}

}  // namespace kiln::jit
