// A split sum's pairwise combine of 16 partials in lanes (jit/asm_combine.cpp):
// the trace's tree of 15 f32 adds over 16 consecutive frame registers, as
// split_sums writes it after a loop, runs as two zmm loads and a packed add
// a level. Its bits must be those of the IR's adds in their operand order
// (vaddss a, b: of two NaNs, a's), on partials whose magnitudes differ by up
// to 2^60 (any other pairing rounds differently) and on NaNs of different
// payloads and signs, with either operand order at each level; and the
// scalar code's where no NaN is involved (it may swap a commuting add's
// operands to spare a move: asm_ops.cpp). A tree whose level mixes the
// orders, or whose leaf something else reads too, stays scalar.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "jit/backend.h"
#include "jit/recorder.h"

using namespace kiln;
using namespace kiln::jit;

namespace {

// sloads of r3..r18, the pairwise tree (level l's adds take their upper
// operand first where bit l - 1 of `upper` is set; `mixed` flips the first
// add of level 1 alone), its root to r2 at a link that returns pc 77;
// `leaf_out` also writes p5 to r19; `call` runs an inner trace (calltr)
// after the loads, which may write the frame they read.
uint32_t no_trace(uint64_t*, const TraceEnv*) { return 0; }
Trace tree(uint32_t upper, bool mixed = false, bool leaf_out = false, bool call = false) {
  Trace t;
  auto push = [&](Ins in) {
    t.ins.push_back(in);
    return (Ref)t.ins.size() - 1;
  };
  std::vector<Ref> v;
  for (int k = 0; k < 16; k++) v.push_back(push(Ins{.op = IrOp::sload, .t = bc::CT::f32, .k = 3 + k}));
  Ref leaf5 = v[5];
  if (call) push(Ins{.op = IrOp::calltr, .k = (int64_t)(uintptr_t)&no_trace, .snap = 1});
  for (int level = 1; v.size() > 1; level++) {
    std::vector<Ref> half;
    for (size_t j = 0; j < v.size(); j += 2) {
      bool up = (upper >> (level - 1) & 1) != (mixed && level == 1 && j == 0);
      half.push_back(push(Ins{.op = IrOp::add, .t = bc::CT::f32, .a = up ? v[j + 1] : v[j], .b = up ? v[j] : v[j + 1]}));
    }
    v = half;
  }
  Snapshot s;
  s.pc = 77;
  s.regs.push_back({2, v[0]});
  if (leaf_out) s.regs.push_back({19, leaf5});
  t.snaps.push_back(s);
  t.snaps.push_back(Snapshot{.pc = 78});
  push(Ins{.op = IrOp::link, .k = 0, .snap = 0});
  return t;
}

Compiled compile(Trace t, bool zmm) {
  static asmjit::JitRuntime rt;
  t.allow_zmm = zmm && host_has_avx512();
  Compiled c;
  REQUIRE(compile_trace(t, rt, c, true) == "");
  return c;
}

// The tree's value with each add's operands in the IR's order.
uint32_t want_of(const Trace& t, const uint32_t* partials) {
  std::vector<float> v(t.ins.size());
  for (size_t i = 0; i < t.ins.size(); i++) {
    const Ins& in = t.ins[i];
    if (in.op == IrOp::sload) std::memcpy(&v[i], &partials[in.k - 3], 4);
    if (in.op != IrOp::add) continue;
    float x = v[(size_t)in.a], y = v[(size_t)in.b], r;
    asm("vaddss %2, %1, %0" : "=x"(r) : "x"(x), "x"(y));  // r = x + y, x's NaN
    v[i] = r;
  }
  uint32_t b;
  std::memcpy(&b, &v[(size_t)t.snaps[0].regs[0].second], 4);
  return b;
}

uint64_t run(const Compiled& c, const uint32_t* partials) {
  uint64_t R[20] = {};
  for (int k = 0; k < 16; k++) R[3 + k] = partials[k];
  TraceEnv env;
  REQUIRE(c.fn(R, &env) == 77);
  CHECK((R[2] >> 32) == 0);
  return R[2];
}

}  // namespace

TEST_CASE("jit combine: 16 partials added pairwise in lanes give the scalar adds' bits, either operand order a level") {
  if (!host_has_avx512()) return;
  std::mt19937 rng(1234);
  for (uint32_t upper = 0; upper < 16; upper++) {
    Trace t = tree(upper);
    Compiled lanes = compile(t, true), scalar = compile(t, false);
    CHECK(lanes.listing.find("vshuff32x4") != std::string::npos);
    CHECK(scalar.listing.find("vshuff32x4") == std::string::npos);
    for (int round = 0; round < 300; round++) {
      uint32_t p[16];
      for (int k = 0; k < 16; k++) {
        float f = std::ldexp((float)(rng() % 2000) - 1000.0f, (int)(rng() % 61) - 30);
        std::memcpy(&p[k], &f, 4);
      }
      if (round % 3 == 1) {  // two quiet NaNs of different payloads, anywhere
        p[rng() % 16] = 0x7fc00000u | (rng() & 0x3fffff);
        p[rng() % 16] = 0xffc00000u | (rng() & 0x3fffff);
      }
      if (round % 3 == 2) p[rng() % 16] = 0x7f800000u, p[rng() % 16] = 0xff800000u;  // inf - inf
      uint64_t want = want_of(t, p), got = run(lanes, p);
      if (round % 3 != 1) CHECK(run(scalar, p) == want);
      if (got != want) {
        FAIL_CHECK("upper " << upper << " round " << round << ": " << std::hex << got << " want " << want);
        break;
      }
    }
  }
}

TEST_CASE("jit combine: a level of mixed operand orders, a leaf read elsewhere, or an inner trace's run after the loads stays scalar") {
  if (!host_has_avx512()) return;
  uint32_t p[16];
  for (int k = 0; k < 16; k++) {
    float f = std::ldexp(1.0f + k, 4 * k - 30);
    std::memcpy(&p[k], &f, 4);
  }
  for (bool mixed : {true, false}) {
    Trace t = tree(5, mixed, !mixed);
    Compiled lanes = compile(t, true), scalar = compile(t, false);
    CHECK(lanes.listing.find("vshuff32x4") == std::string::npos);
    CHECK(run(lanes, p) == run(scalar, p));
  }
  CHECK(compile(tree(5, false, false, true), true).listing.find("vshuff32x4") == std::string::npos);
}
