// The ORC tier's compiler: one LLJIT for the process (host CPU and its
// features, O3 with the loop and SLP vectorizers), fed one LLVM module per
// kernel. No LLVM headers here.
#pragma once
#include <string>
#include <vector>

#include <memory>

#include "jit/llvm/task.h"

namespace kiln {
struct Program;
}

namespace kiln::llvmjit {

struct CompiledTasks {
  std::vector<TaskFn> fns;        // per task; null: it runs as bytecode (why says why)
  std::vector<std::string> why;   // empty for native tasks and for list tasks (no code)
  std::vector<TaskMeta> metas;
  double ms = 0;                  // lowering + optimization + code generation
  // Its parts (KILN_LLVM_VERBOSE prints them): the IR from Kiln's, LLVM's O3
  // pipeline, the object file, and ORC's linking and symbol lookups; `cached`:
  // the object came from the offline cache (no optimization or codegen).
  double lower_ms = 0, optimize_ms = 0, codegen_ms = 0, link_ms = 0;
  double cpu_ms = 0;  // the compiling thread's CPU time (wall time less what other processes took)
  bool cached = false;
};

// Lowers, optimizes and compiles every task of an offloaded kernel, or takes
// the machine code from the offline cache (vm/runtime/code_cache.h) of
// `prog`'s config when it has it. Throws kiln::Error("RuntimeError") when
// LLVM cannot start on this machine.
CompiledTasks compile_kernel(const ir::Kernel& k, Program* prog);

// Part of every offline cache key: bump when generated code changes meaning
// without the module's text changing (the runtime's ABI, Env's layout, the
// passes optimize() adds: 2 is StreamPrefetchPass).
#define KILN_CACHE_VERSION "2"

// A kernel whose tasks run as LLVM code (bytecode where a task does not
// lower): what the llvm Engine compiles, and the tiered engine's hot kernels
// (prog null: no offline cache, no statistics).
std::unique_ptr<CompiledKernel> compile_llvm_kernel(const ir::Kernel& k, Program* prog, bool verbose);

// The functions generated code calls, by name (engine.cpp defines them).
struct RuntimeSymbol {
  const char* name;
  void* addr;
};
std::vector<RuntimeSymbol> runtime_symbols();

}  // namespace kiln::llvmjit
