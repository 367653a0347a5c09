// Seed 000's promotion over every pair of primitives, plus the primitive
// facts, names and the implicit-cast warning rule.
#include <doctest/doctest.h>

#include "vm/types/type.h"

using namespace kiln;

namespace {

// Written out by hand from the three rules (1: int+float -> float; 2: narrower
// + wider -> wider; 3: signed+unsigned -> unsigned; 1 > 2 > 3; f16+bf16 -> f32),
// not generated from promote(): the table is the specification.
constexpr Prim i8 = Prim::i8, i16 = Prim::i16, i32 = Prim::i32, i64 = Prim::i64;
constexpr Prim u8 = Prim::u8, u16 = Prim::u16, u32 = Prim::u32, u64 = Prim::u64;
constexpr Prim f16 = Prim::f16, bf16 = Prim::bf16, f32 = Prim::f32, f64 = Prim::f64;

constexpr Prim kOrder[12] = {i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64};

constexpr Prim kTable[12][12] = {
    //        i8    i16   i32   i64   u8    u16   u32   u64   f16   bf16  f32   f64
    /* i8  */ {i8,  i16,  i32,  i64,  u8,   u16,  u32,  u64,  f16,  bf16, f32,  f64},
    /* i16 */ {i16, i16,  i32,  i64,  i16,  u16,  u32,  u64,  f16,  bf16, f32,  f64},
    /* i32 */ {i32, i32,  i32,  i64,  i32,  i32,  u32,  u64,  f16,  bf16, f32,  f64},
    /* i64 */ {i64, i64,  i64,  i64,  i64,  i64,  i64,  u64,  f16,  bf16, f32,  f64},
    /* u8  */ {u8,  i16,  i32,  i64,  u8,   u16,  u32,  u64,  f16,  bf16, f32,  f64},
    /* u16 */ {u16, u16,  i32,  i64,  u16,  u16,  u32,  u64,  f16,  bf16, f32,  f64},
    /* u32 */ {u32, u32,  u32,  i64,  u32,  u32,  u32,  u64,  f16,  bf16, f32,  f64},
    /* u64 */ {u64, u64,  u64,  u64,  u64,  u64,  u64,  u64,  f16,  bf16, f32,  f64},
    /* f16 */ {f16, f16,  f16,  f16,  f16,  f16,  f16,  f16,  f16,  f32,  f32,  f64},
    /* bf16*/ {bf16,bf16, bf16, bf16, bf16, bf16, bf16, bf16, f32,  bf16, f32,  f64},
    /* f32 */ {f32, f32,  f32,  f32,  f32,  f32,  f32,  f32,  f32,  f32,  f32,  f64},
    /* f64 */ {f64, f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64},
};

}  // namespace

TEST_CASE("promotion: every pair matches the hand-written table") {
  for (int a = 0; a < 12; ++a)
    for (int b = 0; b < 12; ++b) {
      CAPTURE(prim_name(kOrder[a]));
      CAPTURE(prim_name(kOrder[b]));
      CHECK(promote(kOrder[a], kOrder[b]) == kTable[a][b]);
    }
}

TEST_CASE("promotion: the table itself is symmetric and covers every prim") {
  for (int a = 0; a < 12; ++a) {
    CHECK(kTable[a][a] == kOrder[a]);  // same type -> same type
    for (int b = 0; b < 12; ++b) CHECK(kTable[a][b] == kTable[b][a]);
  }
  CHECK(kNumPrims == 12);
}

TEST_CASE("promotion: seed 000's examples") {
  CHECK(promote(i32, f32) == f32);
  CHECK(promote(i16, f16) == f16);
  CHECK(promote(i16, i32) == i32);
  CHECK(promote(f16, f32) == f32);
  CHECK(promote(u8, u16) == u16);
  CHECK(promote(u32, i32) == u32);
  CHECK(promote(u8, i8) == u8);
  CHECK(promote(u8, i16) == i16);  // rule 2 beats rule 3
  CHECK(promote(f16, i32) == f16);  // rule 1 beats rule 2
  CHECK(promote(f16, bf16) == f32);
  CHECK(promote(Prim::none, i32) == Prim::none);
}

TEST_CASE("prim facts come from the X-macro") {
  int bits[12] = {8, 16, 32, 64, 8, 16, 32, 64, 16, 16, 32, 64};
  const char* names[12] = {"i8", "i16", "i32", "i64", "u8",   "u16",
                           "u32", "u64", "f16", "bf16", "f32", "f64"};
  for (int k = 0; k < 12; ++k) {
    Prim p = kOrder[k];
    CHECK(prim_bits(p) == bits[k]);
    CHECK(prim_is_float(p) == (k >= 8));
    CHECK(prim_is_int(p) == (k < 8));
    CHECK(prim_is_signed(p) == (k < 4 || k >= 8));
    CHECK(prim_name(p) == names[k]);
    REQUIRE(prim_from_name(names[k]).has_value());
    CHECK(*prim_from_name(names[k]) == p);
  }
  CHECK(!prim_from_name("i128"));
  CHECK(!prim_from_name(""));
  CHECK(!prim_from_name("none"));
  CHECK(prim_name(Prim::none) == "none");
  CHECK(prim_bits(Prim::none) == 0);
  CHECK(!prim_is_int(Prim::none));
  CHECK(!prim_is_float(Prim::none));
}

TEST_CASE("cast_loses_precision follows Taichi's 'promote(dst, src) != dst' rule") {
  // Warned (the value's type would win the promotion).
  CHECK(cast_loses_precision(f32, i32));
  CHECK(cast_loses_precision(f64, f32));
  CHECK(cast_loses_precision(i64, i32));
  CHECK(cast_loses_precision(u32, i32));
  CHECK(cast_loses_precision(f16, i64));
  CHECK(cast_loses_precision(bf16, f16));
  CHECK(cast_loses_precision(f16, bf16));
  CHECK(cast_loses_precision(u16, i8));
  // Not warned.
  CHECK(!cast_loses_precision(i32, f32));
  CHECK(!cast_loses_precision(i64, f16));
  CHECK(!cast_loses_precision(i32, i64));
  CHECK(!cast_loses_precision(i8, u8));
  CHECK(!cast_loses_precision(f32, f64));
  CHECK(!cast_loses_precision(f16, f32));
  // Over every pair: exactly the definition, and never for a same-type store.
  for (Prim a : kOrder)
    for (Prim b : kOrder) {
      CHECK(cast_loses_precision(a, b) == (promote(b, a) != b));
      if (a == b) CHECK(!cast_loses_precision(a, b));
    }
}

TEST_CASE("type_name") {
  CHECK(type_name(Type::scalar(i32)) == "i32");
  CHECK(type_name(Type::ptr(f32)) == "*f32");
  CHECK(type_name(Type::none()) == "none");
  CHECK(type_name(Type{f32, 3, 0, false}) == "[Tensor (3) f32]");
  CHECK(type_name(Type{f64, 2, 3, false}) == "[Tensor (2, 3) f64]");
  CHECK(type_name(Type{bf16, 4, 0, true}) == "*[Tensor (4) bf16]");
}
