// A struct-for's table as rows per 64-cell word (vm/bytecode/flat_rows.h):
// for the cells of a bitmasked or dynamic leaf with one split axis, a row per
// word of a container holding active cells: the indices of the word's first
// cell (the SNode's own coordinates, as Program::active_cells gives them),
// that cell's address, then the word's bits of active cells (a list's cells
// below its length, in chunks that exist). The task's code walks the bits.
#pragma once
#include <cstdint>

#include "vm/runtime/program.h"

namespace kiln {

// Whether a struct-for with `nidx` indices over SNode `target` can take word
// rows; then the cells' stride in a word (the cell size) and the index column
// the cell number moves (-1: none).
bool word_row_layout(const SNode& target, int nidx, int64_t& cell_size, int& col);

// Appends the word rows of list elements [b, e) of `target`'s list, of their
// cells [lo, hi), to `out` (rows of nidx + 2 columns).
void word_rows(Program& prog, const SNode* target, size_t b, size_t e, int nidx, CellTable& out, int64_t lo = 0,
               int64_t hi = INT64_MAX);

}  // namespace kiln
