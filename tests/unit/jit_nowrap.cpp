// The i32 `x + 1`s that a guard `x < E` keeps from wrapping (jit/asm_int.cpp,
// adds_without_wrap): which adds the JIT runs in 64 bits without the
// movsxd, which keep it, and counters run up to INT32_MAX.
#include <doctest/doctest.h>

#include <atomic>
#include <climits>
#include <string>

#include "jit/asm.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;

using kiln::jit::test::optimized;

namespace {
// The adds after `loop` that adds_without_wrap marks, and the i32 adds there.
std::pair<int, int> body_adds(const std::string& text) {
  Trace t = optimized(text);
  REQUIRE(t.loop_ref > 0);
  RefFlags nw = adds_without_wrap(t, false);
  int marked = 0, adds = 0;
  for (Ref i = t.loop_ref + 1; i < (Ref)t.ins.size(); i++) {
    if (!t.ins[i].live || t.ins[i].op != IrOp::add || t.ins[i].t != bc::CT::i32) continue;
    adds++;
    marked += nw[i] != 0;
  }
  return {marked, adds};
}
// for i in range(r0, r1) carrying y = y * 3 + i in r2 (scalar: not a fold)
const char* kCounted = R"(
    i = sload r0
    y = sload r2
    m = mul i64 y #3
    w = add i64 m i
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
    guard_nz c -> 99 { r0=n r2=w }
    end r0=n r2=w
)";
// while i `test` r1: i += 1 (the test at the top of the body)
std::string while_loop(const std::string& test) {
  return "i = sload r0\n hi = sload r1\n c = " + test + " i hi\n guard_nz c -> 9 { }\n n = add i32 i #1\n end r0=n\n";
}
}  // namespace

TEST_CASE("jit nowrap: a range-for's and a while loop's counter add in 64 bits") {
  CHECK(body_adds(kCounted) == std::pair{1, 1});
  CHECK(body_adds(while_loop("lt i32")) == std::pair{1, 1});
}

TEST_CASE("jit nowrap: adds that may wrap keep the 32-bit add") {
  SUBCASE("x + 1 with no test on x (the counter beside it is tested)") {
    CHECK(body_adds(R"(
      i = sload r0
      x = sload r2
      x1 = add i32 x #1
      n = add i32 i #1
      hi = sload r1
      c = lt i32 n hi
      guard_nz c -> 99 { r0=n r2=x1 }
      end r0=n r2=x1
    )") == std::pair{1, 2});
  }
  // for i in range(r0, r1) with the step and the loop test given
  auto range_for = [](const std::string& step, const std::string& test) {
    return "i = sload r0\n n = add i32 i " + step + "\n hi = sload r1\n c = " + test +
           " n hi\n guard_nz c -> 99 { r0=n }\n end r0=n\n";
  };
  CHECK(body_adds(range_for("#1", "lt i32")) == std::pair{1, 1});
  // a step of two: i < E leaves i + 2 free to wrap
  CHECK(body_adds(range_for("#2", "lt i32")) == std::pair{0, 1});
  // an i64 compare: E may be past INT32_MAX
  CHECK(body_adds(range_for("#1", "lt i64")) == std::pair{0, 1});
  // le, not lt: i <= INT32_MAX holds for every i
  CHECK(body_adds(while_loop("le i32")) == std::pair{0, 1});
}

TEST_CASE("jit nowrap: counters up to INT32_MAX and negative ones run as the interpreter's") {
  Compiled c = kiln::jit::test::compile_lanes(kCounted);
  for (auto [lo, hi] : {std::pair{INT_MAX - 7, INT_MAX}, std::pair{INT_MIN, INT_MIN + 9}, std::pair{-5, 4}}) {
    TraceEnv env;
    std::atomic<bool> stop{false};
    env.stop = &stop;
    uint64_t R[3] = {(uint64_t)(int64_t)lo, (uint64_t)(int64_t)hi, 1};
    int64_t y = 1;
    for (int64_t i = lo; i < hi; i++) y = (int64_t)((uint64_t)y * 3 + (uint64_t)i);
    CHECK(c.fn(R, &env) == 99);
    CHECK(R[0] == (uint64_t)(int64_t)hi);  // sign-extended, as an i32 lives in a register
    CHECK(R[2] == (uint64_t)y);
  }
}
