// One vector loop's emission (asm.h: Gen::vector_loop), by phase, shared by
// its files: asm_vector.cpp chooses the loop's shape (lanes, copies a pass,
// masked ends, registers) and runs the phases in order; asm_vector_frame.cpp
// moves values between the scalar code's homes and the loop (the frame
// temporaries, saved registers, split sums' partials in and out);
// asm_vector_loop.cpp emits the loop itself (the counter's and roots' set-up,
// constants, prefetched streams, the passes and their masked ends).
// Internal to those files.
#pragma once
#include <asmjit/x86.h>

#include <map>
#include <set>
#include <vector>

#include "jit/asm.h"
#include "jit/lane_body.h"
#include "jit/vector.h"
#include "jit/vector_regs.h"

namespace kiln::jit {

// A split sum's lanes that live in stack slots (VectorLoop::find_slot_lanes):
// lane j's partial at rsp + at + 8 j where bit j of mask is set.
struct SlotLanes {
  int32_t at;
  uint32_t mask;
};

struct VectorLoop {
  Gen& g;
  asmjit::x86::Assembler& a;
  const Trace& t;
  const VecPlan& p;

  // The shape (asm_vector.cpp: shape).
  bool rows = false;   // ndrange rows (VecPlan::row_m)
  bool wide = false;   // 16 lanes in zmm (asm_wide.cpp)
  int W = 0;           // counters a pass of one copy
  int regs = 0;        // registers of a split sum's partials
  int unroll = 0;      // copies of the body a pass
  int es = 4;          // the element size (8: f64)
  VecRegs r;
  bool row_tails = false, plain_tails = false, wide_tails = false;  // masked ends
  // The loop test's snapshot when the loop's last iteration runs in lanes
  // too and the loop leaves through that exit from its lanes (lane_exit),
  // else -1; then `next` is the counter's next value (which the exit may write).
  int lane_exit_snap = -1;
  Ref next = kNoRef;
  bool shape();

  // The frame temporaries (asm_vector_frame.cpp): the saved general
  // registers at gsave, then each incoming value's, the counter and limit,
  // q, the lane offsets 0..7, a mask, one per sum, and (rows) the counter
  // at which the next row starts.
  int32_t gsave = 0, vt = 0;
  FlatMap<Ref, int32_t> temp;  // (a sorted vector: flat_map.h)
  int32_t t_iv = 0, t_end = 0, t_q = 0, t_lanes = 0, t_mask = 0, t_next = 0;
  int32_t t_plane = 0, t_in_plane = 0;  // planes of rows (VecPlan::row_p): p and q % P
  int32_t t_vol = 0, t_in_vol = 0;      // volumes of planes (VecPlan::row_v): v and p % V
  int32_t t_terms = -1;  // ordered sums' terms one chunk late (LaneBody::t_terms), or -1
  std::map<Ref, SlotLanes> in_slots;  // by a ring's p0
  bool keep_gp[kNumAllocatable] = {}, keep_x[kNumXmm] = {};  // registers saved around the loop
  bool frame(int32_t area, int32_t area_end);
  int32_t tmp_of(Ref v);
  Ref root_in(Ref root) const;                          // a row root comes in as its table's base
  int32_t consecutive(const std::vector<Ref>& ring) const;
  void find_slot_lanes();
  bool from_slot(Ref x) const;
  void slot_half(const SlotLanes& s, int half, bool load);
  void save_registers();
  void sums_in();
  void partials_out();
  void restore_registers();
  void values_out();
  int exit_in_lanes();
  std::pair<Ref, int> lane_of(Ref ref) const;  // (a split sum's p0, its lane), or kNoRef
  void lane_exit();

  // The body's emitter (asm_lane_body.cpp), and its lane registers: ymm(j)
  // is zmm j in a wide loop (a mask's 0/1 stays in ymm: x86::ymm),
  // acc_of(slot, h) register h of a split sum's partials.
  const LaneBody* lb = nullptr;
  asmjit::x86::Vec ymm(int j) const { return lb->ymm(j); }
  asmjit::x86::Vec acc_of(Ref slot, int h) const { return lb->acc_of(slot, h); }
  static asmjit::x86::Mem mem(int32_t off) { return asmjit::x86::qword_ptr(asmjit::x86::rsp, off); }
  asmjit::x86::Mem lanes_mem(int32_t off) const {
    return asmjit::x86::ptr(asmjit::x86::rsp, off, (uint32_t)(W * (p.f64 ? 8 : 4)));
  }

  // The loop (asm_vector_loop.cpp).
  asmjit::Label done;
  struct Stream {
    int32_t furthest;
    std::set<int32_t> disps;
  };
  std::map<std::pair<int, bool>, Stream> streams;  // (root register, by r) -> its reads
  void counter_in();
  void load_row_root(asmjit::x86::Gp base, const VecPlan::RowRoot& rr);
  int32_t plane_step(std::pair<Ref, int32_t> root, bool vol = false) const;
  void row_values();
  void roots_and_constants();
  void find_streams();
  void prefetch(int copies);
  void swap_partials();
  void pass_loop(asmjit::Label head, int copies, asmjit::Label exit, bool poll);
  void row_tail(asmjit::Label row_end, asmjit::Label first);
  void plain_tail(asmjit::Label row_end);
  void wide_tail(asmjit::Label row_end);

  bool emit();  // asm_vector.cpp: the phases in order
};

}  // namespace kiln::jit
