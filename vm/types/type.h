// Primitive and (later) compound types of kernel scope, seed 000.
//
// A Type is a small value: a primitive element type plus an optional tensor
// shape (vectors and matrices arrive with the compound-types issue; the shape
// fields are here so that IR and bytecode never need to change their type
// representation). Pointers to global memory are a flag on the type.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kiln {

// X-macro of primitive types: (name, bits, is_float, is_signed)
// bf16 is a storage type computed in f32 (Kiln extension).
#define KILN_PRIMS(_)          \
  _(i8, 8, false, true)        \
  _(i16, 16, false, true)      \
  _(i32, 32, false, true)      \
  _(i64, 64, false, true)      \
  _(u8, 8, false, false)       \
  _(u16, 16, false, false)     \
  _(u32, 32, false, false)     \
  _(u64, 64, false, false)     \
  _(f16, 16, true, true)       \
  _(bf16, 16, true, true)      \
  _(f32, 32, true, true)       \
  _(f64, 64, true, true)

enum class Prim : uint8_t {
#define KILN_PRIM_ENUM(name, bits, fl, sg) name,
  KILN_PRIMS(KILN_PRIM_ENUM)
#undef KILN_PRIM_ENUM
  none,  // statements without a value (store, if, print, ...)
};
constexpr int kNumPrims = (int)Prim::none;

int prim_bits(Prim p);
bool prim_is_float(Prim p);
bool prim_is_int(Prim p);       // signed or unsigned integer
bool prim_is_signed(Prim p);    // floats count as signed
std::string_view prim_name(Prim p);  // "i32", "f32", ...
std::optional<Prim> prim_from_name(std::string_view name);

// Seed 000's binary-operation promotion, the one place it lives:
//   1. int + float -> float            (f16 + i32 -> f16)
//   2. narrower + wider -> wider        (i16 + i32 -> i32, u8 + i16 -> i16)
//   3. signed + unsigned -> unsigned    (u32 + i32 -> u32)
// Rule 1 beats 2 beats 3. bf16 with f16 gives f32 (neither holds the other).
Prim promote(Prim a, Prim b);

// True when converting a value of `from` to `to` may lose precision or range
// (the implicit-cast warning of seed 000: f32 -> i32, i64 -> i32, f64 -> f32, ...).
bool cast_loses_precision(Prim from, Prim to);

// A kernel-scope value type: scalar, or vector/matrix of a primitive (later).
struct Type {
  Prim prim = Prim::none;
  uint16_t rows = 0;  // 0 = scalar; vector: rows = n, cols = 0; matrix: rows = n, cols = m
  uint16_t cols = 0;  // (16 bits: Taichi programs return vectors of 1024 and more)
  bool is_ptr = false;  // pointer into global memory (IR global_ptr)

  static Type scalar(Prim p) { return Type{p, 0, 0, false}; }
  static Type ptr(Prim p) { return Type{p, 0, 0, true}; }
  static Type none() { return Type{}; }
  bool is_none() const { return prim == Prim::none; }
  bool is_scalar() const { return !is_none() && rows == 0 && !is_ptr; }
  bool operator==(const Type&) const = default;
};

// "i32", "*f32" (pointer); vectors/matrices later print as "[Tensor (3) f32]".
std::string type_name(const Type& t);

// Runtime configuration that changes how literals and `int`/`float` type.
struct TypeConfig {
  Prim default_ip = Prim::i32;
  Prim default_fp = Prim::f32;
};

}  // namespace kiln
