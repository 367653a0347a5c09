// The vector loop's aligned start (jit/asm_lane_head.cpp): on AVX-512 hosts
// the iterations before the stored array's next vector boundary run as one
// masked body, then whole aligned vectors. Every trip count from every
// start gives the scalar loop's results, nothing is written outside the
// range (below the start either: another chunk's elements), and the start
// is taken only where it pays and means what it runs.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <cstring>

#include "jit/backend.h"
#include "tests/unit/jit_text.h"

using namespace kiln::jit;
using namespace kiln::jit::test;

namespace {

// The aligned starts run by the map over [lo, hi) (run_map checks every element).
template <class F>
uint64_t run_map(const Compiled& c, int lo, int hi, F f) {
  return kiln::jit::test::run_map(c, lo, hi, f, [](int j) { return std::sin((float)j) * 100.0f; }).lane_heads;
}

}  // namespace

TEST_CASE("jit lane head: an 8-lane loop starts aligned on every start and trip count") {
  if (!host_has_avx512()) return;  // (k masks: AVX-512 hosts only)
  Compiled c = compile_lanes(counted(kAxpy), true);
  CHECK(c.lanes == "8 lanes");
  CHECK(c.listing.find("shlx") != std::string::npos);
  auto f = [](float x) { return x * 3.0f + 1.0f; };
  uint64_t heads = 0;
  for (int lo = 0; lo < 17; lo++)
    for (int hi = lo + 1; hi <= lo + 90; hi++) heads += run_map(c, lo, hi, f);
  CHECK(heads > 0);
  // After the peeled iteration at 0 the loop is one element past a
  // boundary: the start runs 7 lanes. At 7, the vector from 8 is aligned:
  // none. A short loop (fewer than 4 * 8 + 1 iterations after the peeled
  // one) gains nothing from it: none.
  CHECK(run_map(c, 0, 1000, f) == 1);
  CHECK(run_map(c, 7, 1000, f) == 0);
  CHECK(run_map(c, 0, 33, f) == 0);
  CHECK(run_map(c, 0, 34, f) == 1);
  CHECK(run_map(c, 3, 1000, f) == 1);
}

TEST_CASE("jit lane head: a 16-lane loop (it divides) starts aligned too") {
  if (!host_has_avx512()) return;
  std::string body = counted(R"(
    off = mul i64 i #4
    xa = add i64 a off
    x = load xa f32
    v = div f32 x #0x40400000
    yb = add i64 a #4096
    ya = add i64 yb off
    store ya v f32
  )");
  Compiled c = compile_lanes(body, true);
  CHECK(c.lanes == "16 lanes (zmm)");
  auto f = [](float x) { return x / 3.0f; };
  uint64_t heads = 0;
  for (int lo = 0; lo < 33; lo++)
    for (int hi = lo + 1; hi <= lo + 120; hi++) heads += run_map(c, lo, hi, f);
  CHECK(heads > 0);
  CHECK(run_map(c, 0, 1000, f) == 1);
  CHECK(run_map(c, 15, 1000, f) == 0);
}

TEST_CASE("jit lane head: not where the masked body would mean other iterations, nor without allow_zmm") {
  if (!host_has_avx512()) return;
  // an i32 sum beside the store: no aligned start
  std::string body = counted(std::string(kAxpy) + R"(
    t = load xa i32
    s0 = sload r3
    s = add i32 s0 t
  )");
  body.replace(body.find("{ r0=n }"), 8, "{ r0=n r3=s }");
  body.replace(body.find("end r0=n"), 8, "end r0=n r3=s");
  CHECK(compile_lanes(body, true).listing.find("shlx") == std::string::npos);
  CHECK(compile_lanes(counted(kAxpy), false).listing.find("shlx") == std::string::npos);
}
