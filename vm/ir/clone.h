// A deep copy of a kernel's IR (statements, blocks, real_func instances),
// operands and loop references pointing into the copy: for engines that
// compile a kernel again later (jit/llvm/tiered.cpp compiles hot kernels
// with LLVM on a background thread after the caller's IR is gone),
// or of one statement's tree.
#pragma once
#include <memory>

#include "vm/ir/ir.h"

namespace kiln::ir {

std::unique_ptr<Kernel> clone_kernel(const Kernel& k);
// A deep copy of one statement and its blocks: operands and loop references
// to statements inside the copy point into it, others (values defined before
// `s`) stay as they are. For passes that version a loop (promote_elements).
std::unique_ptr<Stmt> clone_tree(const Stmt& s);

}  // namespace kiln::ir
