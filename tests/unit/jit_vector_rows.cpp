// Row roots (jit/vector.h): a struct-for's blocks as one loop over their
// cells (vm/bytecode/flat_rows.h) addresses cell r of row q from the address
// row q of the cell table holds. The vector loop loads that address as it
// enters each row and runs the rows one after another without leaving.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "jit/backend.h"
#include "jit/vector.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::compile_lanes;
using kiln::jit::test::counted;
using kiln::jit::test::optimized;

namespace {

// In for i in range(r0, r1) (counted): row q = i / M of the table at arg 1
// (rows of three int64s, the block's address last), cell r = i % M of that
// block (cells `scale` bytes apart): v = v * 3 + 1 (i32).
std::string row_sweep(int M, int scale = 4) {
  std::string text = counted(R"(
    tab = arg 1
    q = div i32 i #M
    r = raw_mod i32 i #M
    qo = mul i64 q #24
    ra = add i64 tab qo
    rb = add i64 ra #16
    row = load rb i64
    ro = mul i64 r #S
    ea = add i64 row ro
    v = load ea i32
    w = mul i32 v #3
    w1 = add i32 w #1
    store ea w1 i32
  )");
  for (size_t k; (k = text.find("#M")) != std::string::npos;) text.replace(k, 2, "#" + std::to_string(M));
  text.replace(text.find("#S"), 2, "#" + std::to_string(scale));
  return text;
}

}  // namespace

TEST_CASE("jit vector rows: a row's address loaded from the table is the row's root") {
  CHECK(plan_vector(optimized(row_sweep(64))).ok);
  CHECK(plan_vector(optimized(row_sweep(64))).row_roots.size() == 1);
  // cells 8 bytes apart (a block of two fields) are not contiguous lanes
  CHECK(plan_vector(optimized(row_sweep(64, 8))).why == "a store that is not contiguous in the counter");
}

TEST_CASE("jit vector rows: blocks anywhere, visited in the table's order, in one vector loop") {
  if (!host_has_avx2()) return;
  for (int M : {16, 20, 64}) {
    Compiled c = compile_lanes(row_sweep(M));
    CHECK(c.lanes == "8 lanes");
    // 12 blocks of M cells spread over the memory in reverse order, a gap
    // after each; the table lists them.
    const int rows = 12, stride = M + 13;
    std::vector<int32_t> mem((size_t)rows * stride), want;
    std::vector<int64_t> table;
    for (int q = 0; q < rows; q++) {
      int32_t* block = mem.data() + (size_t)(rows - 1 - q) * stride;
      table.insert(table.end(), {q, -q, (int64_t)(uintptr_t)block});
    }
    for (int lo : {0, 1, 5, M - 1, M + 3})
      for (int hi : {rows * M, rows * M - 1, (rows - 1) * M + 7, 3 * M}) {
        for (size_t k = 0; k < mem.size(); k++) mem[k] = (int32_t)k - 500;
        want = mem;
        for (int i = lo; i < hi; i++) {
          int32_t& v = want[(size_t)(rows - 1 - i / M) * stride + i % M];
          v = v * 3 + 1;
        }
        uint64_t args[2] = {0, (uint64_t)(uintptr_t)table.data()};
        TraceEnv env;
        env.args = args;
        uint64_t R[4] = {(uint64_t)lo, (uint64_t)hi, 0, 0};
        CHECK(c.fn(R, &env) == 99);
        CHECK(env.lane_runs == 1);
        CHECK(mem == want);
      }
  }
}
