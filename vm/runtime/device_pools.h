// Where the device pools of a tree's pointer and dynamic SNodes lie under
// arch=cuda (and on the CPU with KILN_DEVICE_POOLS=1): after the tree's
// containers and in the same buffer, a region per such SNode holding every
// block it can ever need, behind pool.h's PoolRegionHeader. (Vulkan sizes
// its regions to a 2 GiB window instead: layout.cpp.) The geometry is a
// function of the layout alone, so code generators compute it whether or not
// this process reserved the regions (`kiln dis --ptx` under arch=cpu emits
// what arch=cuda runs).
#pragma once
#include <cstdint>
#include <vector>

namespace kiln {

struct SNode;

struct DevicePoolRegion {
  SNode* snode;
  int64_t at;      // the region's header, in bytes from the tree's base
  int64_t block;   // bytes a block (16-byte aligned)
  int64_t blocks;  // capacity: one per cell of every container a pointer can have, one per chunk for dynamic
  // Bytes from the header to block 0: the header, then a u32 free-stack link per block.
  int64_t blocks_at() const { return 64 + (blocks * 4 + 63) / 64 * 64; }
};

// The regions of the tree under `root` (laid out), in the order they follow
// its containers (from the first 64-byte boundary after them); returns the
// bytes they take. A size past any machine's saturates at 2^56.
int64_t device_pool_regions(SNode& root, std::vector<DevicePoolRegion>& regions);

}  // namespace kiln
