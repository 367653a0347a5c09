// Bytecode for the tracing JIT (jit/engine.cpp): lower_kernel's, except that
// a struct-for over dense blocks of a sparse SNode whose cells' body is
// lane arithmetic at the visited cell runs as one loop over the blocks'
// cells (counter c: row c / C, cell c % C; flat_rows.cpp says which and
// why). The interpreter keeps the loop per block: it gains nothing from one
// loop and would divide at every cell.
#pragma once
#include "vm/bytecode/function.h"

namespace kiln::bc {

Kernel lower_kernel_flat_rows(const ir::Kernel& k);

}  // namespace kiln::bc
