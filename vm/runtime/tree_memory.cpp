// Tree buffers (tree_memory.h).
#include "vm/runtime/tree_memory.h"

#include <mimalloc.h>
#include <sys/mman.h>

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

}  // namespace

void* alloc_tree_memory(size_t bytes, size_t align, bool device_pools) {
  if (!device_pools || bytes < kMapFrom || align > 4096) return mi_zalloc_aligned(bytes, align);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  std::lock_guard<std::mutex> lock(mapped_mu);
  mapped()[p] = bytes;
  return p;
}

void free_tree_memory(void* p) {
  if (!p) return;
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
