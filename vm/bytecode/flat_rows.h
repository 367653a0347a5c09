// Bytecode for the tracing JIT (jit/engine.cpp): lower_kernel's, except that
// - a struct-for over dense blocks of a sparse SNode whose cells' body is
//   lane arithmetic at the visited cell runs as one loop over the blocks'
//   cells (counter c: row c / C, cell c % C; flat_rows.cpp says which and
//   why). The interpreter keeps the loop per block: it gains nothing from one
//   loop and would divide at every cell.
// - a struct-for over the cells of a bitmasked or dynamic leaf with one axis
//   (word_rows says which, and their layout) reads a row per 64-cell word of
//   a container (TaskCode::word_rows): its cells' indices and address at the
//   word's first cell, and the word's bits of active cells. The body runs in
//   a loop over the set bits (ctz, clear the lowest), the cell's index and
//   address the row's plus the bit's number. A row per cell cost as much to
//   write in the launcher (tzcnt, three stores, a mask word's cache miss per
//   container) as the trace's work on the cell; a row per word is written
//   once for up to 64 cells.
#pragma once
#include "vm/bytecode/function.h"

namespace kiln::bc {

Kernel lower_kernel_flat_rows(const ir::Kernel& k, const WordRowsOf& word_rows = {});

}  // namespace kiln::bc
