// SNodePool: fixed-size zeroed blocks over mimalloc slabs, with a free list;
// or, for a device pool, a region whose header's free stack and bump counter
// the host updates with the same atomics as device code (Vulkan's shaders,
// jit/llvm/lower_pools.cpp for CUDA and KILN_DEVICE_POOLS=1), so the two may
// even race.
#include "vm/runtime/pool.h"

#include <mimalloc.h>

#include <algorithm>
#include <cstring>

#include "vm/support/diag.h"

namespace kiln {

SNodePool::SNodePool(size_t bytes, size_t a) : block_bytes(bytes), align(std::max<size_t>(a, 8)) {
  block_bytes = (std::max<size_t>(block_bytes, 1) + align - 1) / align * align;
}

namespace {
// Free-stack link of block i of a device pool (see the constructor).
uint32_t& region_link(PoolRegionHeader* h, uint32_t i) {
  return reinterpret_cast<uint32_t*>(reinterpret_cast<uint8_t*>(h) + sizeof(PoolRegionHeader))[i];
}
}  // namespace

SNodePool::SNodePool(size_t bytes, uint8_t* r, int64_t capacity) : block_bytes(bytes), align(16) {
  // The free stack's links (a u32 per block) come after the header, then the
  // blocks: a link never lives in a block, so taking a block writes nothing
  // (a shader clearing a popped block's link word lost updates on lavapipe).
  region = reinterpret_cast<PoolRegionHeader*>(r);
  size_t links = ((size_t)capacity * 4 + 63) / 64 * 64;
  region->base = (uint64_t)(uintptr_t)(r + sizeof(PoolRegionHeader) + links);
  region->capacity = (uint32_t)capacity;
}

SNodePool::~SNodePool() {
  for (void* s : slabs_) mi_free(s);
}

void* SNodePool::alloc() {
  if (region) {
    // Native code pops and bumps the same header with atomics
    // (jit/llvm/lower_pools.cpp): so does the host.
    auto* blocks = reinterpret_cast<uint8_t*>(region->base);
    std::atomic_ref<uint64_t> head(region->head);
    uint64_t old = head.load(std::memory_order_acquire);
    uint8_t* b = nullptr;
    while (!b && (uint32_t)old) {
      uint32_t top = (uint32_t)old;
      uint32_t next = std::atomic_ref<uint32_t>(region_link(region, top - 1)).load(std::memory_order_relaxed);
      if (head.compare_exchange_weak(old, ((old >> 32) + 1) << 32 | next, std::memory_order_acq_rel,
                                     std::memory_order_acquire))
        b = blocks + (size_t)(top - 1) * block_bytes;
    }
    if (!b) {
      std::atomic_ref<uint32_t> bump(region->bump);
      uint32_t n = bump.load(std::memory_order_relaxed);
      do {
        if (n >= region->capacity)
          raise("MemoryError", "out of memory: the device pool of a sparse SNode is full (" +
                                   std::to_string(region->capacity) + " blocks of " + std::to_string(block_bytes) + " bytes)");
      } while (!bump.compare_exchange_weak(n, n + 1, std::memory_order_relaxed));
      b = blocks + (size_t)n * block_bytes;
    }
    std::atomic_ref<int32_t>(region->in_use).fetch_add(1, std::memory_order_relaxed);
    return b;
  }
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
    sorted_ = free_.size();
    reserved.fetch_add((int64_t)n, std::memory_order_relaxed);
  } else if (size_t tail = free_.size() - sorted_; tail >= std::max<size_t>(64, sorted_ / 4)) {
    // Many blocks came back since the last sort (a stack would hand them out
    // in reverse release order: after deactivate_all, a layout that a sweep
    // over the refilled lists walked 1.5x slower than a fresh fill's, in the
    // bench's sparse_lists). Sorting only big tails keeps the cost O(log n)
    // a release.
    auto desc = [](void* a, void* b) { return a > b; };
    std::sort(free_.begin() + (ptrdiff_t)sorted_, free_.end(), desc);
    std::inplace_merge(free_.begin(), free_.begin() + (ptrdiff_t)sorted_, free_.end(), desc);
    sorted_ = free_.size();
  }
  void* b = free_.back();
  free_.pop_back();
  sorted_ = std::min(sorted_, free_.size());
  in_use.fetch_add(1, std::memory_order_relaxed);
  return b;
}

void SNodePool::release(void* block) {
  std::memset(block, 0, block_bytes);
  if (region) {
    auto index = (uint32_t)((static_cast<uint8_t*>(block) - reinterpret_cast<uint8_t*>(region->base)) / block_bytes);
    std::atomic_ref<uint64_t> head(region->head);
    std::atomic_ref<uint32_t> link(region_link(region, index));
    uint64_t old = head.load(std::memory_order_acquire);
    do {
      link.store((uint32_t)old, std::memory_order_relaxed);
    } while (!head.compare_exchange_weak(old, ((old >> 32) + 1) << 32 | (index + 1), std::memory_order_acq_rel,
                                         std::memory_order_acquire));
    std::atomic_ref<int32_t>(region->in_use).fetch_sub(1, std::memory_order_relaxed);
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  free_.push_back(block);
  in_use.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace kiln
