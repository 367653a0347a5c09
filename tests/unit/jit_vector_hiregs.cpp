// ymm16-31 in 8-lane loops (jit/vector_regs.cpp, Trace::hi_ymm): an AVX-512
// host gives a loop that 16 ymm registers do not hold sixteen more, but only to
// values whose every instruction has an EVEX form (asmjit silently mis-encodes
// a VEX-only one: vblendvps, vptest, vmaskmovps, a compare into a vector ...).
// A loop of 14 uniforms, an interleaved vec2, a plain load, a compare and a
// select, an in-order sum and two stores (one of a high register under the
// masked end's mask), against the same trace compiled scalar on every trip
// count around the vector loop's ends.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "jit/asm.h"
#include "jit/backend.h"
#include "jit/vector.h"
#include "jit/vector_regs.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::counted;
using kiln::jit::test::optimized;
using kiln::jit::test::why_not;

namespace {

// for i in range(r0, r1), over a (f32): u2..u15 = r2..r15 (f32 bits), two
// sums s (r16) and s2 (r17) added in order. `vec2`: (x, y) an interleaved
// vec2 at a[2i] (a group's loads: no store beside them), else x = a[i],
// y = a[2048 + i], and stores of w to a[6144 + i], of v8 to a[8192 + i].
std::string pressure_loop(bool vec2) {
  std::string s = "i = sload r0\n a = arg 0\n off4 = mul i64 i #4\n";
  s += vec2 ? " off8 = mul i64 i #8\n xa = add i64 a off8\n x = load xa f32\n ya0 = add i64 a #4\n ya = add i64 ya0 off8\n y = load ya f32\n"
            : " xa = add i64 a off4\n x = load xa f32\n ya0 = add i64 a #8192\n ya = add i64 ya0 off4\n y = load ya f32\n";
  s += " za0 = add i64 a #16384\n za = add i64 za0 off4\n z = load za f32\n";
  for (int k = 2; k <= 15; k++) s += " u" + std::to_string(k) + " = sload r" + std::to_string(k) + "\n";
  s += R"(
    v1 = fma f32 x u2 u3
    v2 = fma f32 y u4 u5
    v3 = fma f32 z u6 u7
    v4 = mul f32 v1 v2
    v5 = fma f32 v4 u8 v3
    v6 = sub f32 v5 u9
    v7 = fma f32 v6 u10 u11
    v8 = add f32 v7 u12
    v9 = mul f32 v8 u13
    c = lt f32 v9 u14
    w = sel c v9 u15
    s0 = sload r16
    s = add f32 s0 v6
    t0 = sload r17
    s2 = add f32 t0 w
  )";
  if (!vec2)
    s += " oa0 = add i64 a #24576\n oa = add i64 oa0 off4\n store oa w f32\n"
         " pa0 = add i64 a #32768\n pa = add i64 pa0 off4\n store pa v8 f32\n";
  s += R"(
    n = add i32 i #1
    hi = sload r1
    cc = lt i32 n hi
    guard_nz cc -> 99 { r0=n r16=s r17=s2 }
    end r0=n r16=s r17=s2
  )";
  return s;
}

// A plain loop (no sum: its last iterations run in lanes under a mask):
// y (read by the fma only) and v (stored only) may be high, and with
// hi_ymm 2 they go high.
const char* kMaskedEnd = R"(
    off4 = mul i64 i #4
    ya0 = add i64 a #8192
    ya = add i64 ya0 off4
    y = load ya f32
    u2 = sload r2
    u3 = sload r3
    v = fma f32 y u2 u3
    pa0 = add i64 a #32768
    pa = add i64 pa0 off4
    store pa v f32
)";

Compiled compile(const std::string& text, bool lanes, int hi_ymm) {
  static asmjit::JitRuntime rt;
  Trace t = optimized(text);
  t.allow_lanes = lanes;
  t.allow_zmm = lanes && host_has_avx512();
  t.hi_ymm = t.allow_zmm ? (int8_t)hi_ymm : 0;
  Compiled c;
  REQUIRE(compile_trace(t, rt, c, true) == "");
  return c;
}

constexpr int kFloats = 10240;

// Runs c over [lo, hi): the memory after it, then r0 and r16's bits.
std::vector<uint32_t> run(const Compiled& c, int lo, int hi) {
  static float mem[kFloats];
  for (int j = 0; j < 6144; j++) mem[j] = (float)((j * 37) % 101) * 0.25f - 12.0f;
  for (int j = 6144; j < kFloats; j++) mem[j] = -7.0f;
  uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
  TraceEnv env;
  env.args = args;
  std::atomic<bool> stop{false};
  env.stop = &stop;
  uint64_t R[18] = {(uint64_t)lo, (uint64_t)hi};
  for (int k = 2; k <= 15; k++) {
    float u = 0.5f + 0.125f * (float)k * (k % 2 ? -1.0f : 1.0f);
    std::memcpy(&R[k], &u, 4);
  }
  float s0 = 0.1f, t0 = -3.0f;
  std::memcpy(&R[16], &s0, 4);
  std::memcpy(&R[17], &t0, 4);
  CHECK(c.fn(R, &env) == 99);
  std::vector<uint32_t> out(kFloats + 3);
  std::memcpy(out.data(), mem, sizeof mem);
  for (int k = 0; k < 3; k++) out[kFloats + k] = (uint32_t)R[k ? 15 + k : 0];
  return out;
}

}  // namespace

TEST_CASE("jit vector hiregs: an 8-lane loop that needs more than 16 ymm takes ymm16-31 for EVEX-only values") {
  for (bool vec2 : {true, false}) {
  CAPTURE(vec2);
  const std::string text = pressure_loop(vec2);
  REQUIRE(why_not(text) == "lanes");
  Trace t = optimized(text);
  t.allow_lanes = t.allow_zmm = true;
  VecPlan p = plan_vector(t);
  REQUIRE(p.ok);
  CHECK(p.interleaved.size() == (vec2 ? 1u : 0u));
  VecRegs r16;
  CHECK_FALSE(assign(t, p, r16, true));  // (16 do not hold it: the point of the test)
  t.hi_ymm = 1;
  VecRegs r;
  REQUIRE(assign(t, p, r, true));
  // Which values went high: the named ones by their sload or op.
  auto ref_of = [&](IrOp op, int64_t k) {
    for (Ref i = t.loop_ref; i < (Ref)t.ins.size(); i++)
      if (t.ins[i].live && t.ins[i].op == op && t.ins[i].k == k && r.ymm.count(i)) return i;
    return kNoRef;
  };
  int high = 0;
  for (auto& [v, y] : r.ymm) {
    CHECK(y < 32);
    if (y < 16) continue;
    high++;
    // never a compare's, a select's or a fold's step; a sum's only where it
    // keeps program order and its step has no condition (its lane-0 scalar:
    // LaneBody::ordered_run's EVEX forms)
    IrOp op = t.ins[v].op;
    CHECK(op != IrOp::lt);
    CHECK(op != IrOp::sel);
    CHECK(p.kind[v] != VecPlan::reduce);
    for (auto& [slot, add] : p.sums)
      if (v == slot) CHECK((p.folds.at(slot).ordered && p.batched_step(add)));
  }
  CHECK(high > 0);
  // u14 (the compare's) and u15 (the select's) are uniforms of the low ones
  for (int k : {14, 15}) {
    Ref u = ref_of(IrOp::sload, k);
    if (u != kNoRef) CHECK(r.ymm.at(u) < 16);
  }
  for (int y : {r.tail, r.scratch, r.zero}) CHECK(y < 16);
  CHECK(p.sums.size() == 2);
  }
}

TEST_CASE("jit vector hiregs: the loop in ymm16-31 gives the scalar loop's bits on every trip count") {
  if (!host_has_avx512()) return;  // (AVX2 hosts: the loop stays scalar; nothing to compare)
  for (bool vec2 : {true, false}) {
  const std::string text = pressure_loop(vec2);
  Compiled scalar = compile(text, false, 0);
  Compiled no_hi = compile(text, true, 0);
  CHECK(no_hi.lanes == "scalar: too many registers or temporaries");
  for (int hi_ymm : {1, 2}) {  // 2: every value allowed high goes high first
    Compiled c = compile(text, true, hi_ymm);
    REQUIRE(c.lanes == "8 lanes");
    CHECK(c.listing.find("ymm16") != std::string::npos);
    for (int lo : {0, 1, 5, 1000})
      for (int hi = lo; hi <= lo + 40; hi++) {
        if (hi == lo) continue;
        std::vector<uint32_t> want = run(scalar, lo, hi), got = run(c, lo, hi);
        for (int j = 0; j < kFloats + 3; j++)
          if (want[j] != got[j]) {
            FAIL_CHECK("word " << j << ": " << got[j] << ", want " << want[j] << " (vec2 " << vec2 << ", lo " << lo << ", hi " << hi << ", hiymm " << hi_ymm << ")");
            break;
          }
      }
  }
  }
}

TEST_CASE("jit vector hiregs: a masked end loads and stores a high register under k1") {
  if (!host_has_avx512()) return;
  Compiled scalar = compile(counted(kMaskedEnd), false, 0), c = compile(counted(kMaskedEnd), true, 2);
  REQUIRE(c.lanes == "8 lanes");
  CHECK(c.listing.find("vmaskmovps") == std::string::npos);
  CHECK(c.listing.find("vpmovd2m k1") != std::string::npos);
  CHECK(c.listing.find("{k1}{z}") != std::string::npos);  // the load: masked-off lanes zero
  for (int lo : {0, 3, 1000})
    for (int hi = lo + 1; hi <= lo + 40; hi++) {
      std::vector<uint32_t> want = run(scalar, lo, hi), got = run(c, lo, hi);
      for (int j = 0; j < kFloats + 3; j++)
        if (want[j] != got[j]) {
          FAIL_CHECK("word " << j << ": " << got[j] << ", want " << want[j] << " (lo " << lo << ", hi " << hi << ")");
          break;
        }
    }
}

// The net under evex_op's list (jit/asm_check.cpp): the trace's assembler
// refuses what asmjit would mis-encode with a register 16-31, and passes the
// EVEX forms and every low-register use. (Only encoding: nothing here runs.)
TEST_CASE("jit vector hiregs: the assembler refuses VEX-only instructions given registers 16-31") {
  using namespace asmjit;
  CodeHolder code;
  code.init(Environment::host());
  CheckedAssembler a(&code);
  const x86::Ymm lo1 = x86::ymm1, lo2 = x86::ymm2, lo3 = x86::ymm3, hi = x86::ymm16;
  const x86::Mem m = x86::ptr(x86::rax, 32);
  auto refused = [](asmjit::Error e) { return e != kErrorOk; };
  // VEX-only: illegal, or another instruction, with a high register.
  CHECK(refused(a.vblendvps(hi, lo1, lo2, lo3)));
  CHECK(refused(a.vblendvps(lo1, lo2, lo3, hi)));  // (the fourth operand travels apart)
  CHECK(refused(a.vpblendd(lo1, hi, lo2, 0x0f)));
  CHECK(refused(a.vptest(hi, lo1)));
  CHECK(refused(a.vmovmskps(x86::eax, hi)));
  CHECK(refused(a.vmaskmovps(m, lo1, hi)));
  CHECK(refused(a.vperm2f128(hi, lo1, lo2, 0x21)));
  CHECK(refused(a.vroundpd(hi, lo1, 9)));  // asmjit's EVEX twin of these has the wrong W
  CHECK(refused(a.vroundsd(x86::xmm16, x86::xmm1, x86::xmm2, 9)));
  // EVEX forms that write a k register or take a k mask: a vector there is VEX.
  CHECK(refused(a.vpcmpeqd(hi, lo1, lo2)));
  CHECK(refused(a.vcmpps(lo1, hi, lo2, 1)));
  CHECK(refused(a.vcmpss(x86::xmm1, x86::xmm20, x86::xmm2, 1)));
  CHECK(refused(a.vgatherdps(lo1, x86::ptr(x86::rax, hi, 2), lo2)));
  // Their EVEX twins, and EVEX-compatible instructions, go through.
  CHECK(!refused(a.vaddps(hi, lo1, hi)));
  CHECK(!refused(a.vfmadd231ps(hi, x86::ymm17, lo2)));
  CHECK(!refused(a.vpcmpeqd(x86::k1, hi, lo2)));
  CHECK(!refused(a.vcmpps(x86::k2, lo1, hi, 1)));
  CHECK(!refused(a.vinsertf32x4(hi, hi, x86::xmm1, 1)));
  CHECK(!refused(a.vmovups(hi, m)));
  CHECK(!refused(a.k(x86::k1).vmovups(m, hi)));
  CHECK(!refused(a.vpandd(hi, lo1, lo2)));
  // VEX-only, but asmjit emits the EVEX twin: vpxord, vinsertf32x4, vrndscaleps.
  CHECK(!refused(a.vpxor(hi, lo1, lo2)));
  CHECK(!refused(a.vpand(lo1, hi, lo2)));
  CHECK(!refused(a.vinsertf128(hi, hi, x86::xmm1, 1)));
  CHECK(!refused(a.vextractf128(x86::xmm17, lo1, 1)));
  CHECK(!refused(a.vroundps(hi, lo1, 9)));
  CHECK(!refused(a.vxorps(x86::xmm31, x86::xmm31, x86::xmm31)));
  // Low registers are never refused.
  CHECK(!refused(a.vblendvps(lo1, lo2, lo3, lo1)));
  CHECK(!refused(a.vpcmpeqd(lo1, lo2, lo3)));
  CHECK(!refused(a.vgatherdps(lo1, x86::ptr(x86::rax, lo3, 2), lo2)));
  CHECK(!refused(a.vmovmskps(x86::eax, lo1)));
  CHECK(std::string(evex_refusal(x86::Inst::kIdVblendvps, std::array<Operand_, 4>{hi, lo1, lo2, lo3}.data(), 4))
            .find("VEX-only") != std::string::npos);
}
