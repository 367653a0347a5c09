// Vector loops with guards besides the loop test (jit/vector.h): a chunk's
// lanes are tested at once, and a chunk with a failing lane is left to the
// scalar loop, which exits where the scalar trace exits. Against the scalar
// result with the failing element in the first, a middle or the last lane of
// a chunk (of the unrolled pass, the one-copy loop and the masked end), never
// and always, on trip counts around multiples of eight.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "jit/backend.h"
#include "jit/vector.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::compile_lanes;
using kiln::jit::test::optimized;
using kiln::jit::test::split_sum;
using kiln::jit::test::why_not;

namespace {

// for i in range(r0, r1): if x[i] < 0: exit at pc 7 (r0 = i); y[i] = x[i] * 2
// (x f32 at a[0..], y at a[8192..] in bytes); `cmp` the guard's compare.
std::string until_negative(const std::string& guard = "p = lt f32 x #0\n guard_z p -> 7 { r0=i }") {
  return "i = sload r0\n a = arg 0\n off = mul i64 i #4\n xa = add i64 a off\n x = load xa f32\n" + guard +
         "\n v = mul f32 x #0x40000000\n yb = add i64 a #8192\n ya = add i64 yb off\n store ya v f32\n"
         " n = add i32 i #1\n hi = sload r1\n c = lt i32 n hi\n guard_nz c -> 99 { r0=n }\n end r0=n\n";
}

float g_mem[4096];

// Runs the loop over [lo, hi) with x[f] = -1 (f < 0: none) and checks the
// exit, the counter it leaves and every y: written up to the exit, never
// past it (`stored`: the failing element's own store comes before its
// guard). Returns the chunks a guard sent to the scalar loop.
uint64_t run_until(const Compiled& c, int lo, int hi, int f, bool stored = false) {
  for (int j = 0; j < 2048; j++) g_mem[j] = (float)(j % 97) + 0.5f, g_mem[2048 + j] = -7.0f;
  if (f >= 0) g_mem[f] = -1.0f;
  uint64_t args[1] = {(uint64_t)(uintptr_t)g_mem};
  TraceEnv env;
  env.args = args;
  uint64_t R[3] = {(uint64_t)lo, (uint64_t)hi};
  bool exits = f >= lo && f < hi;
  uint32_t pc = c.fn(R, &env);
  CHECK(pc == (exits ? 7u : 99u));
  CHECK((int)R[0] == (exits ? f : hi));
  int end = exits ? f + stored : hi;
  for (int j = 0; j < 2048; j++) {
    float want = j >= lo && j < end ? g_mem[j] * 2.0f : -7.0f;
    if (g_mem[2048 + j] != want) {
      FAIL_CHECK("y[" << j << "] = " << g_mem[2048 + j] << ", want " << want << " (lo " << lo << ", hi " << hi << ", f " << f << ")");
      break;
    }
  }
  return env.guard_chunks;
}

}  // namespace

TEST_CASE("jit vector guards: which guards are tested in lanes") {
  VecPlan p = plan_vector(optimized(until_negative()));
  CHECK(p.ok);
  CHECK(p.guards);
  // the guard after the store: the store waits until the guard passed
  std::string after = until_negative("p = lt f32 x #0");
  after.replace(after.find("store ya v f32"), 14, "store ya v f32\n guard_z p -> 7 { r0=i }");
  CHECK(why_not(after) == "lanes");
  // ... unless a load between them may read what it stores (one array: arg 0)
  std::string between = until_negative("p = lt f32 x #0");
  between.replace(between.find("store ya v f32"), 14, "store ya v f32\n z = load ya f32\n q = lt f32 z #0\n guard_z q -> 7 { r0=i }");
  CHECK(why_not(between) == "a load between a store and a guard that may read what it stores");
  // ... of one allocation: a load within a chunk's bytes of the store may, one 64 bytes on may not
  for (auto [d, why] : {std::pair<int, const char*>{32, "a load between a store and a guard that may read what it stores"},
                        {-32, "a load between a store and a guard that may read what it stores"},
                        {64, "lanes"}, {-8192, "lanes"}}) {
    std::string near = until_negative("p = lt f32 x #0");
    near.replace(near.find("store ya v f32"), 14,
                 "store ya v f32\n zb = " + std::string(d < 0 ? "sub" : "add") + " i64 ya #" + std::to_string(std::abs(d)) + "\n z = load zb f32\n q = lt f32 z #0\n guard_z q -> 7 { r0=i }");
    CHECK_MESSAGE(why_not(near) == why, d);
  }
  // an unsigned bounds test (not hoisted) stays a scalar guard
  CHECK(why_not(until_negative("j = load xa i32\n k = sload r2\n guard_ult j k -> 7 { r0=i }")) == "a guard_ult in the loop");
  // a guard of a value that has no lanes
  CHECK(why_not(until_negative("p = sin f32 x\n q = lt f32 p #0\n guard_z q -> 7 { r0=i }")) == "no lanes for sin");
}

TEST_CASE("jit vector guards: a chunk with a failing lane runs scalar and exits where the scalar loop does") {
  if (!host_has_avx2()) return;
  Compiled c = compile_lanes(until_negative());
  CHECK(c.lanes == "8 lanes");
  CHECK(c.listing.find("vptest") != std::string::npos);
  uint64_t sent = 0;
  // (the peeled iteration is lo; lanes from lo + 1: four copies a pass from
  // 33 iterations on, then the one-copy loop, the masked end and the last
  // scalar iteration)
  for (int lo : {0, 3})
    for (int hi = lo + 1; hi <= lo + 80; hi++) {
      run_until(c, lo, hi, -1);
      for (int f = lo; f < hi + 1; f++) sent += run_until(c, lo, hi, f);
    }
  CHECK(sent > 0);
  // the failing element in the first, a middle and the last lane of each copy of a pass
  for (int f = 1; f < 1 + 32 * 4; f++) run_until(c, 0, 1000, f);
  // a guard that every lane fails
  std::string always = until_negative("p = lt f32 x #0x447a0000\n guard_z p -> 7 { r0=i }");
  Compiled a = compile_lanes(always);
  CHECK(a.lanes == "8 lanes");
  uint64_t args[1] = {(uint64_t)(uintptr_t)g_mem};
  for (int lo : {0, 5}) {
    TraceEnv env;
    env.args = args;
    uint64_t R[3] = {(uint64_t)lo, 900};
    CHECK(a.fn(R, &env) == 7);
    CHECK(R[0] == (uint64_t)lo);
  }
}

TEST_CASE("jit vector guards: an i32 sum's add waits until after the guard, whose exit reads the sum") {
  // s += x[i] + 1 after `if x[i] == 5: exit` (the exit holds s as it was)
  std::string text = R"(
    i = sload r0
    a = arg 0
    s0 = sload r3
    off = mul i64 i #4
    xa = add i64 a off
    x = load xa i32
    x1 = add i32 x #1
    s = add i32 s0 x1
    e = eq i32 x #5
    guard_z e -> 7 { r0=i r3=s0 }
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
    guard_nz c -> 99 { r0=n r3=s }
    end r0=n r3=s
  )";
  VecPlan p = plan_vector(optimized(text));
  REQUIRE(p.ok);
  CHECK(p.sums.size() == 1);
  if (!host_has_avx2()) return;
  Compiled c = compile_lanes(text);
  CHECK(c.lanes == "8 lanes");
  static int32_t mem[2048];
  for (int f : {-1, 1, 8, 9, 17, 31, 32, 40, 100, 101, 107, 999}) {
    for (int j = 0; j < 2048; j++) mem[j] = (j * 7) % 5 == 0 ? 11 : j % 5 == 0 ? 4 : (j * 3) % 4;
    if (f >= 0) mem[f] = 5;
    for (int lo : {0, 1})
      for (int hi : {2, 9, 16, 17, 33, 40, 41, 200, 1000}) {
        uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
        TraceEnv env;
        env.args = args;
        uint64_t R[4] = {(uint64_t)lo, (uint64_t)hi, 0, 13};
        int32_t sum = 13;
        int end = f >= lo && f < hi ? f : hi;
        for (int j = lo; j < end; j++) sum += mem[j] + 1;
        CHECK(c.fn(R, &env) == (end == hi ? 99u : 7u));
        CHECK((int)R[0] == end);
        CHECK((int32_t)R[3] == sum);
      }
  }
}

TEST_CASE("jit vector guards: split f32 partials leave in order when a guard fails after an odd number of copies") {
  // fast_math's 16 partials (two ymm of lanes that the copies alternate);
  // `if x[i] > 900: exit` before the add, with the partials as they were
  std::string guard_exit = "r0=i";
  for (int k = 0; k < 16; k++) guard_exit += " r" + std::to_string(3 + k) + "=p" + std::to_string(k);
  std::string text = split_sum(
      "    off = mul i64 i #4\n    xa = add i64 a off\n    x = load xa f32\n    big = lt f32 #0x44610000 x\n"
      "    guard_z big -> 7 { " + guard_exit + " }\n    s = add f32 p0 x\n");
  VecPlan p = plan_vector(optimized(text));
  REQUIRE(p.ok);
  CHECK(p.partials.size() == 1);
  if (!host_has_avx2()) return;
  Compiled c = compile_lanes(text);
  CHECK(c.lanes == "8 lanes");
  static float mem[2048];
  uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
  for (int f = -1; f < 80; f++)
    for (int hi : {40, 41, 47, 200}) {
      for (int j = 0; j < 2048; j++) mem[j] = std::sin((float)j) * 800.0f;
      if (f >= 0) mem[f] = 950.0f;
      TraceEnv env;
      env.args = args;
      uint64_t R[3 + 16] = {0, (uint64_t)hi};
      float want[16];
      for (int k = 0; k < 16; k++) want[k] = (float)(k + 1) * 0.1f, std::memcpy(&R[3 + k], &want[k], 4);
      int end = f >= 0 && f < hi ? f : hi;
      for (int i = 0; i < end; i++) {
        float s = want[0] + mem[i];
        for (int k = 0; k + 1 < 16; k++) want[k] = want[k + 1];
        want[15] = s;
      }
      CHECK(c.fn(R, &env) == (end == hi ? 99u : 7u));
      CHECK((int)R[0] == end);
      for (int k = 0; k < 16; k++) {
        float got;
        uint32_t b = (uint32_t)R[3 + k];
        std::memcpy(&got, &b, 4);
        if (std::memcmp(&got, &want[k], 4) != 0) {
          FAIL_CHECK("p" << k << " = " << got << ", want " << want[k] << " (f " << f << ", hi " << hi << ")");
          break;
        }
      }
    }
}

TEST_CASE("jit vector guards: a while loop's test at the top of the body is its loop test") {
  // j = r0; while j < r1: if x[j] < 0: exit; y[j] = x[j] * 2; j += 1
  std::string text = R"(
    i = sload r0
    a = arg 0
    hi = sload r1
    t = lt i32 i hi
    guard_nz t -> 99 { }
    off = mul i64 i #4
    xa = add i64 a off
    x = load xa f32
    p = lt f32 x #0
    guard_z p -> 7 { r0=i }
    v = mul f32 x #0x40000000
    yb = add i64 a #8192
    ya = add i64 yb off
    store ya v f32
    n = add i32 i #1
    end r0=n
  )";
  VecPlan p = plan_vector(optimized(text));
  REQUIRE(p.ok);
  CHECK(p.guards);
  if (!host_has_avx2()) return;
  Compiled c = compile_lanes(text);
  CHECK(c.lanes == "8 lanes");
  for (int lo : {0, 3})
    for (int hi = lo + 1; hi <= lo + 45; hi++)
      for (int f : {-1, lo, lo + 1, lo + 8, lo + 9, hi - 1, hi}) run_until(c, lo, hi, f);
}

TEST_CASE("jit vector guards: a store before the guard is held back until the chunk's guards passed") {
  // y[i] = x[i] * 2, then `if x[i] < 0: exit` (y[i] already written, as scalar)
  std::string text = until_negative("p = lt f32 x #0");
  text.replace(text.find("store ya v f32"), 14, "store ya v f32\n guard_z p -> 7 { r0=i }");
  if (!host_has_avx2()) return;
  Compiled c = compile_lanes(text);
  CHECK(c.lanes == "8 lanes");
  uint64_t sent = 0;
  for (int lo : {0, 3})
    for (int hi = lo + 1; hi <= lo + 80; hi++) {
      run_until(c, lo, hi, -1, true);
      for (int f = lo; f < hi + 1; f++) sent += run_until(c, lo, hi, f, true);
    }
  CHECK(sent > 0);
  for (int f = 1; f < 1 + 32 * 4; f++) run_until(c, 0, 1000, f, true);
}
