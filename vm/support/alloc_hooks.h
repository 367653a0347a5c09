// An embedding application's allocator (kiln_config.alloc / dealloc): when
// set, the runtime takes field storage from it instead of mimalloc. Plain
// function pointers, so that memory can be freed after the VM is gone.
#pragma once
#include <cstddef>

namespace kiln {

struct AllocHooks {
  void* (*alloc)(void* user, size_t size, size_t alignment) = nullptr;
  void (*dealloc)(void* user, void* ptr, size_t size) = nullptr;
  void* user = nullptr;
  // alloc returns zeroed memory (a backend's own: Vulkan maps fresh pages the
  // OS commits on first touch), so the runtime does not clear it, which would
  // commit every page of a mostly untouched device pool.
  bool zeroed = false;
  bool set() const { return alloc != nullptr; }
};

}  // namespace kiln
