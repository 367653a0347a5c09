// Planes of rows (jit/vector.h: VecPlan::row_p): a 3-D ndrange's body splits
// the counter as r = i % M, j = (i / M) % P and h = i / (M * P) (or (i / M)
// / P), and addresses h * plane + j * row + 4 * r. The vector loop runs row
// after row and plane after plane without leaving, each root moving by its
// plane step every P rows; rows and planes here have gaps, which it must
// leave alone.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "jit/backend.h"
#include "jit/vector.h"
#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;
using kiln::jit::test::compile_lanes;
using kiln::jit::test::counted;
using kiln::jit::test::optimized;

namespace {

// Row and plane strides in floats (M cells a row, P rows a plane, gaps after each).
int row_of(int M) { return M + 5; }
int plane_of(int M, int P) { return P * row_of(M) + 7; }

// y[h, j, r] = x[h, j, r] * 3 + 1 with x at arg 0 and y `off` floats further;
// `h_of_q`: h as (i / M) / P, else i / (M * P).
std::string plane_map(int M, int P, int off, bool h_of_q) {
  std::string text = counted(std::string(R"(
    r = raw_mod i32 i #M
    q = div i32 i #M
    j = raw_mod i32 q #P
  )") + (h_of_q ? "    h = div i32 q #P\n" : "    h = div i32 i #MP\n") + R"(
    ho = mul i64 h #SH
    jo = mul i64 j #SJ
    ro = mul i64 r #4
    a1 = add i64 a ho
    a2 = add i64 a1 jo
    xa = add i64 a2 ro
    x = load xa f32
    m = mul f32 x #0x40400000
    v = add f32 m #0x3f800000
    ya = add i64 xa #OFF
    store ya v f32
  )");
  auto put = [&](const std::string& key, int64_t v) {
    for (size_t k; (k = text.find(key)) != std::string::npos;) text.replace(k, key.size(), "#" + std::to_string(v));
  };
  put("#MP", (int64_t)M * P);  // (before #M)
  put("#M", M);
  put("#P", P);
  put("#SH", 4 * (int64_t)plane_of(M, P));
  put("#SJ", 4 * (int64_t)row_of(M));
  put("#OFF", 4 * (int64_t)off);
  return text;
}

// Runs c over several [lo, hi) of an H x P x M range (H planes) against `ref`, which
// does iteration i to a copy of the memory (mem: `size` floats).
template <class Ref_>
void run_planes(const Compiled& c, int M, int P, size_t size, Ref_ ref, int H = 4) {
  const int n = H * P * M;
  std::vector<float> mem(size), want;
  for (int lo : {0, 1, 5, M - 1, M + 3, P * M - 2})
    for (int hi : {n, n - 1, n - M + 7, (P + 1) * M + 2}) {
      if (hi <= lo) continue;
      for (size_t k = 0; k < mem.size(); k++) mem[k] = (float)((int)k % 101) - 50.0f;
      want = mem;
      for (int i = lo; i < hi; i++) ref(want, i);
      uint64_t args[1] = {(uint64_t)(uintptr_t)mem.data()};
      std::atomic<bool> stop{false};
      TraceEnv env;
      env.args = args;
      env.stop = &stop;
      uint64_t R[4] = {(uint64_t)lo, (uint64_t)hi, 0, 0};
      REQUIRE(c.fn(R, &env) == 99);
      CHECK(R[0] == (uint64_t)hi);
      if (hi - lo > 2 * M) CHECK(env.lane_runs == 1);  // (one entry: no re-entry at a row or plane)
      CHECK(std::memcmp(mem.data(), want.data(), mem.size() * 4) == 0);
    }
}

// Where [h, j, r] lies (floats from the array's start).
size_t cell(int M, int P, int i) {
  return (size_t)(i / (M * P)) * plane_of(M, P) + (size_t)(i / M % P) * row_of(M) + i % M;
}

}  // namespace

TEST_CASE("jit vector planes: a 3-D split of the counter addresses linearly in q and the plane") {
  for (bool h_of_q : {false, true}) {
    VecPlan p = plan_vector(optimized(plane_map(20, 3, 4096, h_of_q)));
    CHECK(p.ok);
    CHECK(p.row_m == 20);
    CHECK(p.row_p == 3);
  }
  // a plane of another size than the row split's P: no linear form
  std::string other = plane_map(20, 3, 4096, false);
  other.replace(other.find("#60"), 3, "#80");
  CHECK(plan_vector(optimized(other)).why == "a store that is not contiguous in the counter");
}

TEST_CASE("jit vector planes: rows and planes in one vector loop, gaps untouched") {
  if (!host_has_avx2()) return;
  for (bool zmm : {false, true})
    for (bool h_of_q : {false, true})
      for (auto [M, P] : {std::pair{20, 3}, std::pair{16, 2}, std::pair{37, 5}}) {
        const int off = 4 * plane_of(M, P) + 16;
        Compiled c = compile_lanes(plane_map(M, P, off, h_of_q), zmm);
        CHECK(c.lanes == "8 lanes");
        run_planes(c, M, P, 2 * (size_t)off, [&](std::vector<float>& w, int i) {
          size_t at = cell(M, P, i);
          w[at + off] = w[at] * 3.0f + 1.0f;
        });
      }
}

// The plane index h and the row's j = q % P as values (boundary tests,
// coordinates in the arithmetic): uniform over a row, as q is, each
// broadcast as the loop enters the row. y[h, j, r] = (j == 0 ? 1 : x * 3 +
// float(h * 1000 + j * 10 + r)), the test as Python's `or` of compares
// leaves it (a sel on an lnot), and z[h, j, r] = float(h * 1000 + j),
// a store of a conversion's f32 lanes (main: "no lanes for div"; "no lanes
// for lnot"; and the conv's lanes were i32: "a store of another lane type").
TEST_CASE("jit vector planes: the plane index and q % P as lane values") {
  auto text = [](int M, int P, int off, bool h_of_q) {
    std::string t = plane_map(M, P, off, h_of_q);
    std::string tail = R"(
    h1 = mul i32 h #1000
    j1 = mul i32 j #10
    c1 = add i32 h1 j1
    c2 = add i32 c1 r
    f = conv c2 i64_f32
    w = add f32 m f
    e = eq i32 j #0
    l = lnot i32 e
    s = sel l w #0x3f800000
    store ya s f32
    c3 = add i32 h1 j
    g = conv c3 i64_f32
    za = add i64 ya #OFF
    store za g f32
)";
    t.replace(t.find("    store ya v f32"), std::string("    store ya v f32").size(), tail);
    t.replace(t.find("#OFF"), 4, "#" + std::to_string(4 * (int64_t)off));
    return t;
  };
  for (bool h_of_q : {false, true}) {
    VecPlan p = plan_vector(optimized(text(20, 3, 4096, h_of_q)));
    CHECK(p.ok);
    CHECK(p.why == "");
    CHECK(p.row_p == 3);
  }
  if (!host_has_avx2()) return;
  for (bool zmm : {false, true})
    for (bool h_of_q : {false, true})
      for (auto [M, P] : {std::pair{20, 3}, std::pair{16, 2}, std::pair{37, 5}}) {
        const int off = 4 * plane_of(M, P) + 16;
        Compiled c = compile_lanes(text(M, P, off, h_of_q), zmm);
        CHECK(c.lanes == "8 lanes");
        run_planes(c, M, P, 3 * (size_t)off, [&](std::vector<float>& w, int i) {
          const size_t at = cell(M, P, i);
          const int h = i / (M * P), j = i / M % P, r = i % M;
          w[at + off] = j == 0 ? 1.0f : w[at] * 3.0f + (float)(h * 1000 + j * 10 + r);
          w[at + 2 * off] = (float)(h * 1000 + j);
        });
      }
}

// Volumes of planes (a 4-D ndrange, VecPlan::row_v): the counter split as
// r = i % M, j = (i / M) % P, h = (i / (M * P)) % V and g = i / (M * P * V),
// each level's quotient written three ways (of the counter, of q, of the
// level below), the address g * volume + h * plane + j * row + 4 * r, gaps
// after each; y = x * 3 + float(g * 100 + h * 10 + j): the indices as values.
// main: h and g have no linear form ("a store that is not contiguous in
// the counter").
namespace {
int vol_of(int M, int P, int V) { return V * plane_of(M, P) + 11; }

std::string vol_map(int M, int P, int V, int off, int form) {
  const char* g_of[] = {"g = div i32 i #MPV", "g = div i32 q #PV", "g = div i32 pp #V"};
  std::string text = counted(std::string(R"(
    r = raw_mod i32 i #M
    q = div i32 i #M
    j = raw_mod i32 q #P
    pp = div i32 )") + (form == 1 ? "q #P" : "i #MP") + R"(
    h = raw_mod i32 pp #V
    )" + g_of[form] + R"(
    go = mul i64 g #SG
    ho = mul i64 h #SH
    jo = mul i64 j #SJ
    ro = mul i64 r #4
    a1 = add i64 a go
    a2 = add i64 a1 ho
    a3 = add i64 a2 jo
    xa = add i64 a3 ro
    x = load xa f32
    m = mul f32 x #0x40400000
    g1 = mul i32 g #100
    h1 = mul i32 h #10
    c1 = add i32 g1 h1
    c2 = add i32 c1 j
    f = conv c2 i64_f32
    v = add f32 m f
    ya = add i64 xa #OFF
    store ya v f32
  )");
  auto put = [&](const std::string& key, int64_t v) {
    for (size_t k; (k = text.find(key + " ")) != std::string::npos || (k = text.find(key + "\n")) != std::string::npos;)
      text.replace(k, key.size(), "#" + std::to_string(v));
  };
  put("#MPV", (int64_t)M * P * V);
  put("#MP", (int64_t)M * P);
  put("#PV", (int64_t)P * V);
  put("#M", M);
  put("#P", P);
  put("#V", V);
  put("#SG", 4 * (int64_t)vol_of(M, P, V));
  put("#SH", 4 * (int64_t)plane_of(M, P));
  put("#SJ", 4 * (int64_t)row_of(M));
  put("#OFF", 4 * (int64_t)off);
  return text;
}
}  // namespace

TEST_CASE("jit vector planes: volumes of planes (a 4-D range) in one vector loop") {
  for (int form : {0, 1, 2}) {
    VecPlan p = plan_vector(optimized(vol_map(20, 3, 2, 4096, form)));
    CHECK(p.why == "");
    CHECK(p.row_p == 3);
    CHECK(p.row_v == 2);
  }
  if (!host_has_avx2()) return;
  for (bool zmm : {false, true})
    for (int form : {0, 1, 2})
      for (auto [M, P, V] : {std::tuple{20, 3, 2}, std::tuple{16, 2, 3}, std::tuple{37, 2, 2}}) {
        const int G = 3, off = G * vol_of(M, P, V) + 16;
        Compiled c = compile_lanes(vol_map(M, P, V, off, form), zmm);
        CHECK(c.lanes == "8 lanes");
        run_planes(c, M, P, 2 * (size_t)off, [&](std::vector<float>& w, int i) {
          const int g = i / (M * P * V), h = i / (M * P) % V, j = i / M % P, r = i % M;
          const size_t at = (size_t)g * vol_of(M, P, V) + (size_t)h * plane_of(M, P) + (size_t)j * row_of(M) + r;
          w[at + off] = w[at] * 3.0f + (float)(g * 100 + h * 10 + j);
        }, G * V);
      }
}
