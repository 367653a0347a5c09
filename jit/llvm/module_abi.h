// The boundary between Kiln's core and its LLVM module (libkiln_llvm.so: the
// ORC tier, jit/llvm/, and the CUDA backend, gpu/cuda/, with LLVM behind them).
// Linking LLVM made every process relocate libLLVM.so at start (~14-34M cycles
// in the dynamic loader, most of a `kiln run` of a short program) though most
// programs never compile with it; the core now loads the module with dlopen
// at its first use (jit/llvm_module.cpp) and calls it only through this table.
//
// The module is built from the same tree as the core that loads it: it uses
// the core's C++ types and calls the core's functions, which the dynamic
// loader binds to the host's copies (the executable exports them, or the
// Python extension that holds the core is made global before the load), so
// there is one runtime, one thread pool and one set of statics. `abi` and
// `layout` catch a module from another build.
//
// Ownership: each make_*/compile_* entry returns a new object that the caller
// owns and deletes through its virtual destructor. That code is the module's,
// so the module is never unloaded. Errors are thrown as kiln::Error across the
// table (core and module share one C++ runtime).
#pragma once
#include <cstdint>

#include "vm/bytecode/function.h"
#include "vm/bytecode/opcodes.h"
#include "vm/runtime/engine.h"
#include "vm/runtime/program.h"
#include "vm/support/alloc_hooks.h"

// Bump when an entry's signature or meaning changes.
#define KILN_LLVM_MODULE_ABI 3
// The file the core looks for (KILN_LLVM_MODULE overrides the path).
#define KILN_LLVM_MODULE_FILE "libkiln_llvm.so"
// The one symbol the core looks up in it.
#define KILN_LLVM_MODULE_ENTRY "kiln_llvm_module_table"

// The sizes of the types that cross the table, as this translation unit sees
// them, and the bytecode's opcode count (the tiered engine hands the module
// compiled tasks): a module built against other headers gives another value.
inline uint64_t kiln_llvm_module_layout() {
  return (uint64_t)sizeof(kiln::Program) * 1000003u ^ (uint64_t)sizeof(kiln::ir::Stmt) * 10007u ^
         (uint64_t)sizeof(kiln::ir::Kernel) * 101u ^ (uint64_t)sizeof(kiln::LaunchContext) * 7u ^
         (uint64_t)sizeof(kiln::Config) ^ (uint64_t)sizeof(kiln::bc::TaskCode) * 1009u ^
         ((uint64_t)kiln::bc::kNumOps << 40);
}

extern "C" {

struct KilnLlvmModuleTable {
  uint32_t abi;     // KILN_LLVM_MODULE_ABI
  uint64_t layout;  // kiln_llvm_module_layout() in the module
  // KILN_ENGINE=llvm: every task compiled by ORC when its kernel compiles.
  kiln::Engine* (*make_llvm_engine)();
  // The tiered engine's hot kernels, in two steps (jit/tiered.cpp): start
  // makes LLVM ready (its target machine and LLJIT; raises when it cannot);
  // lower_kernel lowers a kernel's tasks to an LLVM module with the
  // program's SNode layout, on the thread that owns the program (the result
  // is the caller's: pass it to finish_kernel or drop_lowered); finish_kernel
  // optimizes, compiles and links it on any thread (no offline cache, no
  // statistics), `k` the same kernel: an interp::InterpKernel, whose
  // native_task(i) a launch of the JIT's code may go on with (mid_launch.h).
  void (*start)();
  void* (*lower_kernel)(const kiln::ir::Kernel* k, kiln::Program* prog);
  kiln::CompiledKernel* (*finish_kernel)(void* lowered, const kiln::ir::Kernel* k);
  void (*drop_lowered)(void* lowered);
  // arch=cuda (null when the module has no NVPTX target): an engine for the
  // device the core's cuda::device() opened, the allocator that puts SNode
  // trees in managed memory, and `kiln dis --ptx=DIR`'s files for one kernel.
  kiln::Engine* (*make_cuda_engine)();
  void (*cuda_alloc_hooks)(kiln::AllocHooks* out);
  void (*dump_ptx)(const kiln::ir::Kernel* k, kiln::Program* prog, const char* dir);
};

typedef const KilnLlvmModuleTable* (*KilnLlvmModuleEntry)(void);

}  // extern "C"
