// A trace compile's scratch memory: the per-ref flags, the planner's, the
// register allocator's and the backend's vectors come from one block per
// thread, taken in order and taken again from its start by the next compile,
// instead of ~70 mallocs and frees a compile. A compile runs on cold caches:
// each malloc read its free list's next block (a miss before the memory is
// even written) and mimalloc's page headers, spread over a page per size
// class; here the memory is one run of lines, written first, the same lines
// every compile (docs/perf/latency.md, "Trace compile latency, session 33").
//
// ScratchAlloc<T> takes from the block while a ScratchScope is open on the
// thread (compile_trace opens one), else from the heap, so a ScratchVec made
// elsewhere (a test, a dump) is an ordinary vector. The block is rewound when
// the outermost scope closes with nothing of it still allocated; a vector that
// outlives the compile keeps its memory (the block then goes on from there, and
// past its end allocations come from the heap). What a thread takes from its
// block must be freed on that thread.
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace kiln::jit {

namespace scratch {
void* take(size_t bytes);            // 16-byte aligned; the heap's outside a scope or past the block
void give(void* p, size_t bytes);    // p from take
size_t block_bytes();                // the thread's block (0 before its first scope)
bool in_block(const void* p);        // p lies in the thread's block
}  // namespace scratch

// Open on a thread: its ScratchAllocs take from the thread's block.
class ScratchScope {
 public:
  ScratchScope();
  ~ScratchScope();
  ScratchScope(const ScratchScope&) = delete;
  ScratchScope& operator=(const ScratchScope&) = delete;
};

template <class T>
struct ScratchAlloc {
  static_assert(alignof(T) <= 16, "scratch memory is 16-byte aligned");
  using value_type = T;
  ScratchAlloc() = default;
  template <class U>
  ScratchAlloc(const ScratchAlloc<U>&) noexcept {}
  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(scratch::take(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept { scratch::give(p, n * sizeof(T)); }
  friend bool operator==(ScratchAlloc, ScratchAlloc) { return true; }
};

template <class T>
using ScratchVec = std::vector<T, ScratchAlloc<T>>;

}  // namespace kiln::jit
