// A 16-lane loop that leaves from its lanes (jit/asm_vector_frame.cpp:
// VectorLoop::lane_exit): where the loop test's exit names only what the
// lanes hold (a split sum's rotated partials, the counter's next value,
// values from before the loop), the masked end runs the last iteration
// too and that exit's snapshot goes to the frame from the zmm registers;
// no scalar iteration follows (nbody's inner loop paid ~200 instructions
// an outer pair of i for it). Every trip count around multiples of 16 and
// 32 (two copies a pass), bit for bit against the rotation done one
// iteration at a time; an exit that writes the partials out of lane order
// and an invariant; Ctrl-C's poll (the counter short of the end) taking
// the scalar loop's way out; and an exit that names a body value other
// than the sum's, which keeps the scalar iteration.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "jit/backend.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::compile_lanes;
using kiln::jit::test::inv_norm;
using kiln::jit::test::kInvNorm;
using kiln::jit::test::kNumPartials;

namespace {

// s = p0 + 1 / sqrt(x * x + 1), x = a[i] (f32): a division, so 16 lanes.
std::string body(const std::string& exits) {
  std::string t = "\n    i = sload r0\n    a = arg 0\n";
  for (int k = 0; k < kNumPartials; k++) t += "    p" + std::to_string(k) + " = sload r" + std::to_string(3 + k) + "\n";
  t += std::string("    w = sload r20\n") + kInvNorm + R"(
    s = add f32 p0 q
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
  )";
  std::string back = "r0=n";
  for (int k = 1; k < kNumPartials; k++) back += " r" + std::to_string(2 + k) + "=p" + std::to_string(k);
  back += " r" + std::to_string(2 + kNumPartials) + "=s";
  return t + " guard_nz c -> 99 { " + exits + " }\n end " + back + "\n";
}

// The exit's partials: register 3 + k gets partial order[k] (the rotation's
// p1..p15, s), plus r0 = n and r19 = w (an invariant) when asked.
std::string exits(const int* order, bool counter, bool invariant) {
  std::string s = counter ? "r0=n" : "";
  for (int k = 0; k < kNumPartials; k++) {
    int j = order[k];
    s += " r" + std::to_string(3 + k) + "=" + (j + 1 < kNumPartials ? "p" + std::to_string(j + 1) : std::string("s"));
  }
  if (invariant) s += " r19=w";
  return s;
}

const int kInOrder[kNumPartials] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

uint64_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

struct Run {
  uint32_t pc;
  uint64_t R[21];
  TraceEnv env;
};

// Runs c over [lo, hi) from partials 0.1..1.6 (w = 2.5 in r20, r19 = 0).
Run run(const Compiled& c, int lo, int hi, bool stop_now = false) {
  static float mem[1100];
  for (int j = 0; j < 1100; j++) mem[j] = std::sin((float)j) * 1000.0f;
  static uint64_t args[1];
  args[0] = (uint64_t)(uintptr_t)mem;
  static std::atomic<bool> stop;
  stop = stop_now;
  Run out{};
  out.env.args = args;
  out.env.stop = &stop;
  out.R[0] = (uint64_t)lo, out.R[1] = (uint64_t)hi;
  for (int k = 0; k < kNumPartials; k++) out.R[3 + k] = bits((float)(k + 1) * 0.1f);
  out.R[20] = bits(2.5f);
  out.pc = c.fn(out.R, &out.env);
  return out;
}

// The partials after iterations [lo, to): want[k] = partial k at the head.
void rotated(int lo, int to, float* want) {
  static float mem[1100];
  for (int j = 0; j < 1100; j++) mem[j] = std::sin((float)j) * 1000.0f;
  for (int k = 0; k < kNumPartials; k++) want[k] = (float)(k + 1) * 0.1f;
  for (int i = lo; i < to; i++) {
    float s = want[0] + inv_norm(mem[i]);
    for (int k = 0; k + 1 < kNumPartials; k++) want[k] = want[k + 1];
    want[kNumPartials - 1] = s;
  }
}

}  // namespace

TEST_CASE("jit lane exit: a split sum's loop leaves through its test from the lanes, every trip count") {
  if (!host_has_avx2()) return;
  int shuffled[kNumPartials];
  for (int k = 0; k < kNumPartials; k++) shuffled[k] = (k * 5 + 3) % kNumPartials;
  for (bool lane_order : {true, false})
    for (bool invariant : {false, true}) {
      const int* order = lane_order ? kInOrder : shuffled;
      Compiled c = compile_lanes(body(exits(order, true, invariant)), true);
      CHECK(c.lanes == (host_has_avx512() ? "16 lanes (zmm)" : "8 lanes"));
      if (host_has_avx512()) CHECK(c.listing.find("vpmovzxdq zmm31") != std::string::npos);
      for (int lo : {0, 1, 5})
        for (int hi = lo + 1; hi <= lo + 80; hi++) {
          Run r = run(c, lo, hi);
          REQUIRE(r.pc == 99);
          float want[kNumPartials];
          rotated(lo, hi, want);
          CHECK(r.R[0] == (uint64_t)hi);
          CHECK(r.R[19] == (invariant ? bits(2.5f) : 0));
          for (int k = 0; k < kNumPartials; k++)
            if (r.R[3 + k] != bits(want[order[k]])) {
              FAIL_CHECK("r" << 3 + k << " (lane order " << lane_order << ", lo " << lo << ", hi " << hi << ")");
              break;
            }
          // (the vector loop runs from the second iteration, the peeled
          // first; it leaves from its lanes whenever it ran)
          if (host_has_avx512()) CHECK(r.env.lane_exits == r.env.lane_runs);
        }
      if (host_has_avx512()) CHECK(run(c, 3, 1000).env.lane_exits == 1);
    }
}

TEST_CASE("jit lane exit: Ctrl-C's poll leaves the counter short of the end, and the scalar loop leaves as before") {
  if (!host_has_avx512()) return;
  Compiled c = compile_lanes(body(exits(kInOrder, true, false)), true);
  Run r = run(c, 0, 1000, true);
  CHECK(r.pc != 99);  // (the loop's head: the interpreter raises there)
  CHECK(r.env.lane_exits == 0);
  int at = (int)r.R[0];
  CHECK(at < 1000);
  float want[kNumPartials];
  rotated(0, at, want);
  for (int k = 0; k < kNumPartials; k++) CHECK(r.R[3 + k] == bits(want[k]));
}

TEST_CASE("jit lane exit: an exit that names a body value besides the sum keeps the scalar last iteration") {
  if (!host_has_avx512()) return;
  // r19 = q, the last iteration's term: no lane holds it at the end
  std::string text = body(exits(kInOrder, true, false));
  text.replace(text.find(" }\n end"), 2, " r19=q }");
  Compiled c = compile_lanes(text, true);
  CHECK(c.lanes == "16 lanes (zmm)");
  Run r = run(c, 1, 100);
  REQUIRE(r.pc == 99);
  CHECK(r.env.lane_exits == 0);
  CHECK(r.env.lane_runs == 1);
  static float mem[1100];
  for (int j = 0; j < 1100; j++) mem[j] = std::sin((float)j) * 1000.0f;
  CHECK(r.R[19] == bits(inv_norm(mem[99])));
  float want[kNumPartials];
  rotated(1, 100, want);
  for (int k = 0; k < kNumPartials; k++) CHECK(r.R[3 + k] == bits(want[k]));
}
