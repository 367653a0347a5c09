// f16 (IEEE binary16) and bf16 (the top half of an f32) conversions.
//
// The float -> 16-bit paths work on the bit patterns because the interpreter
// calls them on every f16/bf16 store; the double paths go through one generic
// rounding routine, which is slower but rounds exactly once.
#include <cmath>
#include <cstring>

#include "vm/types/value.h"

namespace kiln {

namespace {

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Round-to-nearest-even of a double to an integer value, independent of the
// FPU's current rounding mode (std::nearbyint would follow fesetround).
double rne_integer(double y) {
  double r = std::floor(y);
  double d = y - r;  // exact: y has few integer bits here
  if (d > 0.5 || (d == 0.5 && std::fmod(r, 2.0) != 0.0)) r += 1.0;
  return r;
}

// Rounds x to a binary format with `p` significant bits (counting the implicit
// one), smallest normal exponent `emin` and largest exponent `emax`. Below
// 2^emin the quantum stops shrinking, which produces the subnormals.
double round_to_format(double x, int p, int emin, int emax) {
  if (!std::isfinite(x) || x == 0.0) return x;
  int e;
  std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  int lead = e - 1 < emin ? emin : e - 1;
  int qexp = lead - (p - 1);
  // Scaling by a power of two is exact and |x / q| < 2^p, so the only rounding
  // is the one rne_integer does.
  double r = rne_integer(std::ldexp(x, -qexp));
  double res = std::ldexp(r, qexp);
  if (std::fabs(res) >= std::ldexp(1.0, emax + 1)) return std::copysign(INFINITY, x);
  if (res == 0.0) return std::copysign(0.0, x);  // tiny negatives round to -0
  return res;
}

}  // namespace

uint16_t f32_to_f16_bits(float f) {
  uint32_t x = bits_of(f);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  uint32_t ax = x & 0x7fffffff;
  uint32_t e = ax >> 23;
  uint32_t m = ax & 0x7fffff;
  if (e == 0xff) {
    if (m == 0) return sign | 0x7c00;
    // Quiet NaN (bit 9 set) keeping the payload's top bits, so NaN never turns into inf.
    return (uint16_t)(sign | 0x7e00 | (m >> 13));
  }
  if (e >= 143) return sign | 0x7c00;  // >= 2^16: beyond any rounding to 65504
  if (e >= 113) {
    // Normal f16 (exponent rebias 127 -> 15). A carry out of the mantissa bumps
    // the exponent, and out of exponent 30 gives 0x7c00 = inf: both are right.
    uint32_t h = ((e - 112) << 10) | (m >> 13);
    uint32_t rest = m & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;
    return (uint16_t)(sign | h);
  }
  if (e < 102) return sign;  // < 2^-25: rounds to zero (2^-25 itself is handled below)
  // Subnormal f16: value = k * 2^-24 with k = mant * 2^(e-126).
  uint32_t mant = m | 0x800000;
  uint32_t shift = 126 - e;  // 14..24
  uint32_t k = mant >> shift;
  uint32_t rest = mant & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (k & 1))) ++k;  // k may reach 0x400: smallest normal
  return (uint16_t)(sign | k);
}

float f16_bits_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t e = (h >> 10) & 0x1f;
  uint32_t m = h & 0x3ff;
  if (e == 0x1f) return float_of(sign | 0x7f800000 | (m << 13));
  if (e == 0) {
    // Subnormal (or zero): m * 2^-24, exact in float.
    float v = (float)m * 0x1p-24f;
    return sign ? -v : v;
  }
  return float_of(sign | ((e + 112) << 23) | (m << 13));
}

uint16_t f32_to_bf16_bits(float f) {
  uint32_t x = bits_of(f);
  if ((x & 0x7fffffff) > 0x7f800000)  // NaN: truncation could clear every payload bit
    return (uint16_t)((x >> 16) | 0x0040);
  // Adding 0x7fff plus the lowest kept bit rounds to nearest even; a carry into
  // the exponent is the correct next binade, and past the top it is inf.
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

float bf16_bits_to_f32(uint16_t h) { return float_of((uint32_t)h << 16); }

double round_to_f16(double d) { return round_to_format(d, 11, -14, 15); }
double round_to_bf16(double d) { return round_to_format(d, 8, -126, 127); }

// After round_to_*, the value is exact in float and in the 16-bit format, so
// the float path below no longer rounds.
uint16_t f64_to_f16_bits(double d) {
  if (std::isnan(d)) return f32_to_f16_bits((float)d);
  return f32_to_f16_bits((float)round_to_f16(d));
}
uint16_t f64_to_bf16_bits(double d) {
  if (std::isnan(d)) return f32_to_bf16_bits((float)d);
  return f32_to_bf16_bits((float)round_to_bf16(d));
}

}  // namespace kiln
