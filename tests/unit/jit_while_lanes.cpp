// A jammed while loop's copies in vector lanes (jit/while_lanes.h): the
// loop trace of K copies of an escape-time step, each with its own value,
// counter and live flag, ended by the or of the live flags, written as text
// the way the recorder gives it. Compiled with lanes and without, both must
// leave every register as the other does: copies that end at once, at
// different counts, never (the count's limit), with NaNs and infinities,
// with a live flag that starts 0, and with one that is no sign-extended
// 32-bit value (the lane loop must not run).
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "jit/backend.h"
#include "jit/while_lanes.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
namespace {

constexpr size_t kRegs = 40;  // (8 copies' 4 registers and the limit)

Trace optimized(const std::string& text) {
  Trace t;
  Emitter e(t);
  ParsedTrace p = parse_trace(text, t, e, kRegs);
  REQUIRE(p.error == "");
  peel(t, e, p.end_regs);
  dce(t);
  return t;
}

// K copies; copy c: x in r(4c), n in r(4c+1), live in r(4c+2), c's own
// constant in r(4c+3); the limit in r(4K). f64: the values are doubles.
// `guards`: each copy's count test is a guard of its own (every lane must
// pass), not a select.
std::string copies(int K, bool f64, bool guards = false) {
  const std::string ft = f64 ? "f64" : "f32";
  const std::string four = f64 ? "#0x4010000000000000" : "#0x40800000";
  const std::string half = f64 ? "#0x3fe0000000000000" : "#0x3f000000";
  std::string s, any, end, regs;
  s += "lim = sload r" + std::to_string(4 * K) + "\n";
  for (int c = 0; c < K; c++) {
    std::string k = std::to_string(c), r = std::to_string(4 * c);
    auto R = [&](int j) { return "r" + std::to_string(4 * c + j); };
    s += "x" + k + " = sload " + R(0) + "\n n" + k + " = sload " + R(1) + "\n l" + k + " = sload " + R(2) + "\n c" + k +
         " = sload " + R(3) + "\n";
    s += " t" + k + " = lt i32 n" + k + " lim\n";
    if (guards) s += " guard_nz t" + k + " -> 98 { }\n";
    s += " xx" + k + " = mul " + ft + " x" + k + " x" + k + "\n";
    s += " e" + k + " = lt " + ft + " xx" + k + " " + four + "\n";
    s += guards ? " b" + k + " = add i32 e" + k + " #0\n" : " b" + k + " = sel t" + k + " e" + k + " t" + k + "\n";
    s += " m" + k + " = sel b" + k + " l" + k + " #0\n";
    s += " h" + k + " = mul " + ft + " xx" + k + " " + half + "\n";
    s += " xn" + k + " = sub " + ft + " h" + k + " c" + k + "\n";
    s += " nn" + k + " = add i32 n" + k + " #1\n";
    s += " y" + k + " = sel m" + k + " xn" + k + " x" + k + "\n";
    s += " p" + k + " = sel m" + k + " nn" + k + " n" + k + "\n";
    any = c ? "o" + k : "m0";
    if (c) s += " o" + k + " = bor i32 " + (c == 1 ? std::string("m0") : "o" + std::to_string(c - 1)) + " m" + k + "\n";
    end += " " + R(0) + "=y" + k + " " + R(1) + "=p" + k + " " + R(2) + "=m" + k;
  }
  s += " guard_nz " + any + " -> 99 {" + end + " }\n";
  s += " end" + end + "\n";
  return s;
}

// The text compiled with the lane loop (`lanes`) or without.
Compiled compile(const std::string& text, bool lanes) { return test::compile_lanes(text, false, kRegs, lanes); }

uint64_t bits(double v, bool f64) {
  if (f64) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  }
  float f = (float)v;
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// Both compiled loops from the same registers: the same exit and registers.
void same(const Compiled& lanes, const Compiled& ref, int K, bool f64, const double* x0, const double* cs,
          const int64_t* live, int lim) {
  uint64_t R[2][40];
  uint32_t pc[2];
  for (int w = 0; w < 2; w++) {
    TraceEnv env;
    for (int c = 0; c < K; c++) {
      R[w][4 * c] = bits(x0[c], f64);
      R[w][4 * c + 1] = (uint64_t)(int64_t)(c % 3);  // counts start apart
      R[w][4 * c + 2] = (uint64_t)live[c];
      R[w][4 * c + 3] = bits(cs[c], f64);
    }
    R[w][4 * K] = (uint64_t)(int64_t)lim;
    pc[w] = (w ? ref : lanes).fn(R[w], &env);
  }
  CHECK(pc[0] == pc[1]);
  for (int r = 0; r < 4 * K; r++)
    if (R[0][r] != R[1][r]) FAIL_CHECK("r" << r << ": " << R[0][r] << " / " << R[1][r] << " (lim " << lim << ")");
}

void every_case(int K, bool f64, bool guards = false) {
  std::string text = copies(K, f64, guards);
  WhilePlan p = plan_while_lanes(optimized(text));
  INFO(p.why);
  REQUIRE(p.ok);
  CHECK(p.K == K);
  CHECK(p.es == (f64 ? 8 : 4));
  Compiled c = compile(text, true), ref = compile(text, false);
  CHECK(c.lanes == std::to_string(K) + " copies in lanes");
  double x0[8], cs[8];
  int64_t live[8];
  for (int lim : {0, 1, 2, 5, 40, 300})
    for (int v = 0; v < 12; v++) {
      for (int c = 0; c < K; c++) {
        x0[c] = 0.1 * (c + v) - 0.4;
        cs[c] = v == 3 ? NAN : v == 4 && c == 1 ? INFINITY : 2.0 - 0.37 * c - 0.05 * v;  // some escape, some never
        live[c] = v == 5 && c == 2 ? 0 : 1;
        if (v == 6 && c == 0) live[c] = 0x100000001ll;  // (not a sign-extended i32: no lanes, the same values)
        if (v == 7) live[c] = c == K - 1 ? -1 : 1;
      }
      same(c, ref, K, f64, x0, cs, live, lim);
    }
}

}  // namespace

TEST_CASE("jit while lanes: which traces run their copies in lanes") {
  CHECK(plan_while_lanes(optimized(copies(4, false))).ok);
  CHECK(plan_while_lanes(optimized(copies(8, false))).ok);
  CHECK(plan_while_lanes(optimized(copies(4, true))).ok);
  CHECK(plan_while_lanes(optimized(copies(3, false))).why == "not 4 or 8 copies");
  CHECK(plan_while_lanes(optimized(copies(8, true))).why == "f32 and f64 in one loop, or 8 copies of f64");
  std::string odd = copies(4, false);  // copy 2 computes another op
  odd.replace(odd.find("h2 = mul f32"), 12, "h2 = add f32");
  CHECK(plan_while_lanes(optimized(odd)).why == "copies of different ops");
}

TEST_CASE("jit while lanes: 4 and 8 f32 copies leave the registers the scalar loop leaves") {
  if (!host_has_avx2()) return;
  every_case(4, false);
  every_case(8, false);
}

TEST_CASE("jit while lanes: 4 f64 copies (an i32 in the low half of a 64-bit lane)") {
  if (!host_has_avx2()) return;
  every_case(4, true);
}

TEST_CASE("jit while lanes: a guard in every copy passes only where every lane passes") {
  if (!host_has_avx2()) return;
  every_case(4, false, true);
  every_case(8, false, true);
}
