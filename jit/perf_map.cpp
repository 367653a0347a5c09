// Linux perf's map of JIT code (KILN_JIT=perfmap=1): perf (and other
// profilers that read the same format) resolve samples in a trace's code to
// "kiln trace NAME @PC" instead of a bare address. The file is
// /tmp/perf-PID.map, one "START SIZE NAME" line (hex, hex, text) a piece of
// code, appended as traces are installed; perf reads it when it reports.
// Traces are never freed while the process runs, so no line goes stale.
#include "jit/perf_map.h"

#include <unistd.h>

#include <cstdio>
#include <mutex>

namespace kiln::jit {

void perf_map_note(const void* code, size_t size, const std::string& name) {
  static std::mutex mu;
  static FILE* f = nullptr;
  static bool failed = false;
  std::lock_guard<std::mutex> lock(mu);
  if (!f && !failed) {
    char path[64];
    std::snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
    f = std::fopen(path, "a");
    if (!f) {
      failed = true;  // (said once: a profile without names is still a profile)
      std::fprintf(stderr, "kiln: KILN_JIT=perfmap=1: cannot write %s\n", path);
      return;
    }
  }
  if (!f) return;
  static unsigned n = 0;  // (side traces share their loop's name: #n tells them apart)
  std::fprintf(f, "%zx %zx %s #%u\n", (size_t)code, size, name.c_str(), ++n);
  std::fflush(f);  // (perf may read it while the process still runs, or after it was killed)
}

}  // namespace kiln::jit
