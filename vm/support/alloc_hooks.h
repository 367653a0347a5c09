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
  bool set() const { return alloc != nullptr; }
};

}  // namespace kiln
