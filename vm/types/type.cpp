// Primitive-type facts, seed 000's promotion rules, and type names.
#include "vm/types/type.h"

namespace kiln {

namespace {

struct PrimInfo {
  std::string_view name;
  int bits;
  bool is_float;
  bool is_signed;
};

// One row per primitive, generated from the X-macro so the table can never
// disagree with the enum's order.
constexpr PrimInfo kPrimInfo[kNumPrims] = {
#define KILN_PRIM_INFO(name, bits, fl, sg) {#name, bits, fl, sg},
    KILN_PRIMS(KILN_PRIM_INFO)
#undef KILN_PRIM_INFO
};

bool valid(Prim p) { return (int)p < kNumPrims; }

}  // namespace

// Prim::none has no width and is neither int nor float: callers that ask about
// it get answers that make every "is it numeric" test fail.
int prim_bits(Prim p) { return valid(p) ? kPrimInfo[(int)p].bits : 0; }
bool prim_is_float(Prim p) { return valid(p) && kPrimInfo[(int)p].is_float; }
bool prim_is_int(Prim p) { return valid(p) && !kPrimInfo[(int)p].is_float; }
bool prim_is_signed(Prim p) { return valid(p) && kPrimInfo[(int)p].is_signed; }

std::string_view prim_name(Prim p) { return valid(p) ? kPrimInfo[(int)p].name : "none"; }

std::optional<Prim> prim_from_name(std::string_view name) {
  for (int i = 0; i < kNumPrims; ++i)
    if (kPrimInfo[i].name == name) return (Prim)i;
  return std::nullopt;
}

// The rules are applied in priority order, so a higher rule decides before a
// lower one is even looked at:
//   1. exactly one operand is a float -> that float (f16 + i64 -> f16, as in Taichi:
//      the float wins even when it is narrower);
//   2. different widths -> the wider (u8 + i16 -> i16: rule 2 beats rule 3);
//   3. same width, different signedness -> the unsigned one.
// The only pair the three rules leave open is f16 with bf16 (same width, both
// float, both "signed"): neither represents the other's values, so the result
// is f32, which holds both exactly.
Prim promote(Prim a, Prim b) {
  if (!valid(a) || !valid(b)) return Prim::none;  // no value: the caller reports it
  if (a == b) return a;
  bool fa = prim_is_float(a), fb = prim_is_float(b);
  if (fa != fb) return fa ? a : b;
  int wa = prim_bits(a), wb = prim_bits(b);
  if (wa != wb) return wa > wb ? a : b;
  if (fa) return Prim::f32;  // f16 + bf16
  return prim_is_signed(a) ? b : a;
}

// Taichi's rule (frontend_type_check: "Assign may lose precision: i32 <- f32"):
// a store into a `to` slot warns exactly when promoting `to` with `from` does
// not give `to` back, i.e. when `from` would have won the binary promotion.
// Consequences worth knowing, all deliberate because they match Taichi:
//   f32 -> i32, f64 -> f32, i64 -> i32, u32 -> i32 (unsigned wins at equal width),
//   bf16 -> f16 and f16 -> bf16 (their promotion is f32) warn;
//   i32 -> f32, i64 -> f16, i8 -> u8, i32 -> i64 do not (even though i32 -> f32
//   can round large integers: Taichi treats int -> float as widening).
bool cast_loses_precision(Prim from, Prim to) {
  if (from == to) return false;
  return promote(to, from) != to;
}

std::string type_name(const Type& t) {
  if (t.is_none()) return "none";
  std::string elem(prim_name(t.prim));
  std::string s;
  if (t.rows == 0) {
    s = elem;
  } else if (t.cols == 0) {
    s = "[Tensor (" + std::to_string(t.rows) + ") " + elem + "]";
  } else {
    s = "[Tensor (" + std::to_string(t.rows) + ", " + std::to_string(t.cols) + ") " + elem + "]";
  }
  return t.is_ptr ? "*" + s : s;
}

}  // namespace kiln
