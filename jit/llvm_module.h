// What the core sees of the LLVM tier and the CUDA backend: entry points that
// load Kiln's LLVM module (libkiln_llvm.so, jit/llvm/module_abi.h) on their
// first use, so that a program that never compiles with LLVM never maps it.
// Where Kiln was built without LLVM they raise the error saying so.
//
// The module is found at $KILN_LLVM_MODULE, else next to the object that holds
// the core (the kiln executable, the Python extension taichi/_core*.so, an
// application linking the C API), else in the build tree it was built in.
#pragma once
#include <memory>
#include <string>
#include <utility>

#include "vm/runtime/engine.h"
#include "vm/support/alloc_hooks.h"

extern "C" struct KilnLlvmModuleTable;

namespace kiln {

// The module's table, loaded now if it is not yet; null when it cannot be
// (why: which file, and what failed).
const KilnLlvmModuleTable* try_llvm_module(std::string* why);
// The same, raising RuntimeError("WHO needs ...: why") when it cannot be loaded.
const KilnLlvmModuleTable& llvm_module(const std::string& who);

// KILN_ENGINE=llvm: every task compiled by LLVM ORC up front.
std::unique_ptr<Engine> make_llvm_engine();
// The default engine where LLVM is built in: the tracing JIT, and LLVM ORC
// for kernels that have run long (jit/tiered.cpp; KILN_TIER_MS).
std::unique_ptr<Engine> make_tiered_engine();
// Returns once no tier-up compile runs on a background thread (hosts call it
// at exit, before exit() destroys LLVM's statics under such a compile).
void wait_for_tier_compiles();
// A kernel compiled by ORC for the tiered engine (tiered.cpp), in steps:
// start_llvm_tier loads the module and starts LLVM (tens of milliseconds the
// first time: a background thread's work); llvm_tier_started says, without
// waiting, whether that is done. lower_llvm_kernel lowers the kernel's tasks
// with the program's SNode layout, on the thread that owns the program (a
// few milliseconds); finish_llvm_kernel optimizes and compiles the result on
// any thread, into an interp::InterpKernel (a launch of the JIT's code may go
// on with its native_task(i): vm/interp/mid_launch.h). Each throws kiln::Error when LLVM cannot run here or the
// module cannot be loaded.
void start_llvm_tier();
bool llvm_tier_started();
struct LoweredLlvmKernel {  // owns the module's lowered kernel
  void* p = nullptr;
  LoweredLlvmKernel() = default;
  explicit LoweredLlvmKernel(void* q) : p(q) {}
  LoweredLlvmKernel(LoweredLlvmKernel&& o) noexcept : p(std::exchange(o.p, nullptr)) {}
  LoweredLlvmKernel& operator=(LoweredLlvmKernel&& o) noexcept;
  ~LoweredLlvmKernel();
};
LoweredLlvmKernel lower_llvm_kernel(const ir::Kernel& k, Program* prog);
std::unique_ptr<CompiledKernel> finish_llvm_kernel(LoweredLlvmKernel l, const ir::Kernel& k);

// Whether a CUDA device can run kernels here (the driver is loaded by the
// core, gpu/cuda/driver.cpp: no LLVM for the answer); else `why` says what is missing.
bool cuda_available(std::string* why = nullptr);
// Throws RuntimeError naming what is missing when no CUDA device can be used.
std::unique_ptr<Engine> make_cuda_engine();
// Tree memory the device and the host share (cuMemAllocManaged).
AllocHooks cuda_alloc_hooks();

// `kiln dis --ptx=DIR`: every task of every kernel compiled from now on is
// also compiled to PTX alone (for sm_$KILN_CUDA_SM, default 80) and written
// to DIR/<kernel>.<task>.ptx; a task that runs on the host gets
// DIR/<kernel>.<task>.host with the reason. Needs no GPU.
void set_ptx_dump_dir(const std::string& dir);
bool ptx_dump_enabled();
// Called by the compile path for each compiled kernel when a dump dir is set
// (`prog`: the SNode layout that sparse reads are lowered with).
void dump_ptx(const ir::Kernel& k, Program* prog);

}  // namespace kiln
