// IR task -> LLVM function (lower.cpp, lower_arith.cpp). The only header that
// names LLVM types, by forward declaration, so that engine.cpp stays free of
// LLVM's headers.
#pragma once
#include <string>

#include "jit/llvm/task.h"

namespace llvm {
class Module;
}

namespace kiln::llvmjit {

// Adds `name`, a TaskFn for offloaded task `task` of `k`, to `m`, filling
// `meta` with its check and print sites. Returns "" or, when the task uses
// what the lowering does not do yet, why (the task then runs as bytecode).
std::string lower_task(llvm::Module& m, const ir::Kernel& k, const ir::Stmt& task, const std::string& name,
                       TaskMeta& meta);

}  // namespace kiln::llvmjit
