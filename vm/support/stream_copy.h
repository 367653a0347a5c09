// memcpy for buffers larger than the last-level cache, with streaming
// (non-temporal) stores.
//
// A plain store to a line not in the cache first reads the line (write
// allocate): a copy of n bytes moves 3n over the memory bus, and the copy
// leaves the cache full of the destination's tail, which a buffer larger
// than the cache cannot use anyway. Streaming stores write whole lines to
// memory without reading them. glibc's memcpy on this project's AMD EPYC
// (glibc 2.36, rep movsb at these sizes) copied 64 MiB between 2 MiB-page
// buffers at 24-25 GB/s, 32-byte streaming stores at 38-42 GB/s (CPU time,
// best of 9, load 5.4; docs/perf/memory.md "Memory-bound loops, session 30").
// Smaller copies are memcpy's: their destination is likely read next, from
// the cache.
#pragma once
#include <cstddef>

namespace kiln {

// The size from which stream_copy streams: the last-level cache's size
// (sysfs), 32 MiB where the system does not say.
size_t stream_copy_from();

// memcpy(dst, src, n): the ranges must not overlap. Its stores are ordered
// (an sfence) before it returns, as memcpy's are to other threads.
void stream_copy(void* dst, const void* src, size_t n);

}  // namespace kiln
