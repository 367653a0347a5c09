// Division by a constant as a multiply and a shift (the JIT's scalar and
// lane forms of `//` and `%` by a constant: asm_int.cpp, asm_lane_body.cpp).
#pragma once
#include <cstdint>
#include <optional>

#include "jit/trace.h"

namespace kiln::jit {

struct DivMagic {
  uint64_t m;  // floor(y / d) == (y * m) >> k for every 0 <= y < 2^bits
  int k;
};

// The smallest shift k >= kmin (and its multiplier m = ceil(2^k / d)) with
// floor(y * m / 2^k) == floor(y / d) for all y < 2^bits and y * m below 2^64,
// so a 64-bit multiply's low half holds the product: with e = m * d - 2^k,
// y * m / 2^k = y / d + y * e / (d * 2^k), and the error term stays under
// 1/d (what keeps y = q * d + d - 1 from rounding up) iff y * e < 2^k.
// None when no k fits (a divisor near 2^bits); d >= 1, bits <= 32.
inline std::optional<DivMagic> div_magic(uint64_t d, int bits, int kmin = 0) {
  const unsigned __int128 ymax = ((unsigned __int128)1 << bits) - 1;
  for (int k = kmin; k < 64 + bits; k++) {
    unsigned __int128 p = (unsigned __int128)1 << k;
    unsigned __int128 m = (p + d - 1) / d;
    unsigned __int128 e = m * d - p;
    if (m * ymax >> 64) return std::nullopt;  // (m only grows with k)
    if (ymax * e < p) return DivMagic{(uint64_t)m, k};
  }
  return std::nullopt;
}

// The lane form of an i32 floor `//` or `%` by d (asm_lane_body.cpp): k of
// 32 or more, so the quotient is a 32x32->64 product's high half shifted
// by k - 32, and m below 2^32 (vpmuludq's operand). None for d < 2.
inline std::optional<DivMagic> lane_div_magic(int64_t d) {
  if (d < 2 || d >= (1ll << 31)) return std::nullopt;
  std::optional<DivMagic> mg = div_magic((uint64_t)d, 31, 32);
  if (!mg || mg->m >= (1ull << 32)) return std::nullopt;
  return mg;
}

// Whether operand o of a lane op is read as an immediate (a shift's count,
// a floor quotient's divisor) rather than from a register of lanes.
inline bool lane_immediate(const Ins& in, Ref o) {
  bool shift = in.op == IrOp::shl || in.op == IrOp::shr || in.op == IrOp::sar;
  return o == in.b && (shift || in.op == IrOp::floordiv);
}

}  // namespace kiln::jit
