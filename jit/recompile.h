// KILN_JIT=recompile=N (jit/params.h): each root trace compiled N more
// times warm and N times after a cache flush, for measuring the assembler.
#pragma once
#include <string>

#include <asmjit/core.h>

#include "jit/recorder.h"
#include "jit/trace.h"

namespace kiln::jit {

// One line: the code size and the medians of the warm and the flushed
// compiles (microseconds). `exits` are the trace's own (only read).
std::string recompile_report(const Trace& t, asmjit::JitRuntime& rt, const ExitInfo* exits, int n);

}  // namespace kiln::jit
