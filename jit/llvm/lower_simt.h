// ti.simt's statements in the GPU lowering (lower_simt.cpp): free functions
// over the lowering's state, called from Gen::stmt.
#pragma once
#include "vm/ir/ir.h"

namespace llvm {
class Value;
}

namespace kiln::llvmjit {

struct Gen;
void lower_shared_array(Gen& g, const ir::Stmt& s);  // the block's array (addrspace 3), in g.ptr
void lower_shared_ptr(Gen& g, const ir::Stmt& s);    // a checked element's generic pointer, in g.ptr
llvm::Value* lower_simt(Gen& g, const ir::Stmt& s);  // the op's value (null for a barrier)

}  // namespace kiln::llvmjit
