// SNodePool: fixed-size zeroed blocks over mimalloc slabs, with a free list.
#include "vm/runtime/pool.h"

#include <mimalloc.h>

#include <algorithm>
#include <cstring>

#include "vm/support/diag.h"

namespace kiln {

SNodePool::SNodePool(size_t bytes, size_t a) : block_bytes(bytes), align(std::max<size_t>(a, 8)) {
  block_bytes = (std::max<size_t>(block_bytes, 1) + align - 1) / align * align;
}

SNodePool::~SNodePool() {
  for (void* s : slabs_) mi_free(s);
}

void* SNodePool::alloc() {
  std::lock_guard<std::mutex> lock(mu_);
  if (free_.empty()) {
    // Slabs grow geometrically up to 64 MiB each: big grids need few of them,
    // small programs waste little. Blocks of more than 4 MiB come one a slab,
    // so a huge block never asks for 16 of itself.
    const size_t cap = (size_t)64 << 20;
    size_t n = std::max<size_t>(1, std::min(next_slab_blocks_, cap / block_bytes));
    if (n * block_bytes < cap) next_slab_blocks_ *= 2;
    void* slab = mi_zalloc_aligned(n * block_bytes, std::max<size_t>(align, 64));
    if (!slab)
      raise("MemoryError", "out of memory: cannot allocate " + std::to_string(n * block_bytes) +
                               " bytes for sparse SNode cells");
    slabs_.push_back(slab);
    // Hand out blocks in address order (the free list is a stack).
    for (size_t i = n; i-- > 0;) free_.push_back(static_cast<uint8_t*>(slab) + i * block_bytes);
    reserved.fetch_add((int64_t)n, std::memory_order_relaxed);
  }
  void* b = free_.back();
  free_.pop_back();
  in_use.fetch_add(1, std::memory_order_relaxed);
  return b;
}

void SNodePool::release(void* block) {
  std::memset(block, 0, block_bytes);
  std::lock_guard<std::mutex> lock(mu_);
  free_.push_back(block);
  in_use.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace kiln
