// Shared by the optimizer tests that write traces as text (jit/parse.h).
#pragma once
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <string>

#include "jit/backend.h"
#include "jit/opt.h"
#include "jit/parse.h"
#include "jit/vector.h"

namespace kiln::jit::test {

// The text parsed, peeled and cleaned by DCE, as the recorder finishes a trace.
inline Trace optimized(const std::string& text) {
  Trace t;
  Emitter e(t);
  ParsedTrace p = parse_trace(text, t, e, 32);  // (registers for a split sum's 16 partials)
  REQUIRE(p.error == "");
  peel(t, e, p.end_regs);
  dce(t);
  return t;
}

// "lanes" when the text's loop runs in lanes (jit/vector.h), else why not.
inline std::string why_not(const std::string& text) {
  VecPlan p = plan_vector(optimized(text));
  return p.ok ? "lanes" : p.why;
}

// The live ops after `loop`, in order.
inline std::string loop_ops(const Trace& t) {
  std::string s;
  for (Ref i = t.loop_ref + 1; i < (Ref)t.ins.size(); i++)
    if (t.ins[i].live && t.ins[i].op != IrOp::kval) s += std::string(kIrOps[(int)t.ins[i].op].name) + " ";
  return s;
}

// y[i] = x[i] * 3 + 1 with x at a[0..], y at a[1024..] (f32): a body for counted().
inline const char* const kAxpy = R"(
    off = mul i64 i #4
    xa = add i64 a off
    x = load xa f32
    m = mul f32 x #0x40400000
    v = add f32 m #0x3f800000
    yb = add i64 a #4096
    ya = add i64 yb off
    store ya v f32
)";

// q = 1 / sqrt(x * x + 1) of x = a[i] (f32): a body that divides (16 lanes
// on AVX-512 hosts), and its value.
inline const char* const kInvNorm = R"(
    off = mul i64 i #4
    xa = add i64 a off
    x = load xa f32
    m = mul f32 x x
    e = add f32 m #0x3f800000
    r = sqrt f32 e
    q = div f32 #0x3f800000 r
)";
inline float inv_norm(float x) {
  float e = x * x + 1.0f;
  return 1.0f / std::sqrt(e);
}

// `body` inside for i in range(r0, r1) (i = sload r0, a = arg 0 the array).
inline std::string counted(const std::string& body) {
  return "i = sload r0\n a = arg 0\n" + body + R"(
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
    guard_nz c -> 99 { r0=n }
    end r0=n
  )";
}

// fast_math's split f32 sum (vm/ir/passes/split_sums.cpp): 16 partials,
// p0..p15 in r3..r18.
constexpr int kNumPartials = 16;

// At the exits: p1..p15 move down one place, s goes to the back.
inline std::string partial_exits() {
  std::string s = "r0=n";
  for (int k = 1; k < kNumPartials; k++) s += " r" + std::to_string(2 + k) + "=p" + std::to_string(k);
  return s + " r" + std::to_string(2 + kNumPartials) + "=s";
}

// The sum in a loop over the array at arg 0: `body` ends in `s = ... p0 ...`,
// and the partials rotate (as check_rotating reads them).
inline std::string split_sum(const std::string& body) {
  std::string head = "\n    i = sload r0\n    a = arg 0\n";
  for (int k = 0; k < kNumPartials; k++) head += "    p" + std::to_string(k) + " = sload r" + std::to_string(3 + k) + "\n";
  return head + body + R"(
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
    guard_nz c -> 99 { )" + partial_exits() + " }\n end " + partial_exits() + "\n";
}

// Runs c (a split f32 sum: partials r3..r18, p0 + term to the back, over
// the array arg 0) over [lo, hi) from partials 0.1..1.6 and compares every
// partial's bits with the rotation done one iteration at a time, the back
// partial step(p0, mem, i) at i. The array holds sin(j) * 1000.
template <class Step>
inline void check_rotating(const Compiled& c, int lo, int hi, Step step, const std::string& what) {
  static float mem[4 * 1100];
  for (int j = 0; j < 4 * 1100; j++) mem[j] = std::sin((float)j) * 1000.0f;
  uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
  TraceEnv env;
  env.args = args;
  std::atomic<bool> stop{false};
  env.stop = &stop;
  uint64_t R[3 + kNumPartials] = {(uint64_t)lo, (uint64_t)hi};
  float want[kNumPartials];
  for (int k = 0; k < kNumPartials; k++) {
    want[k] = (float)(k + 1) * 0.1f;
    uint32_t b;
    std::memcpy(&b, &want[k], 4);
    R[3 + k] = b;
  }
  for (int i = lo; i < hi; i++) {
    float s = step(want[0], mem, i);
    for (int k = 0; k + 1 < kNumPartials; k++) want[k] = want[k + 1];
    want[kNumPartials - 1] = s;
  }
  CHECK(c.fn(R, &env) == 99);
  for (int k = 0; k < kNumPartials; k++) {
    float got;
    uint32_t b = (uint32_t)R[3 + k];
    std::memcpy(&got, &b, 4);
    if (std::memcmp(&got, &want[k], 4) != 0 || (R[3 + k] >> 32) != 0) {
      FAIL_CHECK("p" << k << " = " << got << ", want " << want[k] << " (" << what << ", lo " << lo << ", hi " << hi << ")");
      return;
    }
  }
}

// Runs a compiled counted loop over [lo, hi) with the array at `mem` (arg 0)
// and the sum or fold r3 starting at s0: r3 after it and the masked ends it ran.
inline std::pair<uint64_t, uint64_t> run_sum(const Compiled& c, void* mem, int lo, int hi, uint64_t s0) {
  uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
  TraceEnv env;
  env.args = args;
  uint64_t R[4] = {(uint64_t)lo, (uint64_t)hi, 0, s0};
  CHECK(c.fn(R, &env) == 99);
  return {R[3], env.plain_tails};
}

// Runs a compiled map y[i] = f(x[i]) over [lo, hi), x = input(j) at mem[0..1024),
// y at mem[1024..2048) (64-byte aligned, -7 before the run), and checks every
// element bit for bit: the lanes, the masked ends, nothing written outside
// the range. Returns the trace's counters (masked ends, aligned starts).
template <class F>
TraceEnv run_map(const Compiled& c, int lo, int hi, F f, float (*input)(int)) {
  alignas(64) static float mem[2048];
  for (int j = 0; j < 2048; j++) mem[j] = j < 1024 ? input(j) : -7.0f;
  uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
  TraceEnv env;
  env.args = args;
  std::atomic<bool> stop{false};
  env.stop = &stop;
  uint64_t R[4] = {(uint64_t)lo, (uint64_t)hi, 0, 0};
  REQUIRE(c.fn(R, &env) == 99);
  CHECK(R[0] == (uint64_t)hi);
  for (int j = 0; j < 1024; j++) {
    float want = j >= lo && j < hi ? f(mem[j]) : -7.0f;
    if (std::memcmp(&mem[1024 + j], &want, 4) != 0) {
      FAIL_CHECK("y[" << j << "] = " << mem[1024 + j] << ", want " << want << " (lo " << lo << ", hi " << hi << ")");
      break;
    }
  }
  env.args = nullptr;
  env.stop = nullptr;
  return env;
}

// The text traced, optimized and compiled with vector loops allowed.
// `zmm`: 16-lane loops allowed too (jit/asm_wide.cpp), where the host has AVX-512.
// `regs`: the trace's registers (32: a split sum's 16 partials and more).
// `lanes`: false compiles the same text scalar (a reference for a lane loop).
inline Compiled compile_lanes(const std::string& text, bool zmm = false, size_t regs = 32, bool lanes = true) {
  static asmjit::JitRuntime rt;
  Trace t;
  Emitter e(t);
  ParsedTrace p = parse_trace(text, t, e, regs);
  REQUIRE(p.error == "");
  REQUIRE(peel(t, e, p.end_regs));
  dce(t);
  t.allow_lanes = lanes;
  t.allow_zmm = zmm && host_has_avx512();
  Compiled c;
  REQUIRE(compile_trace(t, rt, c, true) == "");
  return c;
}

}  // namespace kiln::jit::test
