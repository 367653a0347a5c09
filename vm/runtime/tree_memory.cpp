// Tree buffers (tree_memory.h).
#include "vm/runtime/tree_memory.h"

#include "vm/runtime/large_buffers.h"

#include <mimalloc.h>
#include <sys/mman.h>

#include <cstdint>
#include <map>
#include <mutex>

namespace kiln {

namespace {

constexpr size_t kMapFrom = (size_t)64 << 20;  // smaller buffers: mimalloc's clearing is cheap

// The buffers mapped here and their sizes (free_tree_memory unmaps them).
std::mutex mapped_mu;
std::map<void*, size_t>& mapped() {
  static std::map<void*, size_t> m;
  return m;
}

void* remember(void* p, size_t bytes) {
  std::lock_guard<std::mutex> lock(mapped_mu);
  mapped()[p] = bytes;
  return p;
}

}  // namespace

void* alloc_tree_memory(size_t bytes, size_t align, bool device_pools) {
  if (!device_pools) {
    // A dense buffer a loop streams through, on 2 MiB pages (large_buffers.h):
    // bench/saxpy's 2^24-element loop ran ~13% faster so (CPU time,
    // alternating; docs/perf/memory.md), and g++'s own loop as much when glibc's
    // malloc is told to use them. Never a kept block: a tree's buffer must read zero.
    if (bytes >= kLargeBuffer && align <= ((size_t)2 << 20)) return map_large(bytes, nullptr, false);
    return mi_zalloc_aligned(bytes, align);
  }
  if (bytes < kMapFrom || align > 4096) return mi_zalloc_aligned(bytes, align);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  return remember(p, bytes);
}

void free_tree_memory(void* p) {
  if (!p || unmap_large(p, false)) return;
  {
    std::lock_guard<std::mutex> lock(mapped_mu);
    auto it = mapped().find(p);
    if (it != mapped().end()) {
      munmap(p, it->second);
      mapped().erase(it);
      return;
    }
  }
  mi_free(p);
}

}  // namespace kiln
