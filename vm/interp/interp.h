// The bytecode interpreter: Kiln's reference semantics and the CPU engine
// "interp". It keeps no global mutable state: each call gets its own frame,
// so many threads may run one task Function at once.
#pragma once
#include <cstdint>
#include <memory>

#include "vm/bytecode/function.h"
#include "vm/runtime/engine.h"

namespace kiln {

// The interpreter as an Engine (compile = IR -> bytecode; launch = interpret).
std::unique_ptr<Engine> make_interp_engine();

namespace interp {

// Runs one task Function to its `end`. For a range_for task, [begin, end)
// is the chunk of iterations (registers 0 and 1); serial tasks ignore them.
// Throws kiln::Error (IndexError, ZeroDivisionError, AssertionError, ...)
// located at the failing instruction's source.
void run_function(const bc::Function& fn, LaunchContext& ctx, int64_t begin = 0, int64_t end = 0);

// Runs every task of `k` in order, range_for tasks split over
// ctx.program->pool (serially when there is no program or pool, when the task
// says serialize, when the range is tiny, or in debug mode so that parallel
// prints appear in iteration order). Kernel print output is flushed to
// ctx.program->print (when there is a program) after the launch, also when it
// throws.
void launch(const bc::Kernel& k, LaunchContext& ctx);

// A CompiledKernel holding bytecode, for engines (the JIT) that reuse the
// interpreter's launcher.
struct InterpKernel : CompiledKernel {
  bc::Kernel code;
  explicit InterpKernel(bc::Kernel k) : code(std::move(k)) {}
  void launch(LaunchContext& ctx) override { interp::launch(code, ctx); }
  std::string disassemble() const override { return bc::disassemble(code); }
};

}  // namespace interp
}  // namespace kiln
