// The ORC tier's compiler: one LLJIT for the process (host CPU and its
// features, O3 with the loop and SLP vectorizers), fed one LLVM module per
// kernel. No LLVM headers here.
#pragma once
#include <string>
#include <vector>

#include "jit/llvm/task.h"

namespace kiln::llvmjit {

struct CompiledTasks {
  std::vector<TaskFn> fns;        // per task; null: it runs as bytecode (why says why)
  std::vector<std::string> why;   // empty for native tasks and for list tasks (no code)
  std::vector<TaskMeta> metas;
  double ms = 0;                  // lowering + optimization + code generation
};

// Lowers, optimizes and compiles every task of an offloaded kernel. Throws
// kiln::Error("RuntimeError") when LLVM cannot start on this machine.
CompiledTasks compile_kernel(const ir::Kernel& k);

// The functions generated code calls, by name (engine.cpp defines them).
struct RuntimeSymbol {
  const char* name;
  void* addr;
};
std::vector<RuntimeSymbol> runtime_symbols();

}  // namespace kiln::llvmjit
