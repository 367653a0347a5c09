// Tree buffers (tree_memory.h).
#include "vm/runtime/tree_memory.h"

#include <mimalloc.h>
#include <sys/mman.h>

#include <cstdint>
#include <map>
#include <mutex>

namespace kiln {

namespace {

constexpr size_t kMapFrom = (size_t)64 << 20;  // smaller buffers: mimalloc's clearing is cheap
constexpr size_t kHugePage = (size_t)2 << 20;
// Dense buffers from this size on are mapped on 2 MiB pages (map_huge).
constexpr size_t kHugeFrom = (size_t)4 << 20;

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

// A large buffer a loop streams through, on transparent huge pages where the
// kernel has them (THP "always" or "madvise"): one TLB entry covers 2 MiB, not
// 4 KiB. A loop over a 64 MiB field otherwise takes a page walk every 64 cache
// lines, and on a virtual machine (nested paging) each walk reads both guest
// and host tables: bench/saxpy's 2^24-element loop ran ~13% faster so (CPU
// time, alternating; docs/perf/memory.md), and g++'s own loop as much when glibc's
// malloc is told to use them. The mapping starts on a 2 MiB boundary (the
// kernel backs only aligned 2 MiB ranges with a huge page) and ends on one;
// fresh anonymous pages read zero, so there is nothing to clear. A huge page
// is committed whole on first touch: the tail past `bytes` costs at most one.
void* map_huge(size_t bytes) {
  size_t len = (bytes + kHugePage - 1) & ~(kHugePage - 1);
  void* raw = mmap(nullptr, len + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  uintptr_t at = ((uintptr_t)raw + kHugePage - 1) & ~(uintptr_t)(kHugePage - 1);
  size_t head = at - (uintptr_t)raw, tail = kHugePage - head;
  if (head) munmap(raw, head);
  if (tail) munmap((void*)(at + len), tail);
  madvise((void*)at, len, MADV_HUGEPAGE);  // (a kernel without THP refuses: 4 KiB pages then)
  return remember((void*)at, len);
}

}  // namespace

void* alloc_tree_memory(size_t bytes, size_t align, bool device_pools) {
  if (!device_pools) {
    if (bytes >= kHugeFrom && align <= kHugePage) return map_huge(bytes);
    return mi_zalloc_aligned(bytes, align);
  }
  if (bytes < kMapFrom || align > 4096) return mi_zalloc_aligned(bytes, align);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  return remember(p, bytes);
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
