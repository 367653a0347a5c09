// The LLVM ORC tier as an Engine (KILN_ENGINE=llvm): every offloaded task is
// compiled to native code up front; a task the lowering cannot take yet runs
// as bytecode on the interpreter (`--stats`: llvm_tasks_native,
// llvm_tasks_fallback; KILN_LLVM_VERBOSE=1 prints why to stderr).
#pragma once
#include <memory>

#include "vm/runtime/engine.h"

namespace kiln {
std::unique_ptr<Engine> make_llvm_engine();
// The default engine where LLVM is built in: the tracing JIT, and LLVM ORC for
// kernels that have run long (jit/llvm/tiered.cpp; KILN_TIER_MS).
std::unique_ptr<Engine> make_tiered_engine();
// Returns once no tier-up compile runs on a background thread (hosts call it
// at exit, before exit() destroys LLVM's statics under such a compile).
void wait_for_tier_compiles();
}
