// User-given sizes, validated once below every host (issue 15).
//
// Every size a program gives — a field's shape, an SNode's extents, a
// dynamic SNode's chunk_size, a vector's or matrix's component count, an
// ndarray's shape — reaches the runtime through Program's creation functions
// or through check_ndarray, and is checked here before anything is built:
// the built-in evaluator, the CPython binding and the C API therefore all
// reject the same sizes with the same message, at the call that gave them,
// instead of overflowing a product, looping over 2**40 components or asking
// the kernel for terabytes that it promises lazily and kills the process for
// later.
//
// The rules:
//  - an extent (one axis of a shape or an SNode) is 1 .. kMaxExtent: kernels
//    index with 32-bit integers, as Taichi's do; an axis split over several
//    SNode levels obeys the same bound for its whole length (ValueError);
//  - a vector or matrix has 1 .. kMaxComponents components (ValueError);
//  - the bytes a request needs at once — a dense tree's buffer, one pooled
//    block of a pointer or dynamic SNode, an ndarray — must fit in the
//    machine's memory (MemoryError, "the request of N bytes exceeds the
//    machine's memory (M bytes)"). Pointer and dynamic SNodes allocate only
//    the cells a program activates, so a sparse domain far larger than memory
//    stays legal as long as each of its blocks fits.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "vm/support/diag.h"

namespace kiln {

constexpr int64_t kMaxExtent = 2147483647;   // 2**31 - 1: indices are i32
constexpr int64_t kMaxComponents = 4096;     // per vector/matrix: kernels unroll every component

// What the runtime may allocate at once, in bytes: $KILN_MEMORY_BYTES when set
// (a cap for containers and tests), else the physical memory, lowered to the
// cgroup's memory.max when one applies. 0 when unknown (no check then).
uint64_t machine_memory_bytes();

// Raises MemoryError unless `bytes` fit in machine_memory_bytes(). A negative
// `bytes` means "more than an int64 holds" (an overflowed product).
void check_memory(int64_t bytes, SourceLoc loc);
// count * elem_bytes, or MemoryError (overflow counts as too much).
int64_t checked_bytes(int64_t count, int64_t elem_bytes, SourceLoc loc);

// One extent, named by `what` ("the size of ti.i"): ValueError unless
// 1 <= n <= kMaxExtent.
void check_extent(int64_t n, const std::string& what, SourceLoc loc);
// A shape (a field's, an ndarray's): at most 12 dimensions, each a legal
// extent; returns the element count. `what` names it ("field", "ndarray").
int64_t check_shape(const std::vector<int64_t>& shape, const std::string& what, SourceLoc loc);
// Component counts of a vector (n) or a matrix (n x m); returns the count.
int64_t check_vector_components(int64_t n, SourceLoc loc);
int64_t check_matrix_components(int64_t n, int64_t m, SourceLoc loc);
// An ndarray of `shape` whose elements have `comps` components of
// `elem_bytes` bytes each: the checks above plus its bytes against memory.
// Returns the bytes.
int64_t check_ndarray(const std::vector<int64_t>& shape, int64_t comps, int64_t elem_bytes, SourceLoc loc);

// A dense field of `shape` whose cells hold `cell_bytes` bytes (all the
// components of a vector/matrix/struct field placed together): the shape's
// checks plus its bytes against memory. Hosts call it before creating the
// components, so that a rejected call leaves no half-built field behind.
int64_t check_dense(const std::vector<int64_t>& shape, int64_t cell_bytes, const std::string& what, SourceLoc loc);

}  // namespace kiln
