// The vector loop's register assignment (asm_vector.cpp): which ymm/zmm
// registers hold each lane value, split sum and mask of a loop's lanes.
#pragma once
#include "jit/asm.h"
#include "jit/flat_map.h"
#include "jit/vector.h"

namespace kiln::jit {

// General registers for array (row) bases: rax is the counter, rcx its
// limit, rdx the row position r and rsi its limit, rdi the Ctrl-C poll's.
inline const asmjit::x86::Gp kRootRegs[] = {asmjit::x86::rbp, asmjit::x86::r13, asmjit::x86::r14, asmjit::x86::r15, asmjit::x86::r8, asmjit::x86::r9, asmjit::x86::r10, asmjit::x86::r11};

struct VecRegs {
  FlatMap<Ref, int> ymm;    // loop-long: uniforms and sums (by slot); per value: lanes
  FlatMap<std::pair<Ref, int32_t>, int> root;  // (root value, q's stride) -> index in kRootRegs
  FlatMap<int32_t, int> gidx;  // a gather's stride -> its lanes' byte offsets 0, s, ..., 7s
  int gmask = -1;               // the gather's mask (all ones; the gather clears it)
  // An interleaved group's shuffle temporary (8 lanes), by its first load:
  // a register free where the group loads, not one held loop-long (nbody's
  // 8-lane loop needed all 16 ymm with it: 6 for three sums' partials, 5
  // uniforms, 5 lane values).
  FlatMap<Ref, int> shuf;
  // An interleaved store group's n + 1 shuffle temporaries, by its last
  // store (asm_interleave.cpp: interleave_store), free again after it.
  FlatMap<Ref, std::vector<int>> store_tmp;
  int iota = -1, iv = -1, ir = -1, q = -1, sign = -1, absmask = -1, zero = -1, ones = -1, scratch = -1;
  int plane = -1, in_plane = -1;  // planes of rows' p and q % P as values (VecPlan::plane, in_plane)
  int vol = -1, in_vol = -1;      // volumes of planes' v and p % V (VecPlan::vol, in_vol)
  int f2i_lim = -1;  // 2^31 as f32 lanes: where f32 -> i32 saturates (lane_f2i)
  // A floor `//` or `%` by a constant: its multiplier's lanes (by the op)
  // and three temporaries (asm_lane_body.cpp's lane_floor_divide).
  FlatMap<Ref, int> magic;
  int div_t[3] = {-1, -1, -1};
  // A fold's new lanes before a masked end blends them in, and a float
  // fold's maximumNumber (lane_maxmin: apart from its operands).
  int fold_t = -1;
  // An i64 sum in 32-bit lanes: its second register of 4 partials (lanes
  // 4-7's), by slot.
  FlatMap<Ref, int> fold_hi;
  int tail = -1;                // the lanes a masked end covers (a row's, or a plain loop's)
  // A split sum's second register of partials, by slot: its partials (16
  // f32, 8 f64) fill two ymm, pW..p(2W-1) in the second (jit/vector.h).
  FlatMap<Ref, int> acc2;
  // A last value's hold register (VecPlan::lasts: a lane value's), by slot.
  FlatMap<Ref, int> hold;
};

// How many registers of the loop's lanes a split sum's partials fill.
int partial_regs(const Trace& t, const VecPlan& p);
// Assigns registers; false when the loop needs more than there are.
bool assign(const Trace& t, const VecPlan& p, VecRegs& r, bool tail);

}  // namespace kiln::jit
