// Vector loops (jit/vector.h, jit/asm_vector.cpp): which loop bodies get
// lanes, and compiled vector loops against the scalar result on every trip
// count around a multiple of eight.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "jit/backend.h"
#include "jit/vector.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::check_rotating;
using kiln::jit::test::compile_lanes;
using kiln::jit::test::split_sum;
using kiln::jit::test::counted;
using kiln::jit::test::optimized;
using kiln::jit::test::run_sum;
using kiln::jit::test::why_not;

using kiln::jit::test::kAxpy;

TEST_CASE("jit vector: which loop bodies run in lanes") {
  CHECK(why_not(counted(kAxpy)) == "lanes");
  SUBCASE("an i32 sum is eight partial sums; an f32 sum keeps its order (added lane by lane)") {
    std::string isum = R"(
      off = mul i64 i #4
      xa = add i64 a off
      x = load xa i32
      s0 = sload r3
      s = add i32 s0 x
    )";
    Trace t = optimized("i = sload r0\n a = arg 0\n" + isum + R"(
      n = add i32 i #1
      hi = sload r1
      c = lt i32 n hi
      guard_nz c -> 99 { r0=n r3=s }
      end r0=n r3=s
    )");
    VecPlan p = plan_vector(t);
    CHECK(p.ok);
    CHECK(p.sums.size() == 1);
    std::string fsum = isum;
    fsum.replace(fsum.find("load xa i32"), 11, "load xa f32");
    fsum.replace(fsum.find("add i32 s0"), 10, "add f32 s0");
    CHECK(why_not("i = sload r0\n a = arg 0\n" + fsum + R"(
      n = add i32 i #1
      hi = sload r1
      c = lt i32 n hi
      guard_nz c -> 99 { r0=n r3=s }
      end r0=n r3=s
    )") == "lanes");
  }
  SUBCASE("a store that a later iteration's load reads stays scalar") {
    // y[i + 1] = y[i] + 1: lanes would read y before the previous lane wrote it
    CHECK(why_not(counted(R"(
      off = mul i64 i #4
      ya = add i64 a off
      y = load ya f32
      v = add f32 y #0x3f800000
      yn = add i64 ya #4
      store yn v f32
    )")) == "an access that reads or writes what an earlier iteration wrote");
    // y[i] = y[i + 1] + 1 reads only values no earlier iteration wrote
    CHECK(why_not(counted(R"(
      off = mul i64 i #4
      ya = add i64 a off
      yn = add i64 ya #4
      y = load yn f32
      v = add f32 y #0x3f800000
      store ya v f32
    )")) == "lanes");
  }
  SUBCASE("ndrange rows: q = i / M and r = i % M address a row contiguously in r") {
    // x = a[q + 1, r - 1] or the transposed a[r, q]; then b[q, r] = x
    // (a at a[0..], b at a[16384..], rows of 64 floats)
    auto rows = [](const char* read) {
      return counted(std::string("q = div i32 i #62\n r = raw_mod i32 i #62\n") + read + R"(
        x = load xa f32
        qb = mul i64 q #256
        rb = mul i64 r #4
        o2 = add i64 qb rb
        bb = add i64 a #16384
        ya = add i64 bb o2
        store ya x f32
      )");
    };
    Trace t = optimized(rows(R"(
      q1 = add i32 q #1
      rm = sub i32 r #1
      qo = mul i64 q1 #256
      ro = mul i64 rm #4
      o1 = add i64 qo ro
      xa = add i64 a o1
    )"));
    VecPlan p = plan_vector(t);
    REQUIRE(p.ok);
    CHECK(p.row_m == 62);
    // the transposed read walks down a column: no lanes
    CHECK(why_not(rows(R"(
      qo = mul i64 q #4
      ro = mul i64 r #256
      o1 = add i64 qo ro
      xa = add i64 a o1
    )")) == "a load that is not contiguous in the counter");
  }
  SUBCASE("strided, data-dependent and unknown-alias accesses stay scalar") {
    CHECK(why_not(counted(R"(
      off = mul i64 i #8
      xa = add i64 a off
      x = load xa f32
      store xa x f32
    )")) == "a store that is not contiguous in the counter");
    CHECK(why_not(counted(R"(
      off = mul i64 i #4
      xa = add i64 a off
      x = load xa f32
      store xa x f32
      xb = add i64 xa #4
      y = load xb f32
      p = lt f32 y #0
      guard_nz p -> 7 { }
    )")) == "a load between a store and a guard that may read what it stores");  // (jit_vector_guards.cpp)
    CHECK(why_not(counted(R"(
      b = arg 1
      off = mul i64 i #4
      xa = add i64 a off
      x = load xa f32
      yb = add i64 b off
      store yb x f32
    )")) == "two arrays that may overlap");
  }
}

namespace {

// Runs the compiled axpy loop over [lo, hi) and checks every element: the
// vector loop's lanes, its masked end, the scalar last iteration and
// nothing past the end. Returns the masked ends run.
uint64_t run_axpy(const Compiled& c, int lo, int hi) {
  return kiln::jit::test::run_map(c, lo, hi, [](float x) { return x * 3.0f + 1.0f; }, [](int j) { return (float)j * 0.5f - 100.0f; })
      .plain_tails;
}
}  // namespace

TEST_CASE("jit vector: compiled lanes agree with the scalar loop on every trip count") {
  if (!host_has_avx2()) return;  // (no vector loops on this CPU: nothing to compare)
  Compiled c = compile_lanes(counted(kAxpy));
  CHECK(c.lanes == "8 lanes");
  CHECK(c.listing.find("vmulps") != std::string::npos);
  // (four copies of this body a pass from 33 iterations on: up to 80 crosses
  // the ends of the unrolled loop, of the loop of one copy and of the scalar one)
  for (int n = 1; n <= 80; n++) run_axpy(c, 0, n);
  for (int lo = 1; lo < 9; lo++) run_axpy(c, lo, 100 + lo);
  // After the peeled iteration: 996 iterations are 124 vectors, then 3
  // lanes under a mask and the last scalar; 8 are 7 masked lanes and the
  // scalar one (no full vector); 9 are one vector and the scalar one.
  CHECK(run_axpy(c, 3, 1000) == 1);
  CHECK(run_axpy(c, 1015, 1024) == 1);
  CHECK(run_axpy(c, 0, 10) == 0);
}

TEST_CASE("jit vector: a plain loop's masked end adds nothing past the end to an i32 sum, also from a gather") {
  if (!host_has_avx2()) return;
  // s += x[i].b + 1 over structs {a, b} of i32 (a gathered load, stride 8):
  // masked-off lanes must neither read past the end nor add their 1
  std::string body = counted(R"(
    off = mul i64 i #8
    xa = add i64 a off
    xb = add i64 xa #4
    x = load xb i32
    x1 = add i32 x #1
    s0 = sload r3
    s = add i32 s0 x1
  )");
  body.replace(body.find("{ r0=n }"), 8, "{ r0=n r3=s }");
  body.replace(body.find("end r0=n"), 8, "end r0=n r3=s");
  Compiled c = compile_lanes(body);
  CHECK(c.lanes == "8 lanes");
  CHECK(c.listing.find("vpgatherdd") != std::string::npos);
  static int32_t mem[2048];
  for (int j = 0; j < 2048; j++) mem[j] = j * 7 - 3000;
  uint64_t tails = 0;
  for (int lo : {0, 1, 5})
    for (int hi = lo + 1; hi <= lo + 40; hi++) {
      auto [got, ran] = run_sum(c, mem, lo, hi, 11);
      int32_t sum = 11;
      for (int j = lo; j < hi; j++) sum += mem[2 * j + 1] + 1;
      CHECK((int32_t)got == sum);
      tails += ran;
    }
  CHECK(tails > 0);
}

TEST_CASE("jit vector: ndrange rows end under a mask and the next starts in lanes, also after a row ended exactly") {
  if (!host_has_avx2()) return;
  // y[q, r] = x[q, r] * 3 + 1 over rows of M floats (x at a[0..], y at a[1024..]);
  // rows of 56 also run the unrolled loop (four copies of the body a pass)
  for (int M : {16, 56}) {
    // (kAxpy after its first line: the rest of the body at the offset `off`)
    std::string axpy = kAxpy, text = R"(
      q = div i32 i #M
      r = raw_mod i32 i #M
      qo = mul i64 q #R
      ro = mul i64 r #4
      off = add i64 qo ro
    )" + axpy.substr(axpy.find("xa = "));
    text.replace(text.find("#R"), 2, "#" + std::to_string(4 * M));
    for (size_t k; (k = text.find("#M")) != std::string::npos;) text.replace(k, 2, "#" + std::to_string(M));
    Compiled c = compile_lanes(counted(text));
    CHECK(c.lanes == "8 lanes");
    // Entered at 7 (rows of 16): the peeled iteration runs 7, the vector
    // loop 8..15, which ends the row exactly; at 31 it starts a row; at 3,
    // four positions before a row's end.
    // Ending at a row's end, 5 positions before one, and 3 after one starts.
    const int rows = 1024 / M - 2;
    for (int lo : {7, 0, 3, 31, 11})
      for (int hi : {M * rows, M * rows - 5, M * (rows - 1) + 3}) {
        static float mem[2048];
        for (int j = 0; j < 1024; j++) mem[j] = (float)j * 0.5f - 100.0f, mem[1024 + j] = -7.0f;
        uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
        TraceEnv env;
        env.args = args;
        uint64_t R[4] = {(uint64_t)lo, (uint64_t)hi, 0, 0};
        CHECK(c.fn(R, &env) == 99);
        // Entered once: each row but the last ends under a mask, the next
        // starting in the same vector loop.
        CHECK(env.lane_runs == 1);
        CHECK(env.row_tails == uint64_t((hi - 1) / M - (lo + 1) / M));
        for (int j = 0; j < M * rows; j++)
          if (mem[1024 + j] != (j >= lo && j < hi ? mem[j] * 3.0f + 1.0f : -7.0f)) {
            FAIL_CHECK("y[" << j << "] wrong, entered at " << lo << ", ending at " << hi << ", rows of " << M);
            break;
          }
      }
  }
}

// y[i] = -|x[i]| * 3 / 5 + sqrt(x[i] * x[i]) in f64 (not / 2: a product with 0.5), x at a[0..], y at a[8192..] (bytes).
const char* kF64 = R"(
    off = mul i64 i #8
    xa = add i64 a off
    x = load xa f64
    ax = abs f64 x
    nx = neg f64 ax
    m = mul f64 nx #0x4008000000000000
    d = div f64 m #0x4014000000000000
    sq = mul f64 x x
    r = sqrt f64 sq
    v = add f64 d r
    yb = add i64 a #8192
    ya = add i64 yb off
    store ya v f64
)";

TEST_CASE("jit vector: f64 loops run four lanes at a time") {
  VecPlan p = plan_vector(optimized(counted(kF64)));
  CHECK(p.ok);
  CHECK(p.f64);
  CHECK(p.width() == 4);
  // an f64 sum keeps its order (added lane by lane: vector.h's ordered sums); a mixed f32/f64 body has no lanes of one width
  std::string sum = counted(R"(
    off = mul i64 i #8
    xa = add i64 a off
    x = load xa f64
    s0 = sload r3
    s = add f64 s0 x
  )");
  sum.replace(sum.find("{ r0=n }"), 8, "{ r0=n r3=s }");
  sum.replace(sum.find("end r0=n"), 8, "end r0=n r3=s");
  CHECK(why_not(sum) == "lanes");
  std::string mixed = kF64;
  mixed.replace(mixed.find("store ya v f64"), 14, "store ya v f32");
  CHECK(why_not(counted(mixed)) != "lanes");
  if (!host_has_avx2()) return;
  Compiled c = compile_lanes(counted(kF64));
  CHECK(c.lanes == "4 f64 lanes");
  CHECK(c.listing.find("vdivpd") != std::string::npos);
  static double mem[2048];
  for (int lo : {0, 1, 3}) {
    for (int hi = lo + 1; hi <= lo + 21; hi++) {
      for (int j = 0; j < 1024; j++) mem[j] = (double)j * 0.37 - 100.0, mem[1024 + j] = -7.0;
      uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
      TraceEnv env;
      env.args = args;
      uint64_t R[4] = {(uint64_t)lo, (uint64_t)hi, 0, 0};
      CHECK(c.fn(R, &env) == 99);
      for (int j = 0; j < 1024; j++) {
        double x = mem[j];
        double want = j >= lo && j < hi ? -std::fabs(x) * 3.0 / 5.0 + std::sqrt(x * x) : -7.0;
        if (mem[1024 + j] != want) {
          FAIL_CHECK("y[" << j << "] = " << mem[1024 + j] << ", want " << want << " (lo " << lo << ", hi " << hi << ")");
          break;
        }
      }
    }
  }
}

namespace {
// fast_math's split f32 sum (vm/ir/passes/split_sums.cpp): partials r3..r18
// rotate, p0 + x[i] goes to the back; x at a + stride * i (12: a field of
// vec3, gathered).
std::string rotating_sum(int stride) {
  return split_sum(" off = mul i64 i #" + std::to_string(stride) + "\n xa = add i64 a off\n x = load xa f32\n s = add f32 p0 x\n");
}

void run_rotating(const Compiled& c, int stride, int lo, int hi) {
  check_rotating(c, lo, hi, [&](float p0, const float* mem, int i) { return p0 + mem[i * stride / 4]; },
                 "stride " + std::to_string(stride));
}
}  // namespace

TEST_CASE("jit vector: split f32 sums keep their rotating partials in lanes, also from gathered loads") {
  for (int stride : {4, 12}) {
    VecPlan p = plan_vector(optimized(rotating_sum(stride)));
    CHECK(p.ok);
    REQUIRE(p.partials.size() == 1);
    CHECK(p.partials.begin()->second.size() == 16);
    if (!host_has_avx2()) continue;
    Compiled c = compile_lanes(rotating_sum(stride));
    CHECK(c.lanes == "8 lanes");
    CHECK(c.listing.find(stride == 4 ? "vaddps" : "vgatherdps") != std::string::npos);
    for (int lo : {0, 1, 5})
      for (int hi = lo + 1; hi <= lo + 40; hi++) run_rotating(c, stride, lo, hi);
    run_rotating(c, stride, 3, 1000);
  }
  // fifteen partials are not the rule's sixteen
  std::string fifteen = rotating_sum(4);
  fifteen.replace(fifteen.find("r17=p15 r18=s"), 13, "r17=s");
  fifteen.replace(fifteen.find("r17=p15 r18=s"), 13, "r17=s");
  CHECK(why_not(fifteen) == "a value carried around the loop that is not a sum, max, min, product or bitwise fold");
}

// fast_math's split f64 sum: 8 partials (r3..r10), in two ymm of 4 lanes
// that the body's copies alternate; every partial's bits against the
// rotation done one iteration at a time, on every trip count around
// multiples of 4, 8 and 16 (and the one-copy pass that swaps them back).
TEST_CASE("jit vector: a split f64 sum keeps its 8 rotating partials in two ymm") {
  std::string text = "i = sload r0\n a = arg 0\n";
  std::string exits = "r0=n";
  for (int k = 0; k < 8; k++) text += " p" + std::to_string(k) + " = sload r" + std::to_string(3 + k) + "\n";
  for (int k = 1; k < 8; k++) exits += " r" + std::to_string(2 + k) + "=p" + std::to_string(k);
  exits += " r10=s";
  text += " off = mul i64 i #8\n xa = add i64 a off\n x = load xa f64\n s = sub f64 p0 x\n"
          " n = add i32 i #1\n hi = sload r1\n c = lt i32 n hi\n guard_nz c -> 99 { " + exits + " }\n end " + exits + "\n";
  VecPlan p = plan_vector(optimized(text));
  CHECK(p.ok);
  REQUIRE(p.partials.size() == 1);
  CHECK(p.partials.begin()->second.size() == 8);
  if (!host_has_avx2()) return;
  Compiled c = compile_lanes(text);
  CHECK(c.lanes == "4 f64 lanes");
  static double mem[1100];
  for (int j = 0; j < 1100; j++) mem[j] = std::sin((double)j) * 1e6;
  uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
  auto run = [&](int lo, int hi) {
    TraceEnv env;
    env.args = args;
    std::atomic<bool> stop{false};
    env.stop = &stop;
    uint64_t R[11] = {(uint64_t)lo, (uint64_t)hi};
    double want[8];
    for (int k = 0; k < 8; k++) want[k] = (k + 1) * 0.1, std::memcpy(&R[3 + k], &want[k], 8);
    for (int i = lo; i < hi; i++) {
      double s = want[0] - mem[i];
      for (int k = 0; k < 7; k++) want[k] = want[k + 1];
      want[7] = s;
    }
    CHECK(c.fn(R, &env) == 99);
    for (int k = 0; k < 8; k++)
      if (std::memcmp(&R[3 + k], &want[k], 8) != 0) {
        FAIL_CHECK("p" << k << " wrong (lo " << lo << ", hi " << hi << ")");
        return;
      }
  };
  for (int lo : {0, 1, 5})
    for (int hi = lo + 1; hi <= lo + 50; hi++) run(lo, hi);
  run(3, 1000);
}

TEST_CASE("jit vector: i64 loops run four lanes at a time, with i64 sums") {
  // y[i] = (x[i] ^ 0x5555) - -x[i] + (x[i] & 12), s += x[i]; x at a[0..], y at a[8192..] (bytes)
  std::string body = counted(R"(
    off = mul i64 i #8
    xa = add i64 a off
    x = load xa i64
    h = bxor i64 x #0x5555
    nx = neg i64 x
    d = sub i64 h nx
    m = band i64 x #12
    v = add i64 d m
    yb = add i64 a #8192
    ya = add i64 yb off
    store ya v i64
    s0 = sload r3
    s = add i64 s0 x
  )");
  body.replace(body.find("{ r0=n }"), 8, "{ r0=n r3=s }");
  body.replace(body.find("end r0=n"), 8, "end r0=n r3=s");
  VecPlan p = plan_vector(optimized(body));
  CHECK(p.ok);
  CHECK(p.f64);
  CHECK(p.sums.size() == 1);
  if (!host_has_avx2()) return;
  Compiled c = compile_lanes(body);
  CHECK(c.lanes == "4 f64 lanes");
  CHECK(c.listing.find("vpaddq") != std::string::npos);
  static int64_t mem[2048];
  for (int lo : {0, 1, 3}) {
    for (int hi = lo + 1; hi <= lo + 21; hi++) {
      for (int j = 0; j < 1024; j++) mem[j] = (int64_t)j * 0x123456789ll - (1ll << 40), mem[1024 + j] = -7;
      uint64_t got = run_sum(c, mem, lo, hi, 5).first;
      uint64_t sum = 5;
      for (int j = 0; j < 1024; j++) {
        uint64_t x = (uint64_t)mem[j];
        uint64_t want = j >= lo && j < hi ? (x ^ 0x5555) - (0 - x) + (x & 12) : (uint64_t)-7;
        if (j >= lo && j < hi) sum += x;
        if ((uint64_t)mem[1024 + j] != want) {
          FAIL_CHECK("y[" << j << "] wrong (lo " << lo << ", hi " << hi << ")");
          break;
        }
      }
      CHECK(got == sum);
    }
  }
}

namespace {
// s += x.c0 * 1.5 - x.c1 + ... over a field of n-component 32-bit elements
// (a vec2, vec3 or vec4 field read whole: VecPlan::interleaved), the
// components loaded in the order `order` gives; the sum split into 8
// rotating partials r3..r18 as rotating_sum's.
std::string interleaved_sum(int n, const std::vector<int>& order) {
  std::string s = " off = mul i64 i #" + std::to_string(4 * n) + "\n xa = add i64 a off\n";
  for (int c : order) {
    s += " ca" + std::to_string(c) + " = add i64 xa #" + std::to_string(4 * c) + "\n";
    s += " x" + std::to_string(c) + " = load ca" + std::to_string(c) + " f32\n";
  }
  s += " v0 = mul f32 x0 #0x3fc00000\n";  // x0 * 1.5
  for (int c = 1; c < n; c++)
    s += " v" + std::to_string(c) + " = " + (c % 2 ? "sub" : "add") + " f32 v" + std::to_string(c - 1) + " x" + std::to_string(c) + "\n";
  return split_sum(s + " s = add f32 p0 v" + std::to_string(n - 1) + "\n");
}
}  // namespace

TEST_CASE("jit vector: a vec2/vec3/vec4 field read whole is loaded contiguously and shuffled apart") {
  for (int n : {2, 3, 4}) {
    std::vector<int> order;
    for (int c = n - 1; c >= 0; c--) order.push_back(c);  // z before y before x
    std::string text = interleaved_sum(n, order);
    VecPlan p = plan_vector(optimized(text));
    REQUIRE(p.ok);
    REQUIRE(p.interleaved.size() == 1);
    CHECK(p.interleaved.begin()->second.size() == (size_t)n);
    if (!host_has_avx2()) continue;
    Compiled c = compile_lanes(text);
    CHECK(c.lanes == "8 lanes");
    CHECK(c.listing.find("vshufps") != std::string::npos);
    CHECK(c.listing.find("vgatherdps") == std::string::npos);
    for (int lo : {0, 1, 5, 1000})
      for (int hi = lo + 1; hi <= lo + 40; hi++)
        check_rotating(c, lo, hi, [&](float p0, const float* mem, int i) {
          float v = mem[n * i] * 1.5f;
          for (int k = 1; k < n; k++) v = k % 2 ? v - mem[n * i + k] : v + mem[n * i + k];
          return p0 + v;
        }, "vec" + std::to_string(n));
  }
  // two components of a vec3 are gathered: the whole element is not read
  std::string part = interleaved_sum(2, {0, 1});
  part.replace(part.find("mul i64 i #8"), 12, "mul i64 i #12");
  VecPlan p = plan_vector(optimized(part));
  CHECK(p.ok);
  CHECK(p.interleaved.empty());
}
