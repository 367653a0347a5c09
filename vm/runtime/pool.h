// Per-SNode memory pools for pointer cells and dynamic chunks.
//
// Every block of one pool has the same size. Freed blocks are zeroed and kept
// on a free list, so a program that activates and deactivates in a loop
// reuses the same memory (steady footprint) and a reactivated cell reads 0.
// Fresh blocks come from mimalloc in slabs that grow on demand without a cap.
// alloc/release take a mutex: activation is once per block, and the slot
// itself is claimed by compare-and-swap (sparse.cpp), so a loser gives its
// block straight back.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace kiln {

struct SNodePool {
  SNodePool(size_t block_bytes, size_t align);
  ~SNodePool();
  SNodePool(const SNodePool&) = delete;
  SNodePool& operator=(const SNodePool&) = delete;

  void* alloc();               // a zeroed block; throws MemoryError when the system has none
  void release(void* block);   // zeroes the block and keeps it for reuse

  size_t block_bytes;
  size_t align;
  std::atomic<int64_t> in_use{0};    // blocks handed out and not released
  std::atomic<int64_t> reserved{0};  // blocks obtained from the system (in use + free)

 private:
  std::mutex mu_;
  std::vector<void*> free_;
  std::vector<void*> slabs_;
  size_t next_slab_blocks_ = 16;     // slabs double, so few system calls even for big grids
};

}  // namespace kiln
