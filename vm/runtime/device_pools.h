// Where the device pools of a tree's pointer and dynamic SNodes lie under
// arch=cuda (and on the CPU with KILN_DEVICE_POOLS=1): after the tree's
// containers and in the same buffer, first the tree's device counters, then a
// region per such SNode behind pool.h's PoolRegionHeader. A region holds
// every block its SNode can ever need when all the regions fit the budget
// (ti.init(device_memory_GB), Taichi's 1 GiB by default); else the pools
// share the budget in proportion to their need, and the activation that
// needs one block too many is a MemoryError (docs/cuda_sparse.md). (Vulkan
// sizes its regions to a 2 GiB window instead: layout.cpp.) The geometry is a
// function of the layout and the budget alone, so code generators compute it
// whether or not this process reserved the regions (`kiln dis --ptx` under
// arch=cpu emits what arch=cuda runs).
#pragma once
#include <cstdint>
#include <vector>

namespace kiln {

struct SNode;

struct DevicePoolRegion {
  SNode* snode;
  int64_t at;      // the region's header, in bytes from the tree's base
  int64_t block;   // bytes a block (16-byte aligned)
  int64_t blocks;  // capacity: every block it could need (one per cell of every container a pointer can have, one
                   // per chunk for dynamic), or its share of the budget
  int64_t need;    // every block it could need
  // Bytes from the header to block 0: the header, then a u32 free-stack link per block.
  int64_t blocks_at() const { return 64 + (blocks * 4 + 63) / 64 * 64; }
};

// The counters device code adds to as the runtime adds to
// Program::n_activations and n_deactivations (u64 words, relaxed atomic
// adds), at device_counters_at from the tree's base; the host adds them in
// Program::collect_stats.
enum DeviceCounter { kDeviceActivations = 0, kDeviceDeactivations = 1 };
constexpr int64_t kDeviceCountersBytes = 64;
// The first 64-byte boundary after the tree's containers.
int64_t device_counters_at(const SNode& root);

// device_memory_GB in bytes (MemoryError for a budget that is not positive).
int64_t device_pool_budget(double device_memory_gb);

// The regions of the tree under `root` (laid out), in the order they follow
// its counters, within `budget` bytes; returns the bytes they take. A tree
// whose pools cannot have one block each within the budget is a MemoryError.
int64_t device_pool_regions(SNode& root, int64_t budget, std::vector<DevicePoolRegion>& regions);

}  // namespace kiln
