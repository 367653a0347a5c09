// Folds in vector lanes (jit/vector.h, VecPlan::Fold; jit/asm_lane_fold.cpp):
// which carried values are folds, and compiled fold loops against the
// scalar fold on every trip count around a multiple of eight, masked ends
// included, NaN payloads and signed zeros bit for bit.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "jit/backend.h"
#include "jit/vector.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::compile_lanes;
using kiln::jit::test::counted;
using kiln::jit::test::optimized;
using kiln::jit::test::run_sum;
using kiln::jit::test::why_not;

namespace {
// The loop over x = a[i] (32-bit `ty`) with `fold` carrying s in r3.
std::string fold_loop(const std::string& ty, const std::string& fold) {
  std::string body = counted("off = mul i64 i #4\n xa = add i64 a off\n x = load xa " + ty + "\n s0 = sload r3\n" + fold);
  body.replace(body.find("{ r0=n }"), 8, "{ r0=n r3=s }");
  body.replace(body.find("end r0=n"), 8, "end r0=n r3=s");
  return body;
}
// The interpreter's maximumNumber/minimumNumber (vm/interp/interp_ops.h).
float maxmin(float a, float b, bool mx) {
  if (std::isnan(a)) return std::isnan(b) ? a : b;
  if (std::isnan(b)) return a;
  if (a == b) return (mx ? !std::signbit(a) : std::signbit(a)) ? a : b;
  return (a > b) == mx ? a : b;
}
}  // namespace

TEST_CASE("jit vector folds: which carried values fold in lanes") {
  CHECK(why_not(fold_loop("f32", "s = max f32 s0 x")) == "lanes");
  CHECK(why_not(fold_loop("f32", "s = min f32 x s0")) == "lanes");
  CHECK(why_not(fold_loop("i32", "s = max i32 s0 x")) == "lanes");
  CHECK(why_not(fold_loop("u32", "s = min u32 x s0")) == "lanes");
  CHECK(why_not(fold_loop("i32", "s = mul i32 s0 x")) == "lanes");
  CHECK(why_not(fold_loop("i32", "s = bxor i32 x s0")) == "lanes");
  // s += x; s -= 3; s += x * 2: one chain of adds and subs
  CHECK(why_not(fold_loop("i32", "s1 = add i32 s0 x\n s2 = sub i32 s1 #3\n x2 = mul i32 x #2\n s = add i32 x2 s2")) == "lanes");
  // if x > 0: s += 1 (sel(c, s + 1, s)), and the else form
  CHECK(why_not(fold_loop("f32", "c = lt f32 #0 x\n s1 = add i32 s0 #1\n s = sel c s1 s0")) == "lanes");
  CHECK(why_not(fold_loop("i32", "c = lt i32 x #5\n s1 = sub i32 s0 x\n s = sel c s0 s1")) == "lanes");
  const std::string no = "a value carried around the loop that is not a sum, max, min, product or bitwise fold";
  // float sums in program order: the terms in lanes, added lane by lane (vector.h: ordered)
  CHECK(why_not(fold_loop("f32", "s = add f32 s0 x")) == "lanes");
  CHECK(why_not(fold_loop("f32", "s = sub f32 s0 x")) == "lanes");
  CHECK(why_not(fold_loop("f32", "x2 = mul f32 x x\n s = fma f32 x2 x s0")) == "lanes");
  CHECK(why_not(fold_loop("f32", "s1 = add f32 s0 x\n s = add f32 s1 #1065353216")) == no);  // two steps: lanes of one, then the other
  CHECK(why_not(fold_loop("f32", "s = sub f32 x s0")) == no);        // x - s: not a fold of s
  CHECK(why_not(fold_loop("f32", "s = mul f32 s0 x")) == no);        // a float product
  CHECK(why_not(fold_loop("i32", "s1 = max i32 s0 x\n s = min i32 s1 #9")) == no);  // two ops: not one fold
  CHECK(why_not(fold_loop("i32", "s = sub i32 x s0")) == no);        // x - s: not a fold of s
  // the running value read by the body (y[i] = max so far) needs the last iteration's
  CHECK(why_not(fold_loop("i32", "s = max i32 s0 x\n ya = add i64 xa #4096\n store ya s i32")) == no);
  // a condition that reads the fold (if x > s: s = x, by hand) is not a conditional add
  CHECK(why_not(fold_loop("i32", "c = lt i32 s0 x\n s1 = add i32 s0 #1\n s = sel c s1 s0")) == no);
}

TEST_CASE("jit vector folds: f32 max/min give the scalar fold's bits, NaN payloads and zeros' signs included") {
  if (!host_has_avx2()) return;
  // Mostly NaNs of different payloads and zeros of both signs: runs of
  // them make all-NaN lanes and folds, where which NaN comes out shows.
  static float mem[256];
  const float vals[] = {std::bit_cast<float>(0x7fc00001u), -0.0f, std::bit_cast<float>(0xffc00002u), 0.0f,
                        std::bit_cast<float>(0x7fc00003u), 1.5f, -2.0f, std::bit_cast<float>(0x7f800001u)};
  for (int j = 0; j < 256; j++) mem[j] = j % 37 < 20 ? std::bit_cast<float>(0x7fc00000u + (uint32_t)j) : vals[(j * 5) % 8];
  for (bool mx : {true, false})
    for (bool slot_first : {true, false}) {
      std::string op = mx ? "max" : "min";
      Compiled c = compile_lanes(fold_loop("f32", "s = " + op + " f32 " + (slot_first ? "s0 x" : "x s0")));
      REQUIRE(c.lanes == "8 lanes");
      uint64_t tails = 0;
      for (uint32_t s0bits : {0xffc0abcdu, 0x80000000u, 0u, 0x3f800000u})
        for (int lo : {0, 1, 5, 60})
          for (int hi = lo + 1; hi <= lo + 42; hi++) {
            float want = std::bit_cast<float>(s0bits);
            for (int j = lo; j < hi; j++) want = slot_first ? maxmin(want, mem[j], mx) : maxmin(mem[j], want, mx);
            auto [got, ran] = run_sum(c, mem, lo, hi, s0bits);
            tails += ran;
            if ((uint32_t)got != std::bit_cast<uint32_t>(want)) {
              FAIL_CHECK(op << (slot_first ? "(s, x)" : "(x, s)") << " from " << lo << " to " << hi << ": " << std::hex
                            << (uint32_t)got << ", want " << std::bit_cast<uint32_t>(want));
              break;
            }
          }
      CHECK(tails > 0);  // (masked ends ran)
    }
}

TEST_CASE("jit vector folds: integer folds and conditional adds, with masked ends") {
  if (!host_has_avx2()) return;
  static int32_t mem[256];
  for (int j = 0; j < 256; j++) mem[j] = (int32_t)((uint32_t)j * 2654435761u) >> (j % 7);
  struct Case {
    const char* ty;
    const char* fold;
    int32_t (*step)(int32_t s, int32_t x);
  };
  const Case cases[] = {
      {"i32", "s = max i32 x s0", [](int32_t s, int32_t x) { return std::max(s, x); }},
      {"u32", "s = min u32 s0 x", [](int32_t s, int32_t x) { return (int32_t)std::min((uint32_t)s, (uint32_t)x); }},
      {"i32", "s = mul i32 s0 x", [](int32_t s, int32_t x) { return (int32_t)((uint32_t)s * (uint32_t)x); }},
      {"i32", "s = band i32 s0 x", [](int32_t s, int32_t x) { return s & (x | 0x10); }},  // (x | 16 below)
      {"i32", "s1 = add i32 s0 x\n s = sub i32 s1 #3", [](int32_t s, int32_t x) { return (int32_t)((uint32_t)s + x - 3); }},
      {"i32", "c = lt i32 x #0\n s1 = add i32 s0 x\n s = sel c s1 s0",
       [](int32_t s, int32_t x) { return x < 0 ? (int32_t)((uint32_t)s + x) : s; }},
      {"i32", "c = lt i32 x #0\n s1 = sub i32 s0 #1\n s = sel c s0 s1", [](int32_t s, int32_t x) { return x < 0 ? s : s - 1; }},
  };
  for (const Case& k : cases) {
    std::string fold = k.fold;
    if (fold.find("band") != std::string::npos) fold = "x16 = bor i32 x #16\n s = band i32 s0 x16";
    Compiled c = compile_lanes(fold_loop(k.ty, fold));
    REQUIRE(c.lanes == "8 lanes");
    uint64_t tails = 0;
    for (int32_t s0 : {0, -7, 0x7fffffff, (int32_t)0x80000000})
      for (int lo : {0, 1, 5})
        for (int hi = lo + 1; hi <= lo + 40; hi++) {
          int32_t want = s0;
          for (int j = lo; j < hi; j++) want = k.step(want, mem[j]);
          // (an i32 in a register is sign-extended, a u32 zero-extended)
          bool u = std::string(k.ty) == "u32";
          auto ext = [&](int32_t v) { return u ? (uint64_t)(uint32_t)v : (uint64_t)(int64_t)v; };
          auto [got, ran] = run_sum(c, mem, lo, hi, ext(s0));
          tails += ran;
          if (got != ext(want)) {
            FAIL_CHECK(std::string(k.fold) << " from " << lo << " to " << hi << ", s0 " << s0 << ": " << (int64_t)got << ", want " << want);
            break;
          }
        }
    CHECK(tails > 0);
  }
}

TEST_CASE("jit vector folds: an i64 sum of i32 or u32 terms widens them into two registers of i64 partials") {
  if (!host_has_avx2()) return;
  static int32_t mem[256];
  for (int j = 0; j < 256; j++) mem[j] = j % 9 == 0 ? INT32_MIN : j % 11 == 0 ? INT32_MAX : (int32_t)((uint32_t)j * 2654435761u);
  for (const char* ty : {"i32", "u32"})
    for (bool sub : {false, true}) {
      Compiled c = compile_lanes(fold_loop(ty, std::string("s = ") + (sub ? "sub i64 s0 x" : "add i64 x s0")));
      REQUIRE(c.lanes == "8 lanes");
      CHECK(c.listing.find(std::string(ty) == "i32" ? "vpmovsxdq" : "vpmovzxdq") != std::string::npos);
      uint64_t tails = 0;
      for (int lo : {0, 1, 5})
        for (int hi = lo + 1; hi <= lo + 40; hi++) {
          uint64_t want = 0x123456789abcdefull;
          for (int j = lo; j < hi; j++) {
            uint64_t term = std::string(ty) == "i32" ? (uint64_t)(int64_t)mem[j] : (uint64_t)(uint32_t)mem[j];
            want = sub ? want - term : want + term;
          }
          auto [got, ran] = run_sum(c, mem, lo, hi, 0x123456789abcdefull);
          tails += ran;
          if (got != want) {
            FAIL_CHECK(ty << (sub ? " sub" : " add") << " from " << lo << " to " << hi << ": " << got << ", want " << want);
            break;
          }
        }
      CHECK(tails > 0);
    }
}
