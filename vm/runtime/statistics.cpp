// The statistics counters' text (statistics.h).
#include "vm/runtime/statistics.h"

#include <cstdio>

#include "vm/runtime/device_pools.h"
#include "vm/runtime/pool.h"
#include "vm/runtime/program.h"

namespace kiln {

bool is_run_counter(const std::string& key) {
  // Launches per device ("launches on vulkan"), each engine's or tier's own
  // counters, the offline cache's traffic, and what the pools reserved: a
  // CPU pool takes blocks from the system in slabs (16 blocks, then
  // doubling), a device pool block by block from its region.
  for (const char* prefix : {"launches on ", "vulkan_", "llvm_", "cuda_", "tier_", "offline_cache_"})
    if (key.rfind(prefix, 0) == 0) return true;
  return key == "snode_pool_reserved_bytes";
}

void Program::collect_stats() {
  // Counters that threads bump with atomics land in `stats` here, so
  // print_statistics shows one table.
  // Device code (device pools' trees: arch=cuda, KILN_DEVICE_POOLS=1)
  // counts in the trees' memory: read once the device is idle.
  int64_t activations = n_activations.load(), deactivations = n_deactivations.load();
  bool device_counted = false;
  for (auto& t : trees) device_counted |= t->device_counters != nullptr;
  if (device_counted && engine) engine->sync();
  for (auto& t : trees)
    if (t->device_counters) {
      activations += (int64_t)t->device_counters[kDeviceActivations];
      deactivations += (int64_t)t->device_counters[kDeviceDeactivations];
    }
  stats["snode_activations"] = (double)activations;
  stats["snode_deactivations"] = (double)deactivations;
  stats["listgen_elements"] = (double)n_listgen_elements.load();
  stats["listgen_time_ms"] = (double)listgen_ns.load() / 1e6;
  // The pools' bytes are those of the blocks in use, the pointer cells and
  // dynamic chunks that are active now: a property of the program, the same
  // on every engine; the reserved bytes are the allocator's.
  int64_t used = 0, reserved = 0;
  for (SNode* s : snode_by_id)
    if (s && s->pool) {
      used += s->pool->blocks_in_use() * (int64_t)s->pool->block_bytes;
      reserved += s->pool->blocks_reserved() * (int64_t)s->pool->block_bytes;
    }
  stats["snode_pool_bytes"] = (double)used;
  stats["snode_pool_reserved_bytes"] = (double)reserved;
}

std::string counters_text(Program& p, bool run_counters) {
  p.collect_stats();
  std::string out;
  for (auto& [k, v] : p.stats) {
    if (k.size() > 8 && k.compare(k.size() - 8, 8, "_time_ms") == 0) continue;
    if (!run_counters && is_run_counter(k)) continue;
    char buf[64];
    if (v == (double)(int64_t)v) snprintf(buf, sizeof buf, "%lld", (long long)v);
    else snprintf(buf, sizeof buf, "%.6g", v);
    out += k + ": " + buf + "\n";
  }
  return out;
}

std::string Program::statistics_text() { return counters_text(*this, true); }

}  // namespace kiln
