// A tree's zeroed buffer when no AllocHooks are set: mimalloc's, except for
// the large buffers of device-pool trees (KILN_DEVICE_POOLS=1 on the CPU),
// whose regions (up to ti.init(device_memory_GB), 1 GiB by default) are
// mapped fresh from the OS: its pages read zero and are committed on first
// touch, so a region costs the blocks a program takes. (mi_zalloc clears
// such a buffer page by page: 1 GiB took ~4.6 s and 1 GiB of memory.)
#pragma once
#include <cstddef>

namespace kiln {

void* alloc_tree_memory(size_t bytes, size_t align, bool device_pools);
void free_tree_memory(void* p);  // either kind; null is a no-op

}  // namespace kiln
