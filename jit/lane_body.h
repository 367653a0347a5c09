// One copy of a vector loop's body, as asm_vector.cpp's vector_loop emits
// it (asm_lane_body.cpp): the plan's ops in lanes, copy u W * u iterations
// on; `masked`, the loop's last iterations under a mask (k1 in zmm, r.tail
// in ymm).
#pragma once
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "jit/vector.h"
#include "jit/vector_regs.h"

namespace kiln::jit {

// A vector loop's guards (asm_lane_guards.cpp): at its entry (the counter in
// rax), to `skip` within a guard's back-off; the exits of copy u's chunks
// (`after(u)` before each leaves for `done`); and `skip` bound past the loop.
void lane_guard_entry(asmjit::x86::Assembler& a, asmjit::Label skip);
void lane_guard_exits(asmjit::x86::Assembler& a, const asmjit::Label* fail, int unroll, int W, bool rows, int32_t t_iv,
                      asmjit::Label done, const std::function<void(int)>& after);
void lane_guard_skipped(asmjit::x86::Assembler& a, asmjit::Label skip, bool rows, int32_t t_next);

struct LaneBody {
  asmjit::x86::Assembler& a;
  const Trace& t;
  const VecPlan& p;
  VecRegs& r;
  int W;        // lanes: 16 (zmm), 8 (ymm), 4 (ymm of f64)
  int regs;     // registers of a split sum's partials (partial_regs)
  int es;       // the element size: 4, or 8 (f64)
  bool wide;    // zmm
  int32_t t_mask;  // the frame temporary holding a wide masked end's lane count
  // Where copy u goes when a guard fails in one of its lanes (the plan's
  // guards: vector.h): a stub that leaves the vector loop at its chunk.
  const asmjit::Label* guard_fail = nullptr;
  // Where the ordered sums' batched steps keep the previous chunk's lane
  // terms (fold_buffers; -1: each chunk folds its own at once).
  int32_t t_terms = -1;

  // Lane register j: zmm j in a wide loop, else ymm j.
  asmjit::x86::Vec ymm(int j) const;
  // Register h of a split sum's partials (lane k holds partial h * W + k).
  asmjit::x86::Vec acc_of(Ref slot, int h) const;
  // The lanes of the counter (or row position) `start`, copy u: start + W * u + 0..W-1.
  void lanes_from(int y, const asmjit::x86::Gp& start, int u) const;
  // The register of a lane value (the counter's and the row's lanes included).
  asmjit::x86::Vec y_of(Ref v) const;
  void operator()(int u, bool masked = false) const;
  // A masked end's load (into v) or store (of v) of the r.tail lanes: a
  // move under k1 on AVX-512 hosts (Trace::allow_zmm), else a vmaskmovps.
  void masked_move(asmjit::x86::Vec v, const asmjit::x86::Mem& at, bool load) const;
  // A wide masked end's interleaved group: raw vector j's mask in k(2 + j).
  void raw_masks(int n) const;
  // A fold's lanes (vector.h, VecPlan::Fold; asm_lane_fold.cpp): its
  // accumulator's start from the slot's value at rsp + from; one step in the
  // body; after the loop, its lanes folded into one value at rsp + out
  // (extended as its type is in a register; rsp + at: W lanes of scratch).
  void fold_init(Ref slot, int32_t from) const;
  void fold_step(const VecPlan::Step& st, bool masked) const;
  void ordered_step(const VecPlan::Step& st, bool masked) const;  // an ordered float sum's (vector.h)
  void ordered_run(std::span<const Ref> ops) const;  // a run of batched ones (VecPlan::batched_step)
  // With t_terms: the buffer's neutral terms at the loop's entry, and at its
  // end the last chunk's terms folded when a chunk ran (rax past the entry
  // counter at rsp + t_iv).
  void ordered_init() const;
  void fold_buffered(std::span<const Ref> ops) const;
  void ordered_flush(int32_t t_iv) const;
  void fold_out(Ref slot, int32_t at, int32_t out) const;
  // Last values (VecPlan::lasts; asm_lane_guards.cpp), each slot's value at
  // rsp + temp[slot]: the hold registers from it at entry; after a copy of
  // the body, each lane value into its hold register; at the loop's end
  // (the counter in rax, at entry at rsp + t_iv; rsp + at: W lanes of
  // scratch), the slot's new value there, extended as it is in a register.
  void lasts_init(const FlatMap<Ref, int32_t>& temp) const;
  void lasts_hold() const;
  void lasts_out(const FlatMap<Ref, int32_t>& temp, int32_t t_iv, int32_t at) const;
  // The aligned start (asm_lane_head.cpp): the access whose address a loop
  // may align its passes on (-1: the loop has no aligned start), and the
  // start itself, emitted before the first pass (the counter in rax, the
  // end - W in rcx; a masked loop's mask register r.tail where not wide).
  Ref head_access() const;
  void aligned_head(Ref at) const;
};

// The lane values (and uniforms) an ordered sums' run of batched steps folds, each with
// the value whose lanes fold to nothing (true: -0.0, an add's term or an
// fma's first factor; false: +0.0, a sub's term or an fma's second), when
// the run can fold one chunk late: the steps end the body's order and no
// value needs both (fma(x, x, s)); else none.
std::vector<std::pair<Ref, bool>> fold_buffers(const Trace& t, const VecPlan& p);

// maximumNumber / minimumNumber of f32 or f64 lanes x and y into d, apart
// from both (s: a scratch register).
void lane_maxmin(asmjit::x86::Assembler& a, bool f32, bool mx, asmjit::x86::Vec d, asmjit::x86::Vec x, asmjit::x86::Vec y,
                 asmjit::x86::Vec s);

}  // namespace kiln::jit
