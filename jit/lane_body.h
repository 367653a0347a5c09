// One copy of a vector loop's body, as asm_vector.cpp's vector_loop emits
// it (asm_lane_body.cpp): the plan's ops in lanes, copy u W * u iterations
// on; `masked`, the loop's last iterations under a mask (k1 in zmm, r.tail
// in ymm).
#pragma once
#include "jit/vector.h"
#include "jit/vector_regs.h"

namespace kiln::jit {

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

  // Lane register j: zmm j in a wide loop, else ymm j.
  asmjit::x86::Vec ymm(int j) const;
  // Register h of a split sum's partials (lane k holds partial h * W + k).
  asmjit::x86::Vec acc_of(Ref slot, int h) const;
  // The lanes of the counter (or row position) `start`, copy u: start + W * u + 0..W-1.
  void lanes_from(int y, const asmjit::x86::Gp& start, int u) const;
  // The register of a lane value (the counter's and the row's lanes included).
  asmjit::x86::Vec y_of(Ref v) const;
  void operator()(int u, bool masked = false) const;
};

}  // namespace kiln::jit
