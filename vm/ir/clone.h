// A deep copy of a kernel's IR (statements, blocks, real_func instances),
// operands and loop references pointing into the copy: for engines that
// compile a kernel again later (jit/llvm/tiered.cpp compiles hot kernels
// with LLVM on a background thread after the caller's IR is gone).
#pragma once
#include <memory>

#include "vm/ir/ir.h"

namespace kiln::ir {

std::unique_ptr<Kernel> clone_kernel(const Kernel& k);

}  // namespace kiln::ir
