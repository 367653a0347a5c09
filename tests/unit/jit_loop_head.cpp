// A loop whose head's code is one guard (a word row's `bits != 0`, a
// `while i < n`) tests that guard again at its back edge and jumps past the
// head while it holds (jit/backend.cpp): the loop's one backward branch is
// then conditional, where `jmp top` and the head's test were two branches an
// iteration. Each loop runs with the rotation and without (KILN_JIT=rotate=0),
// against the same loop in C++: the registers at the exit, the memory, and the
// exit taken, for trip counts 0, 1, 2 and more.
#include <asmjit/x86.h>
#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "jit_text.h"

using namespace kiln;
using namespace kiln::jit;

namespace {

// `poll`: false leaves Ctrl-C's poll out of the back edge (as a word row's
// walk, which ends within 64 iterations, has none); a loop that polls tests
// the flag there with one taken branch already, and keeps its head.
Compiled compile(const std::string& text, bool rotate, bool poll = false) {
  static asmjit::JitRuntime rt;
  Trace t;
  Emitter e(t);
  ParsedTrace p = parse_trace(text, t, e, 8);
  REQUIRE(p.error == "");
  REQUIRE(peel(t, e, p.end_regs));
  dce(t);
  t.rotate = rotate;
  if (!poll) t.loop_snap = -1;
  Compiled c;
  REQUIRE(compile_trace(t, rt, c, true) == "");
  return c;
}

// The mnemonics of the listing's backward jumps (to a label bound above them).
std::vector<std::string> backward_jumps(const std::string& listing) {
  std::vector<std::string> labels, out;
  for (size_t at = 0, end; at < listing.size(); at = end + 1) {
    end = listing.find('\n', at);
    if (end == std::string::npos) end = listing.size();
    std::string line = listing.substr(at, end - at);
    if (line.rfind("short ", 0) == 0) line = line.substr(6);
    if (!line.empty() && line.back() == ':') labels.push_back(line.substr(0, line.size() - 1));
    size_t sp = line.find(' ');
    if (line[0] != 'j' || sp == std::string::npos) continue;
    for (const std::string& l : labels)
      if (line.substr(sp + 1) == l) out.push_back(line.substr(0, sp));
  }
  return out;
}

// The loop's shape: one backward branch, conditional with the rotation, `jmp` without.
void check_shape(const Compiled& c, bool rotate) {
  std::vector<std::string> back = backward_jumps(c.listing);
  REQUIRE(back.size() == 1);
  if (rotate) CHECK_MESSAGE(back[0] != "jmp", c.listing);
  else CHECK(back[0] == "jmp");
}

struct Run {
  uint32_t pc;
  uint64_t R[8];
};

Run run(const Compiled& c, std::vector<uint64_t> regs, void* mem = nullptr) {
  uint64_t args[1] = {(uint64_t)(uintptr_t)mem};
  TraceEnv env;
  env.args = args;
  std::atomic<bool> stop{false};
  env.stop = &stop;
  Run r{};
  for (size_t k = 0; k < regs.size(); k++) r.R[k] = regs[k];
  r.pc = c.fn(r.R, &env);
  return r;
}

// s += i * i over i from r0 (r2 = s) while the head's `test` holds.
std::string sum_while(const std::string& test, const char* counter) {
  return "i = sload r0\n hi = sload r1\n s = sload r2\n" + test + "\n q = mul i64 i i\n t = add i64 s q\n n = add " + counter +
         " i #1\n end r0=n r2=t\n";
}

uint64_t fbits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

}  // namespace

TEST_CASE("jit loop head: a word row's walk of its set bits tests `bits != 0` at the back edge") {
  // for each set bit z of w: a[z] = a[z] * 3 + 1 (i32), as sparse_lists' sweep
  const char* text = R"(
    w = sload r0
    a = arg 0
    guard_nz w -> 40 { r0=w }
    z = tzcnt u64 w
    m = sub i64 w #1
    n = band i64 w m
    off = mul i64 z #4
    ad = add i64 a off
    x = load ad i32
    y = mul i32 x #3
    v = add i32 y #1
    store ad v i32
    end r0=n
  )";
  for (bool rotate : {true, false}) {
    Compiled c = compile(text, rotate);
    check_shape(c, rotate);
    for (uint64_t w : {0x0ull, 0x1ull, 0x8000000000000000ull, 0x5ull, 0xf0f0f0f0f0f0f0f0ull, ~0ull}) {
      int32_t mem[64], want[64];
      for (int k = 0; k < 64; k++) mem[k] = want[k] = k * 7 - 100;
      for (int k = 0; k < 64; k++)
        if (w >> k & 1) want[k] = want[k] * 3 + 1;
      Run r = run(c, {w}, mem);
      CHECK(r.pc == 40);
      CHECK(r.R[0] == 0);
      CHECK_MESSAGE(std::memcmp(mem, want, sizeof mem) == 0, "w = " << w << ", rotate " << rotate);
    }
  }
}

TEST_CASE("jit loop head: a head guard on a fused compare (integer, unsigned bound, float) moves to the back edge") {
  // while i < hi: s += i * i; i += 1 (i32 counter, i64 sum); and while i <u hi (guard_ult, i64)
  const std::string ints = sum_while("c = lt i32 i hi\n guard_nz c -> 50 { r0=i r2=s }", "i32");
  const std::string ult = sum_while("guard_ult i hi -> 51 { r0=i r2=s }", "i64");
  // while x < lim: x = x * 2 + 1 (f32; unordered leaves, as the head's test does)
  const char* floats = R"(
    x = sload r0
    lim = sload r1
    c = lt f32 x lim
    guard_nz c -> 52 { r0=x }
    d = mul f32 x #0x40000000
    y = add f32 d #0x3f800000
    end r0=y
  )";
  for (bool rotate : {true, false}) {
    Compiled ci = compile(ints, rotate), cu = compile(ult, rotate), cf = compile(floats, rotate);
    for (const Compiled* c : {&ci, &cu, &cf}) check_shape(*c, rotate);
    {
      std::vector<std::string> back = backward_jumps(compile(ints, rotate, true).listing);
      CHECK((back.size() == 1 && back[0] == "je"));  // (the poll's: `je top`, the head kept)
    }
    for (int64_t lo : {5, 0, -3})
      for (int64_t hi : {-4, 0, 1, 5, 6, 7, 40}) {
        int64_t s = 0, i = lo;
        for (; i < hi; i++) s += i * i;
        Run r = run(ci, {(uint64_t)lo, (uint64_t)hi, 0});
        CHECK(r.pc == 50);
        CHECK(r.R[0] == (uint64_t)i);
        CHECK(r.R[2] == (uint64_t)s);
        uint64_t su = 0, iu = (uint64_t)lo;
        for (; iu < (uint64_t)hi && iu < 100; iu++) su += iu * iu;
        if (iu >= 100) continue;  // (a negative bound, unsigned: no end worth running)
        r = run(cu, {(uint64_t)lo, (uint64_t)hi, 0});
        CHECK(r.pc == 51);
        CHECK(r.R[0] == iu);
        CHECK(r.R[2] == su);
      }
    for (float x0 : {0.5f, 3.0f, -0.75f})
      for (float lim : {0.0f, 1.0f, 2.0f, 100.0f, 1e30f, __builtin_inff(), __builtin_nanf("")}) {
        float x = x0;
        while (x < lim) x = x * 2 + 1;
        Run r = run(cf, {fbits(x0), fbits(lim)});
        CHECK(r.pc == 52);
        CHECK_MESSAGE(r.R[0] == fbits(x), "x0 " << x0 << ", lim " << lim << ", rotate " << rotate);
      }
  }
}
