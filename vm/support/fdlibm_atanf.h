// The constants of glibc's atan2f (fdlibm's e_atan2f.c and s_atanf.c, single
// precision), for the GPU code generators that repeat its algorithm to give
// the CPU engines' bits: gpu/vulkan/codegen_f32math.cpp (SPIR-V) and
// jit/llvm/atan2f.cpp (LLVM IR for NVPTX). atan(x) reduces |x| to one of five
// ranges (split at the bounds below) around a point whose atan is added back
// as an f32 hi + lo pair, and sums an odd and an even minimax polynomial in
// w = x^4. The reduction points' atans and the coefficients are fdlibm's
// double ones: a generator rounds each to f32 (and splits the atans, hi the
// rounded value, lo the rest rounded), which is what gives glibc's bits.
#pragma once
#include <cstdint>

namespace kiln::fdlibm_atanf {

// atan(0.5), atan(1), atan(1.5), atan(inf) = pi/2
inline constexpr double kAtanAt[4] = {4.63647609000806093515e-01, 7.85398163397448278999e-01,
                                      9.82793723247329054082e-01, 1.57079632679489655800e+00};
// z * (odd[0] + w * (odd[1] + ...)) and w * (even[0] + w * (even[1] + ...)), z = x^2
inline constexpr double kOdd[6] = {3.33333333333329318027e-01, 1.42857142725034663711e-01, 9.09088713343650656196e-02,
                                   6.66107313738753120669e-02, 4.97687799461593236017e-02, 1.62858201153657823623e-02};
inline constexpr double kEven[5] = {-1.99999999998764832476e-01, -1.11111104054623557880e-01, -7.69187620504482999495e-02,
                                    -5.83357013379057348645e-02, -3.65315727442169155270e-02};
// |x|'s f32 bits: below kBound[i], the reduction around point i (11/16, 19/16, 39/16; above: -1/x)
inline constexpr uint32_t kBound[3] = {0x3f300000u, 0x3f980000u, 0x401c0000u};
inline constexpr uint32_t kNoReduction = 0x3ee00000u;  // |x| < 7/16: the polynomial of x itself
inline constexpr uint32_t kTiny = 0x31000000u;         // |x| < 2^-29: atan(x) = x
inline constexpr uint32_t kHuge = 0x4c000000u;         // |x| >= 2^25: +-(pi/2 hi + lo)
// atan2's own: pi, its low part, pi/2 and pi/4, all f32
inline constexpr float kPi = 3.1415927410e+00f, kPiLo = -8.7422776573e-08f, kPio2 = 1.5707963705e+00f,
                       kPio4 = 7.8539818525e-01f;
// |y / x| beyond 2^60 (exponents 60 apart): z = pi/2 (x < 0 and below 2^-60: z = 0)
inline constexpr int kFarExponent = 60;

}  // namespace kiln::fdlibm_atanf
