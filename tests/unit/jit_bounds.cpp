// Bounds-guard hoisting (jit/bounds.h) on traces written as text: which
// bound checks leave the loop, and which must stay in it.
#include <doctest/doctest.h>

#include "jit/opt.h"
#include "jit/parse.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;

using kiln::jit::test::optimized;

namespace {
// A body in `for i in range(r0, r1)` (i = sload r0): appends the counter's
// step and the loop test as the recorder writes them for a range-for.
Trace counted(const std::string& body) {
  return optimized(body + R"(
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
    guard_nz c -> 99 { r0=n }
    end r0=n
  )");
}
int guards_in_loop(const Trace& t) {
  int n = 0;
  for (Ref i = t.loop_ref + 1; i < (Ref)t.ins.size(); i++)
    n += t.ins[i].live && t.ins[i].op == IrOp::guard_ult;
  return n;
}
}  // namespace

TEST_CASE("jit bounds: ndrange's div/mod indices, shifted by one, leave the loop") {
  // for i in range(r0, r1): row = i / 62 + 1; col = i % 62 + 1; reads
  // a[row-1, col], a[row+1, col], a[row, col-1], a[row, col+1] of a 64x64 field
  Trace t = counted(R"(
    i = sload r0
    cm = raw_mod i32 i #62
    col = add i32 cm #1
    rd = div i32 i #62
    row = add i32 rd #1
    rm = sub i32 row #1
    guard_ult rm #64 -> 10 { }
    guard_ult col #64 -> 11 { }
    rp = add i32 row #1
    guard_ult rp #64 -> 18 { }
    cl = sub i32 col #1
    guard_ult row #64 -> 27 { }
    guard_ult cl #64 -> 28 { }
    cp = add i32 col #1
    guard_ult cp #64 -> 37 { }
  )");
  REQUIRE(t.loop_ref > 0);
  CHECK(guards_in_loop(t) == 0);
  // Checked once before the loop, at the loop head's state: the rows'
  // extremes (the column checks fold: i % 62 + 1 +- 1 is in [0, 64) for i >= 0).
  int hoisted = 0;
  for (Ref r = 0; r < t.loop_ref; r++)
    if (t.ins[r].live && t.ins[r].op == IrOp::guard_ult && t.snaps[t.ins[r].snap].pc == t.head_pc) hoisted++;
  CHECK(hoisted >= 2);
  CHECK(hoisted <= 8);
}

TEST_CASE("jit bounds: an index read from memory keeps its check in the loop") {
  Trace t = counted(R"(
    i = sload r0
    b = base 0
    off = mul i64 i #4
    a = add i64 b off
    x = load a i32
    guard_ult x #100 -> 5 { }
    store a #0 i32
  )");
  CHECK(guards_in_loop(t) == 1);
}

TEST_CASE("jit bounds: non-monotone or unbounded indices keep their checks") {
  SUBCASE("i * i") {
    Trace t = counted(R"(
      i = sload r0
      sq = mul i32 i i
      guard_ult sq #100 -> 5 { }
  )");
    CHECK(guards_in_loop(t) == 1);
  }
  SUBCASE("a counter stepping by two (its next value may wrap past the end)") {
    Trace t = optimized(R"(
      i = sload r0
      guard_ult i #100 -> 5 { }
      n = add i32 i #2
      hi = sload r1
      c = lt i32 n hi
      guard_nz c -> 9 { r0=n }
      end r0=n
    )");
    CHECK(guards_in_loop(t) == 1);
  }
  SUBCASE("a check the index's range always breaks stays where it fails") {
    Trace t = counted(R"(
      i = sload r0
      m = mod i32 i #200
      guard_ult m #100 -> 5 { }
  )");
    CHECK(guards_in_loop(t) == 1);
  }
}

TEST_CASE("jit bounds: a while loop's test covers only the checks after it") {
  // while i < r1: x[i-1]...; (test) ... x[i]; i += 1
  Trace t = optimized(R"(
    i = sload r0
    im = sub i32 i #1
    guard_ult im #100 -> 3 { }
    hi = sload r1
    c = lt i32 i hi
    guard_nz c -> 6 { }
    guard_ult i #100 -> 7 { }
    n = add i32 i #1
    end r0=n
  )");
  CHECK(guards_in_loop(t) == 1);  // the one before the test stays
}

TEST_CASE("jit bounds: C's remainder needs a non-negative dividend, checked once") {
  Trace t = counted(R"(
    i = sload r0
    off = sload r2
    x = add i32 i off
    r = raw_mod i32 x #16
    guard_ult r #16 -> 5 { }
  )");
  CHECK(guards_in_loop(t) == 0);
  bool lo_check = false;  // (i + off) >= 0 at the loop's first index
  for (Ref r = 0; r < t.loop_ref; r++)
    lo_check |= t.ins[r].live && t.ins[r].op == IrOp::guard_ult && t.is_const(t.ins[r].b) &&
                t.ins[r].k == 0 && t.ins[t.ins[r].b].k == int64_t(1) << 62;
  CHECK(lo_check);
}
