// ti.append into a dynamic container already located: what Program::snode_op
// does after its lookup, and what the tracing JIT calls after finding the
// container inline (jit/sparse_walk.cpp), so an append costs one call.
#pragma once
#include <cstdint>

namespace kiln {

struct Program;
struct SNode;

// Appends a cell to dynamic container `c` of `s` (capacity `cap`, its
// num_cells()): one fetch_add of the length, never retried under contention
// (a full list's length may run past its capacity, and every reader clamps
// it), then the new cell's chunk, allocated on first use. Returns the new
// cell's index, or `cap` when the list is full (the caller's bounds check
// reports it).
int64_t append_in(Program& prog, const SNode& s, uint8_t* c, int64_t cap);

// The rest of append_in after its fetch_add gave `cell` (< cap): the cell's
// chunk, allocated on first use. Native code that does the fetch_add inline
// calls this where it finds the chunk's slot empty (jit/llvm/lower_pools.cpp).
void append_chunk(Program& prog, const SNode& s, uint8_t* c, int64_t cell);

}  // namespace kiln
