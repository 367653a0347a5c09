// The LLVM ORC tier as an Engine (KILN_ENGINE=llvm): every offloaded task is
// compiled to native code up front; a task the lowering cannot take yet runs
// as bytecode on the interpreter (`--stats`: llvm_tasks_native,
// llvm_tasks_fallback; KILN_LLVM_VERBOSE=1 prints why to stderr). Inside the
// LLVM module only: the core reaches it through jit/llvm_module.h.
#pragma once
#include <memory>

#include "vm/runtime/engine.h"

namespace kiln::llvmjit {
std::unique_ptr<Engine> make_engine();
}
