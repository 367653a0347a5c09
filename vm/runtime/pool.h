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

// A device pool (Vulkan: a pointer or dynamic SNode whose cells a shader
// allocates) is a region of the tree's own buffer reserved up front for every
// block the SNode can ever need, behind a header that host and device share:
// a bump counter, and a free stack linked through the blocks' first word with
// a version in its head (device pushes and pops race; the version stops ABA).
// The host uses the same header between launches (it syncs the device before
// touching fields), so blocks freed on either side are reused on both.
struct PoolRegionHeader {
  uint64_t base;      // host address of block 0 (slots hold host addresses)
  uint64_t head;      // free stack: version << 32 | (block index + 1), 0 when empty
  uint32_t bump;      // blocks taken from the region so far
  uint32_t capacity;  // blocks the region holds
  int32_t in_use;     // blocks handed out and not released
  uint32_t pad[9];
};
static_assert(sizeof(PoolRegionHeader) == 64);

struct SNodePool {
  SNodePool(size_t block_bytes, size_t align);
  // A device pool in `region` (header, then `capacity` blocks; zeroed).
  SNodePool(size_t block_bytes, uint8_t* region, int64_t capacity);
  ~SNodePool();
  SNodePool(const SNodePool&) = delete;
  SNodePool& operator=(const SNodePool&) = delete;

  void* alloc();               // a zeroed block; throws MemoryError when the system has none
  void release(void* block);   // zeroes the block and keeps it for reuse

  size_t block_bytes;
  size_t align;
  std::atomic<int64_t> in_use{0};    // blocks handed out and not released
  std::atomic<int64_t> reserved{0};  // blocks obtained from the system (in use + free)
  PoolRegionHeader* region = nullptr;  // a device pool's header (null: mimalloc slabs)
  int64_t blocks_in_use() const { return region ? region->in_use : in_use.load(); }
  int64_t blocks_reserved() const { return region ? region->bump : reserved.load(); }

 private:
  std::mutex mu_;
  // Free blocks, popped from the back. free_[0, sorted_) is in descending
  // address order; blocks released since then sit after it, and once they are
  // many the whole list is sorted again (alloc), so a refill after a big
  // release (deactivate_all) takes blocks lowest address first, as a fresh
  // pool does; a few releases stay last-in first-out (their lines are warm).
  std::vector<void*> free_;
  size_t sorted_ = 0;
  std::vector<void*> slabs_;
  size_t next_slab_blocks_ = 16;     // slabs double, so few system calls even for big grids
};

}  // namespace kiln
