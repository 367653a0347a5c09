// The exact scalar semantics of the IR's unary and binary ops. Constant
// folding uses these functions; the bytecode interpreter, the JIT and the GPU
// backends must compute the same results bit for bit.
//
// Operand types. Binary operands have the same primitive, except the shifts,
// whose count may be any integer type. Arithmetic results have the operand's
// type (the `result` argument must say so); comparisons and logic_not give an
// integer (i32 from the frontend) holding 0 or 1. cast_value/cast_bits convert
// to `result`. A mismatch returns nullopt rather than guessing.
//
// Integers (i8..u64) wrap two's-complement at their width. Results are
// normalized like Const: signed sign-extended, unsigned zero-extended to 64 bits.
//   add sub mul neg     wrap (i8 127 + 1 == -128; abs(INT_MIN) == INT_MIN)
//   div                 C division, truncating toward zero; INT_MIN / -1 wraps to INT_MIN
//   floordiv            Python's: rounds toward -inf (-7 // 2 == -4)
//   mod                 Python's: sign of the divisor (-7 % 2 == 1, 7 % -2 == -1)
//   raw_mod             C's %: sign of the dividend (-7 % 2 == -1); INT_MIN % -1 == 0
//   pow                 by squaring, wrapping; 0**0 == 1; a negative exponent is
//                       not folded (nullopt) -- the frontend decides what it means
//   bit_and/or/xor/not  bitwise on the value at its width
//   bit_shl, bit_shr    the count is taken as unsigned 64-bit (a negative signed
//                       count is huge); count >= width gives 0. shr is logical on
//                       the width-bit pattern (i8 -128 >> 1 == 64).
//   bit_sar             arithmetic on the width-bit pattern read as signed, even for
//                       unsigned types (LLVM's ashr); count >= width fills with the sign
//   max min             by signed or unsigned order
//   floor ceil round    identity
//   division or modulo by zero (div, floordiv, mod, raw_mod) traps: nullopt.
//   sqrt, sin, ... and atan2 on integers: nullopt (the frontend casts to float).
//
// Floats. f64 computes in double; f32 in float (the float overloads of <cmath>:
// std::sin(float) is sinf); f16 and bf16 compute in f32 and then round the f32
// result to nearest-even at 16 bits. Nothing traps (x / 0 is inf or nan).
//   floordiv            floor(a / b), in the type
//   mod                 Python's float %: r = fmod(a, b); if r != 0 and its sign
//                       differs from b's, r += b; a zero r takes b's sign
//   raw_mod             fmod(a, b)
//   pow atan2           std::pow, std::atan2
//   rsqrt               1 / sqrt(a)
//   round               half away from zero (C round)
//   max min             IEEE maximumNumber/minimumNumber: a NaN operand is ignored
//                       (both NaN gives a); max(-0, +0) == +0, min(-0, +0) == -0
//   comparisons         IEEE: any comparison with NaN is false except cmp_ne
//   bit ops on floats   nullopt
//
// Casts (cast_value) follow vm/types/value.h's cast_const: int->int wraps,
// float->int truncates with NaN -> 0 and saturation, ->float rounds once to
// nearest-even. cast_bits reinterprets the bits between types of equal width.
#pragma once
#include <optional>

#include "vm/ir/ir.h"

namespace kiln::ir {

std::optional<Const> eval_unary(UnaryOp op, const Const& a, Type result);
std::optional<Const> eval_binary(BinaryOp op, const Const& a, const Const& b, Type result);

}  // namespace kiln::ir
