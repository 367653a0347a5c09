// The LLVM module's entry table (module_abi.h): the one symbol the core looks
// up after loading libkiln_llvm.so. Each entry wraps the tier's C++ entry
// point; what it returns is the caller's (module_abi.h, Ownership).
#include "jit/llvm/module_abi.h"

#include <cstdlib>

#include "jit/llvm/llvm.h"
#include "jit/llvm/orc.h"
#ifdef KILN_MODULE_HAS_CUDA
#include "gpu/cuda/cuda.h"
#endif

namespace {

kiln::Engine* make_llvm_engine() { return kiln::llvmjit::make_engine().release(); }

void start_llvm() { kiln::llvmjit::start_llvm(); }

void* lower_kernel(const kiln::ir::Kernel* k, kiln::Program* prog) {
  return kiln::llvmjit::lower_kernel_tasks(*k, prog, false).release();
}

kiln::CompiledKernel* finish_kernel(void* lowered, const kiln::ir::Kernel* k) {
  kiln::llvmjit::LoweredPtr l(static_cast<kiln::llvmjit::LoweredTasks*>(lowered));
  const char* v = std::getenv("KILN_LLVM_VERBOSE");
  return kiln::llvmjit::finish_llvm_kernel(std::move(l), *k, nullptr, false, v && *v && *v != '0').release();
}

void drop_lowered(void* lowered) { kiln::llvmjit::LoweredPtr(static_cast<kiln::llvmjit::LoweredTasks*>(lowered)); }

#ifdef KILN_MODULE_HAS_CUDA
kiln::Engine* make_cuda_engine() { return kiln::cuda::make_engine().release(); }
void cuda_alloc_hooks(kiln::AllocHooks* out) { *out = kiln::cuda::alloc_hooks(); }
void dump_ptx(const kiln::ir::Kernel* k, kiln::Program* prog, const char* dir) { kiln::cuda::dump_ptx(*k, prog, dir); }
#endif

}  // namespace

extern "C" __attribute__((visibility("default"))) const KilnLlvmModuleTable* kiln_llvm_module_table() {
  static const KilnLlvmModuleTable table = {
      KILN_LLVM_MODULE_ABI,
      kiln_llvm_module_layout(),
      &make_llvm_engine,
      &start_llvm,
      &lower_kernel,
      &finish_kernel,
      &drop_lowered,
#ifdef KILN_MODULE_HAS_CUDA
      &make_cuda_engine,
      &cuda_alloc_hooks,
      &dump_ptx,
#else
      nullptr,
      nullptr,
      nullptr,
#endif
  };
  return &table;
}
