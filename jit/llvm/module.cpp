// The LLVM module's entry table (module_abi.h): the one symbol the core looks
// up after loading libkiln_llvm.so. Each entry wraps the tier's C++ entry
// point; what it returns is the caller's (module_abi.h, Ownership).
#include "jit/llvm/module_abi.h"

#include "jit/llvm/llvm.h"
#include "jit/llvm/orc.h"
#ifdef KILN_MODULE_HAS_CUDA
#include "gpu/cuda/cuda.h"
#endif

namespace {

kiln::Engine* make_llvm_engine() { return kiln::llvmjit::make_engine().release(); }

kiln::CompiledKernel* compile_kernel(const kiln::ir::Kernel* k, kiln::Program* prog, int verbose) {
  return kiln::llvmjit::compile_llvm_kernel(*k, prog, verbose != 0).release();
}

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
      &compile_kernel,
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
