// Which vector loops prefetch (jit/asm_vector.cpp, vector_loop): a stencil's
// stream, read at several displacements a few rows apart, is prefetched
// ahead; on AMD hosts (prefetch_plain_streams) a stream read once a pass
// (saxpy's, a sum's) is left to the hardware prefetcher, as are two fields
// that share a root megabytes apart; a loop that divides prefetches nothing.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <string>

#include "jit/backend.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::counted;
using kiln::jit::test::optimized;

namespace {

std::string listing_of(const std::string& body) {
  static asmjit::JitRuntime rt;
  Trace t = optimized(counted(body));
  t.allow_lanes = true;
  Compiled c;
  REQUIRE(compile_trace(t, rt, c, true) == "");
  REQUIRE(c.lanes == "8 lanes");
  return c.listing;
}

bool prefetches(const std::string& body) { return listing_of(body).find("prefetch") != std::string::npos; }

// b[i] = (a[i + j0] + a[i + j1]) op a[i + j2]: the three reads of a are one
// stream (root a, indexed by i) at displacements 4 j0, 4 j1 and 4 j2; b lies
// 16 KiB past a.
std::string stencil(int j0, int j1, int j2, const char* op = "add") {
  std::string s = " off4 = mul i64 i #4\n";
  int k = 0;
  for (int j : {j0, j1, j2}) {
    std::string n = std::to_string(k++);
    s += " i" + n + " = add i32 i #" + std::to_string(j) + "\n o" + n + " = mul i64 i" + n + " #4\n p" + n +
         " = add i64 a o" + n + "\n x" + n + " = load p" + n + " f32\n";
  }
  s += " s = add f32 x0 x1\n v = " + std::string(op) + " f32 s x2\n";
  s += " b0 = add i64 a #16384\n b = add i64 b0 off4\n store b v f32\n";
  return s;
}

}  // namespace

TEST_CASE("jit vector prefetch: a stencil's stream is prefetched, a stream read once a pass not on AMD hosts") {
  if (!host_has_avx2()) return;  // (no vector loops on this CPU)
  const bool plain = prefetch_plain_streams();
  // saxpy: y[i] = 2 x[i] + y[i], x and y each read once a pass.
  CHECK(plain == prefetches(R"(
    off4 = mul i64 i #4
    xa = add i64 a off4
    x = load xa f32
    ya0 = add i64 a #8192
    ya = add i64 ya0 off4
    y = load ya f32
    t = add f32 x x
    v = add f32 t y
    store ya v f32
  )"));
  // a 1-D three-point stencil: its stream keeps its prefetches
  std::string three = listing_of(stencil(0, 1, 2));
  CHECK(three.find("prefetcht0") != std::string::npos);
  // reads 64 KiB apart: rows of a grid, still a stencil
  CHECK(prefetches(stencil(0, 16384, 32768)));
  // reads 4 MiB apart: two fields, not a stencil
  CHECK(plain == prefetches(stencil(0, 1 << 20, 1 << 21)));
  // a stencil that divides waits on its divider, not on memory
  CHECK_FALSE(prefetches(stencil(0, 1, 2, "div")));
}
