// Large buffers mapped from the OS on 2 MiB pages: a tree's dense buffer
// (tree_memory.cpp) and a host numpy array's storage (vm/host/np_array.cpp)
// from kLargeBuffer bytes on.
//
// A loop streaming through a buffer on 4 KiB pages takes a page walk every
// 64 cache lines (two levels of tables on a virtual machine). And a numpy
// array the size of a field is usually made again and again
// (`a = x.to_numpy()` every frame or step): the allocator handed each one
// fresh pages from the OS and returned the last one, so every array paid its
// page faults and the kernel's clearing of every page, a third pass over the
// memory on top of the copy's read and write (bench/numpy_copy). Released
// blocks are kept for the next request of their size instead, up to
// kKeepBytes in all (large_buffers.cpp).
#pragma once
#include <cstddef>

namespace kiln {

constexpr size_t kLargeBuffer = (size_t)4 << 20;

// At least `bytes` (>= 1), 2 MiB aligned; null when the OS refuses. *zeroed
// (when given) says whether it reads zero: a fresh mapping does, a kept one
// holds its last user's bytes. recycle: a kept block may serve the request.
void* map_large(size_t bytes, bool* zeroed, bool recycle);
// A map_large block back: kept for reuse when `recycle` and there is room,
// else unmapped. False when p is not a map_large block.
bool unmap_large(void* p, bool recycle);
// The length of a live map_large block (what it may grow to in place), 0
// for any other pointer.
size_t large_length(void* p);

}  // namespace kiln
