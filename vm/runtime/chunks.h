// How the CPU engines cut a parallel range_for into chunks (vm/interp/
// launch.cpp), for the device backends that must sum a chunk in the same
// order (gpu/vulkan, gpu/cuda: a float reduction's thread-local sum is one
// chunk's).
#pragma once
#include <cstdint>

namespace kiln {

namespace ir {
struct Stmt;
}
struct Program;

// Below this many iterations a range_for runs as one chunk: a parallel launch
// would cost more than it saves. (So does any range_for with one thread in
// the pool, under debug=True, or serialized.)
constexpr int64_t kMinParallel = 256;

// Whether `prog`'s parallel loops run as one chunk whatever their length:
// no program, no pool or one thread in it, or debug=True.
bool one_chunk_always(const Program* prog);

// Whether a task's result depends on how its iterations are cut into chunks:
// it sums floats thread-locally (an atomic float add in its TLS epilogue), and
// chunks finish in any order.
bool sums_by_chunk(const ir::Stmt& task);

// The iteration count below which a device backend runs range_for `task` in
// one thread, so that it prints the CPU's bits: 0 when the order does not
// matter, kMinParallel, or INT64_MAX when the CPU runs every length as one
// chunk (one_chunk_always).
int64_t device_one_chunk_below(const ir::Stmt& task, const Program* prog);

}  // namespace kiln
