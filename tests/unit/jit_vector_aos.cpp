// Interleaved stores (jit/vector.h: VecPlan::interleaved_stores): a loop
// that stores every component of a vec2, vec3 or vec4 element in the same
// iteration (x[i] += v[i] * dt over vector fields) stores 8 elements as
// n contiguous vectors, the components shuffled together (asm_interleave.cpp:
// interleave_store). Each compiled loop is compared bit for bit with the
// scalar computation on every trip count from 1 to 40 and at offsets, with
// the elements outside the range untouched; a store of part of an element,
// a guard between the components' stores, and a store an earlier lane's
// load would read stay scalar.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "jit/backend.h"
#include "jit/vector.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::compile_lanes;
using kiln::jit::test::counted;
using kiln::jit::test::optimized;
using kiln::jit::test::why_not;

namespace {

constexpr float kDt = 0.1f;  // #0x3dcccccd
constexpr int kV = 8192;     // v's bytes from x's

// x[i + shift][c] = x[i][c] + v[i][c] * dt for the components `stored` (in
// that order; each loaded, computed and stored before the next), x at a[0..],
// v at a[8192..] (bytes), n components of f32. `mid`: a line put after the
// first component's store.
// `op`: mul, or div (x + v / dt: a loop that divides, 16 lanes on AVX-512 hosts).
std::string aos_step(int n, const std::vector<int>& stored, int shift = 0, const std::string& mid = "",
                     const std::string& op = "mul") {
  std::string s = " off = mul i64 i #" + std::to_string(4 * n) + "\n xa = add i64 a off\n vb = add i64 a #" +
                  std::to_string(kV) + "\n va = add i64 vb off\n";
  bool first = true;
  for (int c : stored) {
    std::string k = std::to_string(c);
    s += " xa" + k + " = add i64 xa #" + std::to_string(4 * c) + "\n x" + k + " = load xa" + k + " f32\n";
    s += " va" + k + " = add i64 va #" + std::to_string(4 * c) + "\n v" + k + " = load va" + k + " f32\n";
    s += " m" + k + " = " + op + " f32 v" + k + " #0x3dcccccd\n y" + k + " = add f32 x" + k + " m" + k + "\n";
    s += " sa" + k + " = add i64 xa #" + std::to_string(4 * c + 4 * n * shift) + "\n store sa" + k + " y" + k + " f32\n";
    if (first) s += mid;
    first = false;
  }
  return counted(s);
}

std::vector<int> all(int n) {
  std::vector<int> v;
  for (int c = 0; c < n; c++) v.push_back(c);
  return v;
}

float g_mem[2 * 2048 + 64];

// Runs c over [lo, hi) and checks every float of x: x + v * dt in the
// range's elements, as it was elsewhere.
void check_step(const Compiled& c, int n, int lo, int hi, bool divide = false) {
  float* x = g_mem;
  float* v = g_mem + kV / 4;
  for (int j = 0; j < kV / 4; j++) x[j] = (float)(j % 89) * 0.37f - 5.0f, v[j] = (float)(j % 31) * 1.7f - 20.0f;
  uint64_t args[1] = {(uint64_t)(uintptr_t)g_mem};
  TraceEnv env;
  env.args = args;
  std::atomic<bool> stop{false};
  env.stop = &stop;
  uint64_t R[3] = {(uint64_t)lo, (uint64_t)hi};
  REQUIRE(c.fn(R, &env) == 99);
  CHECK(R[0] == (uint64_t)hi);
  for (int j = 0; j < kV / 4; j++) {
    int e = j / n;
    float x0 = (float)(j % 89) * 0.37f - 5.0f, v0 = (float)(j % 31) * 1.7f - 20.0f;
    float want = e >= lo && e < hi ? x0 + (divide ? v0 / kDt : v0 * kDt) : x0;
    if (std::memcmp(&x[j], &want, 4) != 0) {
      FAIL_CHECK("x[" << e << "][" << j % n << "] = " << x[j] << ", want " << want << " (vec" << n << ", lo " << lo
                      << ", hi " << hi << ")");
      return;
    }
  }
}

}  // namespace

TEST_CASE("jit vector: vec2/vec3/vec4 fields stored whole are shuffled together and stored contiguously") {
  for (int n : {2, 3, 4}) {
    std::string text = aos_step(n, all(n));
    VecPlan p = plan_vector(optimized(text));
    REQUIRE(p.ok);
    REQUIRE(p.interleaved_stores.size() == 1);
    CHECK(p.interleaved_stores.begin()->second.size() == (size_t)n);
    CHECK(p.interleaved.size() == 2);  // (x and v loaded whole)
    if (!host_has_avx2()) continue;
    for (bool zmm : {false, true}) {  // (a loop that does not divide: 8 lanes either way)
      Compiled c = compile_lanes(text, zmm);
      CHECK(c.lanes == "8 lanes");
      CHECK(c.listing.find("vextract") != std::string::npos);
      CHECK(c.listing.find("vgatherdps") == std::string::npos);
      for (int lo : {0, 1, 5, 100})
        for (int hi = lo + 1; hi <= lo + 40; hi++) check_step(c, n, lo, hi);
      check_step(c, n, 3, 2048 / n - 1);
    }
  }
}

TEST_CASE("jit vector: components stored in another order, and the order their values come in") {
  // z, x, y (vec3) and w, y, z, x (vec4): the group is stored at its last store
  for (auto order : {std::vector<int>{2, 0, 1}, std::vector<int>{3, 1, 2, 0}}) {
    int n = (int)order.size();
    std::string text = aos_step(n, order);
    VecPlan p = plan_vector(optimized(text));
    REQUIRE(p.ok);
    REQUIRE(p.interleaved_stores.size() == 1);
    if (!host_has_avx2()) continue;
    Compiled c = compile_lanes(text);
    CHECK(c.lanes == "8 lanes");
    for (int lo : {0, 3})
      for (int hi = lo + 1; hi <= lo + 30; hi++) check_step(c, n, lo, hi);
  }
}

TEST_CASE("jit vector: a vector element stored in part, or with a guard between its components, stays scalar") {
  // x and y of a vec3: the lanes would have to write z back as it was
  CHECK(why_not(aos_step(3, {0, 1})) == "a store that is not contiguous in the counter");
  CHECK(why_not(aos_step(4, {0, 2, 3})) == "a store that is not contiguous in the counter");
  // an exit between x's store and y's
  std::string guarded = aos_step(2, {0, 1}, 0, " g = lt f32 y0 #0x47000000\n guard_nz g -> 7 { r0=i }\n");
  CHECK(why_not(guarded) == "a guard between the stores of a vector element's components");
  // x[i + 1] = f(x[i]): the next lane's load reads what this one stores
  CHECK(why_not(aos_step(3, all(3), 1)) == "an access that reads or writes what an earlier iteration wrote");
  // x[i - 1] = f(x[i]): every lane reads before any stores, as in the scalar loop
  std::string behind = aos_step(3, all(3), -1);
  CHECK(why_not(behind) == "lanes");
}

TEST_CASE("jit vector: an interleaved store group in ymm16-31 (EVEX forms) gives the same bits") {
  if (!host_has_avx512()) return;
  static asmjit::JitRuntime rt;
  for (int n : {2, 3, 4}) {
    Trace t = optimized(aos_step(n, all(n)));
    t.allow_lanes = true;
    t.allow_zmm = true;
    t.hi_ymm = 2;  // (every value allowed high goes high first: vector_regs.cpp)
    Compiled c;
    REQUIRE(compile_trace(t, rt, c, true) == "");
    CHECK(c.lanes == "8 lanes");
    CHECK(c.listing.find("vextractf32x4") != std::string::npos);
    for (int lo : {0, 1})
      for (int hi = lo + 1; hi <= lo + 40; hi++) check_step(c, n, lo, hi);
  }
}

TEST_CASE("jit vector: a loop that divides stores vector fields whole in 16 lanes, with a masked end") {
  if (!host_has_avx2()) return;
  for (int n : {2, 3, 4}) {
    Compiled c = compile_lanes(aos_step(n, all(n), 0, "", "div"), true);
    if (host_has_avx512()) {
      CHECK(c.lanes == "16 lanes (zmm)");
      CHECK(c.listing.find("vpermi2ps") != std::string::npos);
      CHECK((c.listing.find("vpermt2ps") != std::string::npos) == (n > 2));  // (vec2: one two-table permute)
    } else {
      CHECK(c.lanes == "8 lanes");
    }
    for (int lo : {0, 1, 5, 100})
      for (int hi = lo + 1; hi <= lo + 70; hi++) check_step(c, n, lo, hi, true);
    check_step(c, n, 3, 2048 / n - 1, true);
  }
}
