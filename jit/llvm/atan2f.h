// f32 atan2 with glibc's bits as LLVM IR, for the NVPTX lowering: libdevice's
// __nv_atan2f differs from glibc's atan2f (the CPU engines') in the last bit
// of many results, so the GPU repeats glibc's algorithm (atan2f.cpp).
#pragma once

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace kiln::llvmjit {

// M's `float kiln_atan2f(float y, float x)` (internal, made on the first
// call): glibc 2.36's atan2f, bit for bit, in plain fadd/fmul/fdiv (no
// fast-math flags: a target that keeps floating point strict computes it
// exactly as written).
llvm::Function* atan2f_function(llvm::Module& M);

}  // namespace kiln::llvmjit
