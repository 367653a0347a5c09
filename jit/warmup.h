// The trace compiler run once a process, when the JIT compiles its first
// kernel (JitEngine::warm_once), on two small traces of its own (a loop in
// lanes and a scalar loop with a carried value), their code released at once. A process's first trace otherwise ran the
// compiler's code for the first time inside its own compile: its text
// faulted in page by page, the heap's and the code allocator's first pages
// faulted in, every line from memory (docs/perf/compile.md, session 32).
#pragma once
#include <asmjit/core.h>

namespace kiln::jit {

// How many of the two traces compiled as meant (the first in lanes where
// `lanes`): 2, unless the compiler changed under them (tests/unit/
// jit_warmup.cpp). Nothing is reported: the program's own traces say.
int warm_compile_path(asmjit::JitRuntime& rt, bool lanes, bool zmm);

}  // namespace kiln::jit
