// Interleaved loads (vector.h, VecPlan::interleaved): the components of 8
// consecutive elements of a field of vec2, vec3 or vec4 (32-bit components)
// from n = 2, 3 or 4 contiguous loads and in-lane shuffles, where the
// gathers they replace (one vgatherdps per component: 8 loads each, slow on
// most x86 cores) kept an n-body loop at a third of its arithmetic's speed.
//
// Each ymm is put together from two 16-byte loads, the low half from the
// first four elements' bytes and the high half from the last four's, so the
// shuffles never cross the 128-bit lanes and lane k of the result is element k.
#include "jit/asm.h"

namespace kiln::jit {

using namespace asmjit;

void deinterleave_load(x86::Assembler& a, int n, const x86::Mem& at, const x86::Ymm* out, const x86::Ymm& scratch) {
  // v = bytes [16 * k, 16 * k + 16) of the first half, then of the second.
  auto pair = [&](const x86::Ymm& v, int k) {
    x86::Mem lo = at, hi = at;
    lo.addOffset(16 * k);
    hi.addOffset(16 * k + 4 * 4 * n);
    lo.setSize(16);
    hi.setSize(16);
    a.vmovups(v.xmm(), lo);
    v.id() < 16 ? a.vinsertf128(v, v, hi, 1) : a.vinsertf32x4(v, v, hi, 1);  // (ymm16-31: EVEX; vector_regs.cpp)
  };
  switch (n) {
    case 2:  // (x0 y0 x1 y1 | x4 y4 x5 y5), (x2 y2 x3 y3 | x6 y6 x7 y7): evens, odds
      pair(scratch, 0);
      pair(out[1], 1);
      a.vshufps(out[0], scratch, out[1], 0x88);
      a.vshufps(out[1], scratch, out[1], 0xDD);
      break;
    case 3: {  // Intel's AoS-to-SoA of 3-vectors in AVX: m03, m14, m25 by pairs of elements
      const x86::Ymm &m03 = out[0], &m14 = scratch, &m25 = out[2];
      pair(m03, 0);  // x0 y0 z0 x1
      pair(m14, 1);  // y1 z1 x2 y2
      pair(m25, 2);  // z2 x3 y3 z3
      a.vshufps(out[1], m14, m25, 0x9E);     // x2 y2 x3 y3
      a.vshufps(scratch, m03, m14, 0x49);    // y0 z0 y1 z1
      a.vshufps(out[0], m03, out[1], 0x8C);  // x0 x1 x2 x3
      a.vshufps(out[1], scratch, out[1], 0xD8);  // y0 y1 y2 y3
      a.vshufps(out[2], scratch, m25, 0xCD);     // z0 z1 z2 z3
      break;
    }
    case 4:  // a 4x4 transpose in each half
      for (int k = 0; k < 4; k++) pair(out[k], k);
      a.vunpcklps(scratch, out[0], out[1]);  // x0 x1 y0 y1
      a.vunpckhps(out[1], out[0], out[1]);   // z0 z1 w0 w1
      a.vunpcklps(out[0], out[2], out[3]);   // x2 x3 y2 y3
      a.vunpckhps(out[3], out[2], out[3]);   // z2 z3 w2 w3
      a.vshufps(out[2], out[1], out[3], 0x44);  // z
      a.vshufps(out[3], out[1], out[3], 0xEE);  // w
      a.vshufps(out[1], scratch, out[0], 0xEE);  // y
      a.vshufps(out[0], scratch, out[0], 0x44);  // x
      break;
    default: break;
  }
}

}  // namespace kiln::jit
