// KILN_JIT=recompile=N: a measurement of the assembler alone (backend.h).
// A trace's compile in a running program is cold: between two traces the
// kernel streams its arrays through the caches, and the compiler's code and
// data come from memory again. Compiling the same trace N times in a row
// says what the compile costs warm; compiling it N times after streaming a
// buffer larger than the last-level cache says what it costs cold, without
// the scheduling noise of one wall-clock figure per trace. docs/perf/latency.md
// ("Trace compile latency, session 28") reads both.
#include "jit/recompile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "jit/backend.h"

namespace kiln::jit {

namespace {

// Writes one byte per cache line of a buffer larger than the L3
// (32 MB here): what a kernel streaming its arrays does to the caches.
void flush_caches() {
  static std::vector<char> buf(128u << 20, 1);
  for (size_t i = 0; i < buf.size(); i += 64) buf[i]++;
}

}  // namespace

std::string recompile_report(const Trace& t, asmjit::JitRuntime& rt, const ExitInfo* exits, int n) {
  // Exits of their own: a compile writes its exit tail into them, and
  // these copies' code is released at once (outer_head is what the code
  // generation reads).
  std::unique_ptr<ExitInfo[]> scratch(new ExitInfo[t.snaps.size()]);
  for (size_t s = 0; s < t.snaps.size(); s++) scratch[s].outer_head = exits[s].outer_head;
  std::vector<double> warm, cold;
  size_t bytes = 0;
  for (int round = 0; round < 2 * n; round++) {
    bool flushed = round >= n;
    if (flushed) flush_caches();
    Compiled c;
    auto t0 = std::chrono::steady_clock::now();
    std::string why = compile_trace(t, rt, c, false, scratch.get());
    auto t1 = std::chrono::steady_clock::now();
    if (!why.empty()) return "recompile failed: " + why;
    bytes = c.code_size;
    (flushed ? cold : warm).push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    rt.release(c.fn);
  }
  auto median = [](std::vector<double>& v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu bytes; assemble warm %.1f us, after a cache flush %.1f us (medians of %d)",
                bytes, median(warm), median(cold), n);
  return buf;
}

}  // namespace kiln::jit
