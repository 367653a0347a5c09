// IR task -> LLVM function (lower.cpp, lower_arith.cpp). The only header that
// names LLVM types, by forward declaration, so that engine.cpp stays free of
// LLVM's headers.
#pragma once
#include <string>

#include "jit/llvm/task.h"

namespace llvm {
class Module;
}
namespace kiln {
struct Program;
}

namespace kiln::llvmjit {

// Where the task's code runs. For the GPU (gpu/cuda), the TaskFn is the body
// of a thread: it runs the iterations begin + t, begin + t + T, ... below end
// (t the thread's index in the grid, T the grid's size); failed checks and
// prints go to the device log (gpu/cuda/ptx.cpp defines kiln_gpu_fail and
// kiln_gpu_print over it) keyed by the iteration, so that the host can
// reproduce the interpreter's order; math is libdevice's; what needs the
// runtime (SNode operations, sparse activation, cells in the runtime's pools)
// is unsupported: the task then runs on the host.
struct LowerOptions {
  bool gpu = false;
  // The SNode layout sparse reads walk inline (lower_sparse.cpp); null (the
  // tiered engine's background compiles): the runtime's lookup.
  const Program* prog = nullptr;
};

// The type of a task's loop index: its loop_index statements' (the frontend
// gives them the bounds' type), i32 when the body reads none. Bounds read
// from global temporaries have that type too.
Prim task_index_prim(const ir::Stmt& task);

// Adds `name`, a TaskFn for offloaded task `task` of `k`, to `m`, filling
// `meta` with its check and print sites. Returns "" or, when the task uses
// what the lowering does not do yet, why (the task then runs as bytecode).
std::string lower_task(llvm::Module& m, const ir::Kernel& k, const ir::Stmt& task, const std::string& name,
                       TaskMeta& meta, const LowerOptions& opt = {});

}  // namespace kiln::llvmjit
