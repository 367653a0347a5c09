// The steps after lowering that the ORC tier (orc.cpp) and the CUDA backend
// (gpu/cuda/ptx.cpp) share: the O3 pipeline, KILN_LLVM_DUMP, and code
// generation through the target machine. LLVM types by forward declaration.
#pragma once
#include <string>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace kiln::llvmjit {

// LLVM's O3 module pipeline for `tm` (which adds its target's passes, such as
// NVVMReflect for NVPTX); `vectorize`: the loop and SLP vectorizers too.
// Then prints the module to stderr when $KILN_LLVM_DUMP is set (but to
// `before`, which prints it as lowered, and `asm`: orc.cpp prints the assembly).
void optimize(llvm::Module& m, llvm::TargetMachine& tm, bool vectorize);
// The module as an object file, or as assembly (PTX for NVPTX). Throws
// RuntimeError when the target cannot emit that kind of file.
std::string emit_code(llvm::Module& m, llvm::TargetMachine& tm, bool assembly);
// Appends module m, as the offline cache's key holds it, to `key`: its
// bitcode. A key is compared whole, so any exact encoding serves; the
// printed text cost ~3x as much (Module::print writes through a stream that
// counts columns character by character: ~5% of a kernel's compile).
void append_module_key(std::string& key, const llvm::Module& m);

}  // namespace kiln::llvmjit
