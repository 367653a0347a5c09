// The JIT's tunables, in one table. KILN_JIT="hotloop=1,maxtrace=2000" sets
// them (unknown names are ignored with a warning on stderr, so a typo never
// changes results, only speed).
#pragma once
#include <cstdint>
#include <string>

namespace kiln::jit {

// name, default, meaning
#define KILN_JIT_PARAMS(_)                                                                   \
  _(hotloop, 56, "back edges of one loop (per task call) before it is recorded")            \
  _(tryagain, 4, "failed recordings of one loop (or exit) before it is blacklisted")        \
  _(hotexit, 10, "times a guard fails before a side trace is recorded from it")            \
  _(backoff, 64, "back edges to wait after a failed recording (doubles each time)")         \
  _(maxtrace, 4000, "trace IR instructions before a recording aborts")                      \
  _(unroll, 16, "iterations of an inner loop without its own trace recorded inline")       \
  _(enable, 1, "0: the jit engine only interprets")                                       \
  _(ifconv, 1, "1: short if/else blocks of pure ops become selects instead of guards")    \
  _(vector, 1, "1: loops whose body allows lanes run 8 iterations at a time (AVX2)")     \
  _(zmm, 1, "1: AVX-512 hosts: 16 lanes where a lane loop divides, floats in xmm16-31")  \
  _(hiymm, 1, "AVX-512 hosts: 1: an 8-lane loop 16 ymm do not hold takes ymm16-31; 2: first") \
  _(latefold, 1, "1: ordered sums in lanes fold each chunk's terms during the next chunk") \
  _(laneexit, 1, "1: a 16-lane loop leaves through its loop test from its lanes; 16 split partials combine in lanes") \
  _(rotate, 1, "1: a loop whose head is a guard tests it at its back edge (one jump fewer an iteration)") \
  _(verbose, 0, "1: each trace and abort on stderr; 2: also the IR; 3: and machine code") \
  _(strict, 0, "1: an assembler error (a JIT bug) ends the process (status 3), not just the trace") \
  _(perfmap, 0, "1: name each trace's code for Linux perf in /tmp/perf-PID.map") \
  _(recompile, 0, "N: each root trace compiled N times more warm, N after a cache flush (stderr)")

struct Params {
#define KILN_JIT_FIELD(name, def, doc) int64_t name = def;
  KILN_JIT_PARAMS(KILN_JIT_FIELD)
#undef KILN_JIT_FIELD
};

// Parses "a=1,b=2" over the defaults. Returns the first problem, or "".
std::string parse_params(const std::string& text, Params& p);
// The defaults overridden by $KILN_JIT (read once per call).
Params params_from_env();

}  // namespace kiln::jit
