// Compile-time scalar values (constant folding, literals, host <-> kernel
// argument passing) and the exact conversions between primitive types.
//
// Every engine must convert the same way, so the rules live here once:
//   * int -> narrower/other-signedness int wraps (two's complement truncation);
//   * float -> int truncates toward zero; NaN gives 0 and out-of-range values
//     saturate to the target's min/max (C leaves this undefined and x86 gives
//     INT_MIN; Kiln picks saturation so that no engine ever has UB here --
//     the interpreter and the JIT must implement exactly this);
//   * any -> f64/f32/f16/bf16 rounds once, to nearest-even (no double rounding,
//     even for i64 -> bf16 or f64 -> f16); overflow gives +-inf.
// f16 and bf16 values are held as the double of their exact value, so a
// ConstVal of prim f16 always holds a number that f16 represents exactly.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vm/types/type.h"

namespace kiln {

// ---- 16-bit float formats (round to nearest even; NaN stays NaN and quiet,
// keeping the top payload bits; infinities and subnormals are exact) -------
uint16_t f32_to_f16_bits(float f);
float f16_bits_to_f32(uint16_t h);
uint16_t f32_to_bf16_bits(float f);
float bf16_bits_to_f32(uint16_t h);
// From double in one rounding step (rounding through float first could round twice).
uint16_t f64_to_f16_bits(double d);
uint16_t f64_to_bf16_bits(double d);
// The nearest f16 / bf16 value, as a double (what a store then load gives).
double round_to_f16(double d);
double round_to_bf16(double d);

// A scalar of a primitive type. Which union member is live follows the prim:
// signed ints use `i` (sign-extended from the type's width), unsigned ints use
// `u` (zero-extended), floats use `f`. Build values with the make_* helpers,
// which normalise the payload to the type (wrap or round).
struct ConstVal {
  Prim prim = Prim::i32;
  union {
    int64_t i;
    uint64_t u;
    double f;
  };

  ConstVal() : i(0) {}

  static ConstVal make_int(Prim p, int64_t v);    // p any primitive: converted like cast_const
  static ConstVal make_uint(Prim p, uint64_t v);  // p any primitive
  static ConstVal make_float(Prim p, double v);   // p any primitive

  bool is_float() const { return prim_is_float(prim); }
  // The value as a double / int64 / uint64 (C conversion rules of cast_const;
  // as_int64 of an unsigned gives its two's complement reinterpretation).
  double as_double() const;
  int64_t as_int64() const;
  uint64_t as_uint64() const;
  // Bit-exact equality (same prim, same payload; -0.0 != 0.0, NaN == NaN of same bits).
  bool identical(const ConstVal& o) const;
};

// Converts v to `to` with the rules at the top of this file. Exact and total
// for every pair of primitives (Prim::none as either side returns v unchanged).
ConstVal cast_const(const ConstVal& v, Prim to);

// The raw bits of v as stored in memory of its type's width, zero-extended
// (f16/bf16 as their 16-bit encodings, f32 as its IEEE bits, ...), and back.
uint64_t const_to_bits(const ConstVal& v);
ConstVal const_from_bits(Prim p, uint64_t bits);

// ---- kernel print ------------------------------------------------------
// Taichi's printf conversion for a primitive (taichi/ir/type_utils.cpp):
// i8/i16 "%hd", u8/u16 "%hu", i32 "%d", u32 "%u", i64 "%lld", u64 "%llu",
// f16/bf16/f32 "%f" (printed as the double of the value), f64 "%.12f".
std::string kernel_printf_spec(Prim p);
// How a kernel `print` shows one scalar: print(x) with x = 0.1 in f32 gives
// "0.100000", in f64 "0.100000000000", 7 in i32 gives "7".
// `user_spec` is an f-string spec inside a kernel (f"{x:.2f}", f"{x:x}"),
// merged with the type's spec as Taichi merges them: the user's flags, width
// and precision win; the conversion letter is kept only when it belongs to
// the same group as the type's (d i / o x X u / f F e E a A g G), otherwise the
// type's letter is used; a missing precision takes the type's (".12" for f64).
// A malformed spec throws kiln::Error("ValueError", ...).
std::string kernel_print_scalar(const ConstVal& v, std::string_view user_spec = {});
// A printf-style assert message ("x is %d") filled with its arguments, each
// conversion formatted the way a kernel print with that spec would.
std::string assert_text(const std::string& text, const std::vector<ConstVal>& args);

}  // namespace kiln
