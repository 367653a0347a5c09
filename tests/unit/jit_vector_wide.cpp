// 16-lane vector loops (jit/asm_wide.cpp): on an AVX-512 host a loop that
// divides or takes square roots runs 16 counters a pass in zmm registers,
// and a split f32 sum adds into its 16 rotating partials (one zmm) in the
// scalar loop's order; without AVX-512 (or zmm=0) into two ymm that the
// body's copies alternate. Each compiled loop is compared
// bit for bit with the scalar computation on every trip count around
// multiples of 16 and 32 (two copies of the body a pass). On a host without
// AVX-512 the same loops run 8 lanes and must agree all the same.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "jit/backend.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::check_rotating;
using kiln::jit::test::compile_lanes;
using kiln::jit::test::counted;
using kiln::jit::test::inv_norm;
using kiln::jit::test::kInvNorm;
using kiln::jit::test::split_sum;

namespace {
const char* lanes_wanted() { return host_has_avx512() ? "16 lanes (zmm)" : "8 lanes"; }

template <class Step>
void every_trip_count(const Compiled& c, Step step, const std::string& what) {
  for (int lo : {0, 1, 5})
    for (int hi = lo + 1; hi <= lo + 80; hi++) check_rotating(c, lo, hi, step, what);
  check_rotating(c, 3, 1000, step, what);
}
}  // namespace

TEST_CASE("jit vector wide: a split f32 sum of a division's results keeps its 16 partials' order in one zmm") {
  if (!host_has_avx2()) return;
  SUBCASE("p0 + q") {
    Compiled c = compile_lanes(split_sum(std::string(kInvNorm) + " s = add f32 p0 q\n"), true);
    CHECK(c.lanes == lanes_wanted());
    if (host_has_avx512()) {
      CHECK(c.listing.find("vsqrtps zmm") != std::string::npos);
      CHECK(c.listing.find("vaddps zmm") != std::string::npos);
      // the last iterations but one under mask k1, the partials then rotated
      CHECK(c.listing.find("kmovw k1") != std::string::npos);
      CHECK(c.listing.find("vpermps zmm") != std::string::npos);
    }
    every_trip_count(c, [](float p0, const float* mem, int i) { return p0 + inv_norm(mem[i]); }, "add");
  }
  SUBCASE("p0 - q") {
    Compiled c = compile_lanes(split_sum(std::string(kInvNorm) + " s = sub f32 p0 q\n"), true);
    CHECK(c.lanes == lanes_wanted());
    every_trip_count(c, [](float p0, const float* mem, int i) { return p0 - inv_norm(mem[i]); }, "sub");
  }
}

TEST_CASE("jit vector wide: fma sums and vec2/vec3/vec4 fields read whole in 16 lanes") {
  if (!host_has_avx2() || !host_has_fma3()) return;
  SUBCASE("s = fma(x, q, p0)") {
    Compiled c = compile_lanes(split_sum(std::string(kInvNorm) + " s = fma f32 x q p0\n"), true);
    CHECK(c.lanes == lanes_wanted());
    every_trip_count(c, [](float p0, const float* mem, int i) { return std::fma(mem[i], inv_norm(mem[i]), p0); }, "fma");
  }
  SUBCASE("s = fma(q, 3, p0): a uniform factor") {
    Compiled c = compile_lanes(split_sum(std::string(kInvNorm) + " s = fma f32 q #0x40400000 p0\n"), true);
    CHECK(c.lanes == lanes_wanted());
    every_trip_count(c, [](float p0, const float* mem, int i) { return std::fma(inv_norm(mem[i]), 3.0f, p0); }, "fma k");
  }
  for (int n : {2, 3, 4}) {
    // a vec2/vec3/vec4 field read whole, last component first:
    // s += c0 / (c1 * c1 + ... + 1)
    std::string body = " off = mul i64 i #" + std::to_string(4 * n) + "\n xa = add i64 a off\n";
    for (int k = n - 1; k >= 0; k--)
      body += " a" + std::to_string(k) + " = add i64 xa #" + std::to_string(4 * k) + "\n c" + std::to_string(k) + " = load a" +
              std::to_string(k) + " f32\n";
    body += " d0 = add f32 #0x3f800000 #0x0\n";  // (1.0, folded)
    for (int k = 1; k < n; k++)
      body += " q" + std::to_string(k) + " = mul f32 c" + std::to_string(k) + " c" + std::to_string(k) + "\n d" +
              std::to_string(k) + " = add f32 d" + std::to_string(k - 1) + " q" + std::to_string(k) + "\n";
    body += " q = div f32 c0 d" + std::to_string(n - 1) + "\n s = add f32 p0 q\n";
    Compiled c = compile_lanes(split_sum(body), true);
    CHECK(c.lanes == lanes_wanted());
    CHECK(c.listing.find("vgatherdps") == std::string::npos);
    // (vec3: two blends and a one-table permute a component, asm_wide.cpp)
    if (host_has_avx512()) CHECK(c.listing.find(n == 3 ? "vblendmps" : "vpermi2ps") != std::string::npos);
    if (host_has_avx512()) CHECK(c.listing.find("kmovw k" + std::to_string(1 + n)) != std::string::npos);  // (its masked end's raw vectors)
    every_trip_count(c, [n](float p0, const float* mem, int i) {
      float d = 1.0f;
      for (int k = 1; k < n; k++) d = d + mem[n * i + k] * mem[n * i + k];
      return p0 + mem[n * i] / d;
    }, "vec" + std::to_string(n));
  }
}

TEST_CASE("jit vector wide: a vec4 and a vec3 field read whole in one loop") {
  // A masked end loads the vec4's raw vectors under k2-k5, and k5 is one
  // of the vec3's blend masks (k5-k7): set again before the vec3's loads.
  // s += (c0 + e1) / (c1 * c1 + c2 * c2 + c3 * c3 + e0 * e0 + e2 * e2 + 1),
  // c = a vec4 at a + 16 i, e = a vec3 at a + 12 i + 4.
  if (!host_has_avx2() || !host_has_fma3()) return;
  std::string body = " o4 = mul i64 i #16\n xa = add i64 a o4\n o3 = mul i64 i #12\n xb = add i64 a o3\n";
  for (int k = 0; k < 4; k++)
    body += " a" + std::to_string(k) + " = add i64 xa #" + std::to_string(4 * k) + "\n c" + std::to_string(k) + " = load a" +
            std::to_string(k) + " f32\n";
  for (int k = 0; k < 3; k++)
    body += " b" + std::to_string(k) + " = add i64 xb #" + std::to_string(4 + 4 * k) + "\n e" + std::to_string(k) + " = load b" +
            std::to_string(k) + " f32\n";
  body += R"(
    q1 = mul f32 c1 c1
    q2 = mul f32 c2 c2
    q3 = mul f32 c3 c3
    r0 = mul f32 e0 e0
    r2 = mul f32 e2 e2
    d1 = add f32 q1 q2
    d2 = add f32 d1 q3
    d3 = add f32 d2 r0
    d4 = add f32 d3 r2
    d = add f32 d4 #0x3f800000
    u = add f32 c0 e1
    q = div f32 u d
    s = add f32 p0 q
  )";
  Compiled c = compile_lanes(split_sum(body), true);
  CHECK(c.lanes == lanes_wanted());
  CHECK(c.listing.find("vgatherdps") == std::string::npos);
  if (host_has_avx512()) CHECK(c.listing.find("vblendmps") != std::string::npos);
  every_trip_count(c, [](float p0, const float* mem, int i) {
    const float *v = mem + 4 * i, *w = mem + 3 * i + 1;
    float d = v[1] * v[1] + v[2] * v[2];
    d = d + v[3] * v[3];
    d = d + w[0] * w[0];
    d = d + w[2] * w[2];
    d = d + 1.0f;
    return p0 + (v[0] + w[1]) / d;
  }, "vec4 and vec3");
}

TEST_CASE("jit vector wide: a store and an i32 sum of the counter's bits beside a division") {
  if (!host_has_avx2()) return;
  // y[i] = sqrt(x[i] * x[i]) / 3 with x at a[0..], y at a[1024..] (f32);
  // s += (i & 5) ^ i (i32: the counter in lanes, vpandd/vpxord in zmm)
  std::string body = counted(R"(
    off = mul i64 i #4
    xa = add i64 a off
    x = load xa f32
    m = mul f32 x x
    r = sqrt f32 m
    v = div f32 r #0x40400000
    yb = add i64 a #4096
    ya = add i64 yb off
    store ya v f32
    b = band i32 i #5
    t = bxor i32 b i
    s0 = sload r3
    s = add i32 s0 t
  )");
  body.replace(body.find("{ r0=n }"), 8, "{ r0=n r3=s }");
  body.replace(body.find("end r0=n"), 8, "end r0=n r3=s");
  Compiled c = compile_lanes(body, true);
  CHECK(c.lanes == lanes_wanted());
  if (host_has_avx512()) CHECK(c.listing.find("vpxord zmm") != std::string::npos);
  static float mem[2048];
  for (int lo : {0, 1, 5})
    for (int hi = lo + 1; hi <= lo + 80; hi++) {
      for (int j = 0; j < 2048; j++) mem[j] = j < 1024 ? std::sin((float)j) * 100.0f : -7.0f;
      uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
      TraceEnv env;
      env.args = args;
      std::atomic<bool> stop{false};
      env.stop = &stop;
      uint64_t R[4] = {(uint64_t)lo, (uint64_t)hi, 0, 11};
      REQUIRE(c.fn(R, &env) == 99);
      int32_t sum = 11;
      for (int j = lo; j < hi; j++) sum += (j & 5) ^ j;
      CHECK((int32_t)R[3] == sum);
      for (int j = 0; j < 1024; j++) {
        float x = mem[j], want = j >= lo && j < hi ? std::sqrt(x * x) / 3.0f : -7.0f;
        if (std::memcmp(&mem[1024 + j], &want, 4) != 0) {
          FAIL_CHECK("y[" << j << "] = " << mem[1024 + j] << ", want " << want << " (lo " << lo << ", hi " << hi << ")");
          break;
        }
      }
    }
}

TEST_CASE("jit vector wide: loops that do not divide keep 8 lanes and their masked ends; without allow_zmm (KILN_JIT=zmm=0) a division keeps 8") {
  if (!host_has_avx2()) return;
  std::string axpy = counted(R"(
    off = mul i64 i #4
    xa = add i64 a off
    x = load xa f32
    m = mul f32 x #0x40400000
    yb = add i64 a #4096
    ya = add i64 yb off
    store ya m f32
  )");
  CHECK(compile_lanes(axpy, true).lanes == "8 lanes");
  Compiled c = compile_lanes(split_sum(std::string(kInvNorm) + " s = add f32 p0 q\n"), false);
  CHECK(c.lanes == "8 lanes");
  // the 16 partials in two ymm, alternated copy by copy (and swapped back
  // after a pass of one copy): every trip count
  every_trip_count(c, [](float p0, const float* mem, int i) { return p0 + inv_norm(mem[i]); }, "ymm add");
}

namespace {
// nbody's force loop as the recorder leaves it: p = (r51, r52, r53), pos a
// vec3 field at arg 0, three split f32 sums (ax r3..r18, ay r19..r34, az
// r35..r50) of d * (inv * inv * inv), inv = 1 / sqrt(d . d + 0.01).
std::string nbody_trace() {
  std::string t = "i = sload r0\n a = arg 0\n x = sload r51\n y = sload r52\n z = sload r53\n";
  const char* sum = "abc";
  for (int s = 0; s < 3; s++)
    for (int k = 0; k < 16; k++) t += " p" + std::string(1, sum[s]) + std::to_string(k) + " = sload r" + std::to_string(3 + 16 * s + k) + "\n";
  t += R"(
    off = mul i64 i #12
    xa = add i64 a off
    c0 = load xa f32
    a1 = add i64 xa #4
    c1 = load a1 f32
    a2 = add i64 xa #8
    c2 = load a2 f32
    dx = sub f32 c0 x
    dy = sub f32 c1 y
    dz = sub f32 c2 z
    m = mul f32 dy dy
    m2 = fma f32 dx dx m
    m3 = fma f32 dz dz m2
    r2 = add f32 m3 #0x3c23d70a
    r = sqrt f32 r2
    inv = div f32 #0x3f800000 r
    i2 = mul f32 inv inv
    s = mul f32 i2 inv
    sa = fma f32 dx s pa0
    sb = fma f32 dy s pb0
    sc = fma f32 dz s pc0
    n = add i32 i #1
    hi = sload r1
    c = lt i32 n hi
  )";
  std::string exits = "r0=n";
  for (int s = 0; s < 3; s++) {
    for (int k = 1; k < 16; k++) exits += " r" + std::to_string(2 + 16 * s + k) + "=p" + std::string(1, sum[s]) + std::to_string(k);
    exits += " r" + std::to_string(18 + 16 * s) + "=s" + std::string(1, sum[s]);
  }
  return t + " guard_nz c -> 99 { " + exits + " }\n end " + exits + "\n";
}
}  // namespace

TEST_CASE("jit vector wide: nbody's force loop (a vec3 field, three split sums) gets lanes in zmm and in ymm") {
  // In 8-lane ymm (AVX2 hosts, zmm=0) the three sums' partials take 6 of
  // the 16 registers, the uniforms 5, the lane values 5: the deinterleave's
  // temporary must not hold a register loop-long (it did, and the loop ran
  // scalar: bench/nbody 550 ms against 14 in lanes).
  if (!host_has_avx2() || !host_has_fma3()) return;
  for (bool zmm : {false, true}) {
    Compiled c = compile_lanes(nbody_trace(), zmm, 64);
    CHECK(c.lanes == (zmm && host_has_avx512() ? "16 lanes (zmm)" : "8 lanes"));
    static float mem[3 * 1100];
    for (int j = 0; j < 3 * 1100; j++) mem[j] = std::sin((float)j) * 10.0f;
    const float x = 0.5f, y = -0.25f, z = 1.5f;
    uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
    TraceEnv env;
    env.args = args;
    std::atomic<bool> stop{false};
    env.stop = &stop;
    auto bits = [](float f) {
      uint32_t b;
      std::memcpy(&b, &f, 4);
      return (uint64_t)b;
    };
    auto run = [&](int lo, int hi) {
      uint64_t R[54] = {(uint64_t)lo, (uint64_t)hi};
      float want[3][16];
      for (int s = 0; s < 3; s++)
        for (int k = 0; k < 16; k++) R[3 + 16 * s + k] = bits(want[s][k] = (float)(16 * s + k + 1) * 0.1f);
      R[51] = bits(x), R[52] = bits(y), R[53] = bits(z);
      for (int i = lo; i < hi; i++) {
        float dx = mem[3 * i] - x, dy = mem[3 * i + 1] - y, dz = mem[3 * i + 2] - z;
        float m = dy * dy;
        m = std::fma(dx, dx, m);
        m = std::fma(dz, dz, m);
        float r2 = m + 0.01f;
        float inv = 1.0f / std::sqrt(r2);
        float i2 = inv * inv;
        float s = i2 * inv;
        float d[3] = {dx, dy, dz};
        for (int q = 0; q < 3; q++) {
          float back = std::fma(d[q], s, want[q][0]);
          for (int k = 0; k < 15; k++) want[q][k] = want[q][k + 1];
          want[q][15] = back;
        }
      }
      REQUIRE(c.fn(R, &env) == 99);
      for (int s = 0; s < 3; s++)
        for (int k = 0; k < 16; k++)
          if (R[3 + 16 * s + k] != bits(want[s][k])) {
            FAIL_CHECK("sum " << s << " partial " << k << " (zmm " << zmm << ", lo " << lo << ", hi " << hi << ")");
            return;
          }
    };
    for (int lo : {0, 1, 5})
      for (int hi = lo + 1; hi <= lo + 80; hi++) run(lo, hi);
    run(3, 1000);
  }
}

TEST_CASE("jit vector wide: a store 8 to 15 elements ahead of a load of its array keeps 8 lanes") {
  // a[i + k] = sqrt(a[i]) + 1: 16 lanes would load a[i + 8 .. i + 15] before
  // the lanes below store them (0 < 4k < 64); from k = 16 on they may
  for (int k : {10, 15, 16}) {
    std::string text = counted(" off = mul i64 i #4\n xa = add i64 a off\n x = load xa f32\n r = sqrt f32 x\n"
                               " v = add f32 r #0x3f800000\n ya = add i64 xa #" + std::to_string(4 * k) + "\n store ya v f32\n");
    VecPlan p = plan_vector(kiln::jit::test::optimized(text));
    REQUIRE(p.ok);
    CHECK(p.lanes8 == (k < 16));
    if (!host_has_avx2()) continue;
    Compiled c = compile_lanes(text, true);
    CHECK(c.lanes == (k < 16 ? "8 lanes" : lanes_wanted()));
    static float mem[1200], want[1200];
    for (int lo : {0, 3})
      for (int hi = lo + 1; hi <= lo + 70; hi++) {
        for (int j = 0; j < 1200; j++) mem[j] = want[j] = (float)(j % 37) + 0.5f;
        for (int i = lo; i < hi; i++) want[i + k] = std::sqrt(want[i]) + 1.0f;
        uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
        TraceEnv env;
        env.args = args;
        uint64_t R[3] = {(uint64_t)lo, (uint64_t)hi};
        REQUIRE(c.fn(R, &env) == 99);
        if (std::memcmp(mem, want, sizeof mem) != 0) {
          FAIL_CHECK("k " << k << ", lo " << lo << ", hi " << hi);
          break;
        }
      }
  }
}
