// The tracing JIT as an Engine ("jit"): kernels compile to bytecode exactly
// as for the interpreter, and each task function gets a LoopHook that
// records and compiles its hot loops (ARCHITECTURE.md, "Tracing JIT").
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "vm/runtime/engine.h"

namespace kiln {

std::unique_ptr<Engine> make_jit_engine();

namespace jit {
// The iterations a pass of each task of `k` (a kernel the JIT engine
// compiled) runs in the JIT's code: 1 where the JIT runs the task's own
// iterations, 8 or 4 where it jammed the task's while loop for its lanes
// (jit/while_lanes.h); empty when it jammed nothing.
const std::vector<int>& jam_factors(const CompiledKernel& k);
}  // namespace jit

namespace jit {
// What the JIT did in this process so far, for `kiln dis --trace` and the
// benchmarks: every trace's IR, snapshots and machine code, and every abort.
std::string trace_report();
// Keep every trace's IR dump and machine code listing for trace_report()
// (off by default: it costs time and memory).
void keep_traces(bool on);
}  // namespace jit

}  // namespace kiln
