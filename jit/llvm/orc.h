// The ORC tier's compiler: one LLJIT for the process (host CPU and its
// features, O3 with the loop and SLP vectorizers), fed one LLVM module per
// kernel. No LLVM headers here.
#pragma once
#include <string>
#include <vector>

#include <functional>
#include <memory>

#include "jit/llvm/task.h"

namespace kiln {
struct Program;
}
namespace llvm {
class Module;
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

// The same in two steps, for the tiered engine: lowering reads the program's
// SNode layout (sparse walks fold it in), so it runs on the thread that owns
// the program, between launches; LLVM's optimizer, code generation and
// linking read only the module and may run on another thread. `cache`: the
// lowering computes the offline cache's key (finish_kernel_tasks then loads
// and stores with `prog`; null: no cache, no statistics).
struct LoweredTasks;
struct LoweredTasksDeleter {
  void operator()(LoweredTasks* l) const;
};
using LoweredPtr = std::unique_ptr<LoweredTasks, LoweredTasksDeleter>;
LoweredPtr lower_kernel_tasks(const ir::Kernel& k, Program* prog, bool cache);
CompiledTasks finish_kernel_tasks(LoweredPtr l, Program* prog);
// Starts LLVM (the host's target machine, the LLJIT) if it has not started;
// raises RuntimeError when it cannot.
void start_llvm();

// Compiles the module `build` fills (for the host CPU, O3, no offline
// cache) and returns the addresses of the functions `names`, in order.
// Throws RuntimeError when LLVM cannot start or compile it.
std::vector<void*> compile_functions(const std::function<void(llvm::Module&)>& build,
                                     const std::vector<std::string>& names);

// Part of every offline cache key: bump when generated code changes meaning
// without the module's text changing (the runtime's ABI, Env's layout, the
// passes optimize() adds: 2 is StreamPrefetchPass, 3 its absence on Zen).
#define KILN_CACHE_VERSION "3"

// A kernel whose tasks run as LLVM code (bytecode where a task does not
// lower): what the llvm Engine compiles. finish_llvm_kernel is its second
// step for the tiered engine's hot kernels, given lower_kernel_tasks's
// module (`prog` null there: no offline cache, no statistics).
std::unique_ptr<CompiledKernel> compile_llvm_kernel(const ir::Kernel& k, Program* prog, bool verbose);
std::unique_ptr<CompiledKernel> finish_llvm_kernel(LoweredPtr l, const ir::Kernel& k, Program* prog, bool debugger,
                                                   bool verbose);

// The functions generated code calls, by name (engine.cpp defines them).
struct RuntimeSymbol {
  const char* name;
  void* addr;
};
std::vector<RuntimeSymbol> runtime_symbols();

}  // namespace kiln::llvmjit
