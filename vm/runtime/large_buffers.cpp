// Large buffers (large_buffers.h).
#include "vm/runtime/large_buffers.h"

#include <sys/mman.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace kiln {

namespace {

constexpr size_t kHugePage = (size_t)2 << 20;
// What released blocks may hold in all: a few arrays of a large field's size
// (a 4096x4096 f32 field is 64 MiB), not a program's whole history.
constexpr size_t kKeepBytes = (size_t)256 << 20;

std::mutex mu;
struct State {
  std::map<void*, size_t> mapped;                 // every live block and its length
  std::vector<std::pair<void*, size_t>> kept;     // released, oldest first
  size_t kept_bytes = 0;
};
State& state() {
  static State* s = new State;  // (never destroyed: buffers may be released during exit)
  return *s;
}

// A fresh mapping on 2 MiB pages where the kernel has transparent huge pages
// ("always" or "madvise"). It starts on a 2 MiB boundary (the kernel backs only
// aligned 2 MiB ranges with a huge page) and ends on one; fresh anonymous
// pages read zero. A huge page is committed whole on first touch: the tail
// past `bytes` costs at most one.
void* map_fresh(size_t len) {
  void* raw = mmap(nullptr, len + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  uintptr_t at = ((uintptr_t)raw + kHugePage - 1) & ~(uintptr_t)(kHugePage - 1);
  size_t head = at - (uintptr_t)raw, tail = kHugePage - head;
  if (head) munmap(raw, head);
  if (tail) munmap((void*)(at + len), tail);
  madvise((void*)at, len, MADV_HUGEPAGE);  // (a kernel without THP refuses: 4 KiB pages then)
  return (void*)at;
}

}  // namespace

void* map_large(size_t bytes, bool* zeroed, bool recycle) {
  size_t len = (bytes + kHugePage - 1) & ~(kHugePage - 1);
  if (len == 0) len = kHugePage;
  State& s = state();
  if (recycle) {
    std::lock_guard<std::mutex> lock(mu);
    // The most recently released block of the size, or up to a quarter larger.
    for (size_t k = s.kept.size(); k-- > 0;) {
      auto [p, n] = s.kept[k];
      if (n < len || n - len > len / 4) continue;
      s.kept.erase(s.kept.begin() + (ptrdiff_t)k);
      s.kept_bytes -= n;
      s.mapped[p] = n;
      if (zeroed) *zeroed = false;
      return p;
    }
  }
  void* p = map_fresh(len);
  if (!p) return nullptr;
  std::lock_guard<std::mutex> lock(mu);
  s.mapped[p] = len;
  if (zeroed) *zeroed = true;
  return p;
}

bool unmap_large(void* p, bool recycle) {
  State& s = state();
  std::vector<std::pair<void*, size_t>> drop;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = s.mapped.find(p);
    if (it == s.mapped.end()) return false;
    size_t len = it->second;
    s.mapped.erase(it);
    if (recycle && len <= kKeepBytes) {
      s.kept.emplace_back(p, len);
      s.kept_bytes += len;
      while (s.kept_bytes > kKeepBytes) {  // the oldest go
        drop.push_back(s.kept.front());
        s.kept_bytes -= s.kept.front().second;
        s.kept.erase(s.kept.begin());
      }
    } else {
      drop.emplace_back(p, len);
    }
  }
  for (auto& [q, n] : drop) munmap(q, n);  // (outside the lock: munmap of 64 MiB takes ~100 us)
  return true;
}

size_t large_length(void* p) {
  std::lock_guard<std::mutex> lock(mu);
  auto it = state().mapped.find(p);
  return it == state().mapped.end() ? 0 : it->second;
}

}  // namespace kiln
