// Interleaved loads (vector.h, VecPlan::interleaved): the components of 8
// consecutive elements of a field of vec2, vec3 or vec4 (32-bit components)
// from n = 2, 3 or 4 contiguous loads and in-lane shuffles, where the
// gathers they replace (one vgatherdps per component: 8 loads each, slow on
// most x86 cores) kept an n-body loop at a third of its arithmetic's speed.
//
// Each ymm is put together from two 16-byte loads, the low half from the
// first four elements' bytes and the high half from the last four's, so the
// shuffles never cross the 128-bit lanes and lane k of the result is element k.
// Interleaved stores (VecPlan::interleaved_stores) are the inverse: the
// components' lanes shuffled together within 128-bit lanes, each result's
// halves stored where those loads take theirs from.
#include <utility>

#include "jit/asm.h"

namespace kiln::jit {

using namespace asmjit;

// Bytes [16 * k, 16 * k + 16) of the first four elements at `at`, and of the last four.
static std::pair<x86::Mem, x86::Mem> halves(const x86::Mem& at, int n, int k) {
  x86::Mem lo = at, hi = at;
  lo.addOffset(16 * k);
  hi.addOffset(16 * k + 4 * 4 * n);
  lo.setSize(16);
  hi.setSize(16);
  return {lo, hi};
}

void deinterleave_load(x86::Assembler& a, int n, const x86::Mem& at, const x86::Ymm* out, const x86::Ymm& scratch) {
  // v = bytes [16 * k, 16 * k + 16) of the first half, then of the second.
  auto pair = [&](const x86::Ymm& v, int k) {
    auto [lo, hi] = halves(at, n, k);
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

// The inverse of deinterleave_load: the components in[0..n-1] (lane k =
// element k) as the 8 elements' 32-bit components at `at`, through the
// temporaries tmp[0..n] (apart from in[]; in[] is left as it was).
// Result j's low half is bytes [16 * j, 16 * j + 16) of the first four
// elements, its high half the same bytes of the last four.
void interleave_store(x86::Assembler& a, int n, const x86::Mem& at, const x86::Ymm* in, const x86::Ymm* tmp) {
  auto put = [&](const x86::Ymm& v, int j) {
    auto [lo, hi] = halves(at, n, j);
    a.vmovups(lo, v.xmm());
    v.id() < 16 ? a.vextractf128(hi, v, 1) : a.vextractf32x4(hi, v, 1);  // (ymm16-31: EVEX; vector_regs.cpp)
  };
  switch (n) {
    case 2:
      a.vunpcklps(tmp[0], in[0], in[1]);  // x0 y0 x1 y1
      a.vunpckhps(tmp[1], in[0], in[1]);  // x2 y2 x3 y3
      put(tmp[0], 0);
      put(tmp[1], 1);
      break;
    case 3: {  // Intel's SoA-to-AoS of 3-vectors in AVX
      const x86::Ymm &xy = tmp[0], &yz = tmp[1], &zx = tmp[2], &r = tmp[3];
      a.vshufps(xy, in[0], in[1], 0x88);  // x0 x2 y0 y2
      a.vshufps(yz, in[1], in[2], 0xDD);  // y1 y3 z1 z3
      a.vshufps(zx, in[2], in[0], 0xD8);  // z0 z2 x1 x3
      a.vshufps(r, xy, zx, 0x88);         // x0 y0 z0 x1
      put(r, 0);
      a.vshufps(r, yz, xy, 0xD8);         // y1 z1 x2 y2
      put(r, 1);
      a.vshufps(r, zx, yz, 0xDD);         // z2 x3 y3 z3
      put(r, 2);
      break;
    }
    case 4:  // a 4x4 transpose in each half
      a.vunpcklps(tmp[0], in[0], in[1]);  // x0 y0 x1 y1
      a.vunpckhps(tmp[1], in[0], in[1]);  // x2 y2 x3 y3
      a.vunpcklps(tmp[2], in[2], in[3]);  // z0 w0 z1 w1
      a.vunpckhps(tmp[3], in[2], in[3]);  // z2 w2 z3 w3
      a.vunpcklpd(tmp[4], tmp[0], tmp[2]);  // x0 y0 z0 w0
      put(tmp[4], 0);
      a.vunpckhpd(tmp[4], tmp[0], tmp[2]);  // x1 y1 z1 w1
      put(tmp[4], 1);
      a.vunpcklpd(tmp[4], tmp[1], tmp[3]);  // x2 y2 z2 w2
      put(tmp[4], 2);
      a.vunpckhpd(tmp[4], tmp[1], tmp[3]);  // x3 y3 z3 w3
      put(tmp[4], 3);
      break;
    default: break;
  }
}

}  // namespace kiln::jit
