// Carried values that only exits read (jit/vector.h, VecPlan::lasts):
// `last = v` after `if x[i] < 0: exit`, whose exit reads last as the
// iteration before left it. The vector loop stops at the chunk with the
// failing lane and the scalar loop runs it, so the slot must hold the value
// of the iteration before that chunk. Checked against the same trace
// compiled without lanes: every failing position for lengths 1-80 from two
// starts, with the value a lane value (f32, negative i32, u32), the counter
// and an invariant, in for loops and in a while loop.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <cstring>

#include "jit/backend.h"
#include "jit/vector.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::compile_lanes;
using kiln::jit::test::optimized;
using kiln::jit::test::why_not;

namespace {

// for i in range(r0, r1): if x[i] < 0: exit at pc 7; l = <val> (l in r2,
// which the exit reads); x f32 at a[0..], k i32 at a[8192..].
std::string last_after(const std::string& val, const std::string& before = "") {
  return "i = sload r0\n a = arg 0\n l0 = sload r2\n off = mul i64 i #4\n xa = add i64 a off\n x = load xa f32\n"
         " kb = add i64 a #8192\n ka = add i64 kb off\n k = load ka i32\n" + before +
         " p = lt f32 x #0\n guard_z p -> 7 { r0=i r2=l0 }\n" + val +
         "\n n = add i32 i #1\n hi = sload r1\n c = lt i32 n hi\n guard_nz c -> 99 { r0=n r2=l }\n end r0=n r2=l\n";
}

// The same with its test at the top (a while loop): j = r0; while j < r1: ...
std::string while_last(const std::string& val) {
  return "i = sload r0\n a = arg 0\n l0 = sload r2\n hi = sload r1\n t = lt i32 i hi\n guard_nz t -> 99 { r0=i r2=l0 }\n"
         " off = mul i64 i #4\n xa = add i64 a off\n x = load xa f32\n p = lt f32 x #0\n guard_z p -> 7 { r0=i r2=l0 }\n" +
         val + "\n n = add i32 i #1\n end r0=n r2=l\n";
}

Compiled scalar(const std::string& text) {
  static asmjit::JitRuntime rt;
  Trace t;
  Emitter e(t);
  ParsedTrace p = parse_trace(text, t, e, 32);
  REQUIRE(p.error == "");
  REQUIRE(peel(t, e, p.end_regs));
  dce(t);
  Compiled c;
  REQUIRE(compile_trace(t, rt, c) == "");
  return c;
}

alignas(32) uint32_t g_mem[4096];

// Both runs over [lo, hi) with x[f] = -1 (f < 0: none): the same exit and
// registers. Returns the chunks a guard sent to the scalar loop.
uint64_t same(const Compiled& lanes, const Compiled& ref, int lo, int hi, int f) {
  for (int j = 0; j < 2048; j++) {
    float x = (float)(j % 89) + 0.25f;
    std::memcpy(&g_mem[j], &x, 4);
    g_mem[2048 + j] = (uint32_t)(j * 2654435761u) ^ 0x80000000u;  // both signs (and u32s past 2^31)
  }
  if (f >= 0) {
    float m = -1.0f;
    std::memcpy(&g_mem[f], &m, 4);
  }
  uint64_t args[1] = {(uint64_t)(uintptr_t)g_mem};
  uint64_t R[2][3];
  uint32_t pc[2];
  TraceEnv env[2];
  for (int w = 0; w < 2; w++) {
    env[w].args = args;
    R[w][0] = (uint64_t)lo, R[w][1] = (uint64_t)hi, R[w][2] = 0xdead0000beefull;
    pc[w] = (w ? ref : lanes).fn(R[w], &env[w]);
  }
  bool exits = f >= lo && f < hi;
  CHECK(pc[1] == (exits ? 7u : 99u));
  if (pc[0] != pc[1] || R[0][0] != R[1][0] || R[0][2] != R[1][2])
    FAIL_CHECK("pc " << pc[0] << " / " << pc[1] << ", counter " << R[0][0] << " / " << R[1][0] << ", last " << R[0][2]
                     << " / " << R[1][2] << " (lo " << lo << ", hi " << hi << ", f " << f << ")");
  return env[0].guard_chunks;
}

// Every failing position (and none) for lengths 1-80 from two starts, and
// in each lane of each copy of a long loop's passes.
void every_position(const std::string& text) {
  Compiled c = compile_lanes(text), ref = scalar(text);
  REQUIRE(c.lanes == "8 lanes");
  uint64_t sent = 0;
  for (int lo : {0, 3})
    for (int hi = lo + 1; hi <= lo + 80; hi++)
      for (int f = lo - 1; f < hi + 1; f++) sent += same(c, ref, lo, hi, f);
  for (int f = 1; f < 1 + 32 * 4; f++) same(c, ref, 0, 1000, f);
  CHECK(sent > 0);
}

}  // namespace

TEST_CASE("jit vector lasts: which carried values exits read run in lanes") {
  VecPlan p = plan_vector(optimized(last_after(" l = mul f32 x #0x40000000")));
  REQUIRE(p.ok);
  REQUIRE(p.lasts.size() == 1);
  CHECK(p.lasts[0].zext);  // (an f32's bits)
  CHECK(p.kind[p.lasts[0].val] == VecPlan::lane);
  CHECK(why_not(last_after(" l = add i32 i #0")) == "lanes");  // (the counter: folded to i)
  CHECK(why_not(last_after(" l = add i32 k #-5")) == "lanes");
  CHECK(why_not(last_after(" l = add i32 #7 #0")) == "lanes");  // an invariant
  CHECK(why_not(while_last(" l = mul f32 x #0x40000000")) == "lanes");
  // a fold's step (`s += k; last = s; s += 1`), and another carried slot (`l2 = l; l = k`)
  std::string fold = last_after(" s = add i32 s0 k\n l = add i32 s #0\n s2 = add i32 s #1", " s0 = sload r3\n");
  fold.replace(fold.find("end r0=n r2=l"), 13, "end r0=n r2=l r3=s2");
  CHECK(why_not(fold) == "a carried value exits read that is a fold's");
  std::string other = last_after(" l = add i32 k #0", " m0 = sload r3\n");
  other.replace(other.find("{ r0=i r2=l0 }"), 14, "{ r0=i r2=l0 r3=m0 }");
  other.replace(other.find("end r0=n r2=l"), 13, "end r0=n r2=l r3=l0");
  CHECK(why_not(other) == "a carried value exits read that is another's");
  // a value with no lanes
  CHECK(why_not(last_after(" l = sin f32 x")) == "no lanes for sin");
}

TEST_CASE("jit vector lasts: an f32 lane value, as the iteration before the failing chunk left it") {
  if (!host_has_avx2()) return;
  every_position(last_after(" l = mul f32 x #0x40000000"));
}

TEST_CASE("jit vector lasts: i32 and u32 lane values keep their extension") {
  if (!host_has_avx2()) return;
  every_position(last_after(" l = add i32 k #-5"));
  every_position(last_after(" ku = load ka u32\n l = add u32 ku #3"));
}

TEST_CASE("jit vector lasts: the counter and an invariant") {
  if (!host_has_avx2()) return;
  every_position(last_after(" l = add i32 i #0"));
  every_position(last_after(" l = sload r1"));  // (the loop's end)
}

TEST_CASE("jit vector lasts: a while loop's test at the top reads the value too") {
  if (!host_has_avx2()) return;
  every_position(while_last(" l = mul f32 x #0x40000000"));
  every_position(while_last(" l = add i32 i #0"));
}
