// Layout: turning an SNode tree into bytes, and finding an element in them.
//
// A cell holds its components' containers one after another (AoS), each at its
// natural alignment; a container is num_cells cells back to back; a place
// container is one element. So for root.dense(ti.i, 4).place(x, y) with x: f32
// and y: f64 the dense cell is {x @0, pad, y @8}, 16 bytes, and x[i] lives at
// i * 16. One zeroed buffer holds the whole tree, so reading a never-written
// element gives 0 as Taichi promises.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "vm/runtime/device_pools.h"
#include "vm/runtime/program.h"
#include "vm/runtime/sizes.h"
#include "vm/runtime/tree_memory.h"

namespace kiln {

namespace {

// Sizes past int64 are requests no machine can meet: MemoryError, as the
// checks of Program's creation functions report them.
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) check_memory(-1, {});
  return r;
}

int64_t align_up(int64_t v, int64_t a) {
  int64_t r;
  if (__builtin_add_overflow(v, a - 1, &r)) check_memory(-1, {});
  return r / a * a;
}

// Sizes every container below (and including) s; returns s's alignment, the
// largest element alignment inside it. Cells are padded to that alignment so
// that every cell of an array of cells is aligned like the first.
int64_t lay_out(SNode& s) {
  if (s.kind == SNodeKind::place) {
    int64_t bytes = std::max(1, prim_bits(s.dtype) / 8);
    s.cell_size = 0;  // place containers have no cells
    s.container_size = bytes;
    return bytes;
  }
  int64_t offset = 0, align = 1;
  for (auto& c : s.children) {
    int64_t a = lay_out(*c);
    offset = align_up(offset, a);
    c->offset_in_cell = offset;
    if (__builtin_add_overflow(offset, c->container_size, &offset)) check_memory(-1, {});
    align = std::max(align, a);
  }
  if (s.quant_array_bits) {
    // Every cell is a bit slice of the one word: all cells share its address.
    s.cell_size = 0;
    s.container_size = offset;
    return align;
  }
  s.cell_size = align_up(std::max<int64_t>(offset, 1), align);
  int64_t n = s.num_cells();
  switch (s.kind) {
    case SNodeKind::pointer:
      // Inline: one cell pointer per cell; the cells come from the pool.
      s.block_bytes = s.cell_size;
      check_memory(s.block_bytes, {});  // one cell is one allocation
      s.container_size = checked_mul(n, 8);
      return 8;
    case SNodeKind::dynamic: {
      // Inline: the length, then one pointer per chunk of chunk_size cells.
      int64_t chunks = (n + s.chunk_size - 1) / s.chunk_size;
      s.block_bytes = checked_mul(s.chunk_size, s.cell_size);
      check_memory(s.block_bytes, {});  // one chunk is one allocation
      s.container_size = checked_mul(chunks + 1, 8);
      return 8;
    }
    case SNodeKind::bitmasked:
      // Inline cells, then one activity bit per cell in 64-bit words.
      s.mask_offset = align_up(checked_mul(n, s.cell_size), 8);
      s.container_size = s.mask_offset + (n + 63) / 64 * 8;
      return std::max<int64_t>(align, 8);
    default:
      s.container_size = checked_mul(n, s.cell_size);
      return align;
  }
}

// The containers above a place, root first.
std::vector<const SNode*> levels_above(const SNode* place) {
  std::vector<const SNode*> v;
  for (const SNode* a = place->parent; a; a = a->parent) v.push_back(a);
  std::reverse(v.begin(), v.end());
  return v;
}

// Byte offset of element (0, 0, ...) inside the tree: the place's container
// sits at its offset in cell 0 of every level above.
int64_t base_offset(const SNode* place) {
  int64_t off = 0;
  for (const SNode* a = place; a; a = a->parent) off += a->offset_in_cell;
  return off;
}

std::string plural(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// A device pool for each pointer/dynamic SNode of a tree (arch=vulkan; for
// arch=cuda see budgeted_device_pools): a
// shader cannot follow pointers into host slabs nor allocate from them, so
// the SNode's blocks are a region after the tree's containers in the same
// buffer (pool.h's PoolRegionHeader). Shaders address that buffer in u32
// bytes, so a tree is a window of at most 2 GiB; the Vulkan backend maps it
// as fresh pages the OS commits on first touch (AllocHooks::zeroed), so a
// region costs only the blocks a program uses. A region holds every block its
// SNode can ever need (one per cell of every container a pointer can have;
// one per chunk for dynamic) when all of them fit in the window; else the
// pools share the window in proportion to their need, and a pool that fills
// up is a MemoryError at the activation that needs one block too many.
struct DevicePool {
  SNode* snode;
  int64_t at, block, need;  // region offset in the tree, block bytes, blocks it could ever need
  int64_t blocks = 0;       // its capacity
};

constexpr int64_t kDeviceWindow = (int64_t)1 << 31;
constexpr int64_t kHuge = (int64_t)1 << 56;  // "more than any window": saturating sizes
// A device pool's capacity at most: its header counts blocks in u32, and
// failed bumps go on counting past the capacity.
constexpr int64_t kMaxDeviceBlocks = (int64_t)1 << 31;

std::string gb_text(double gb) {  // 4 digits: a budget in bytes back in GiB reads as the user wrote it
  char buf[32];
  snprintf(buf, sizeof buf, "%.4g", gb);
  return buf;
}

int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) || r > kHuge ? kHuge : r;
}

void collect_pools(SNode& s, int64_t containers, std::vector<DevicePool>& out) {
  if (s.kind == SNodeKind::pointer || s.kind == SNodeKind::dynamic) {
    int64_t per = s.kind == SNodeKind::pointer ? s.num_cells() : (s.num_cells() + s.chunk_size - 1) / s.chunk_size;
    out.push_back({&s, 0, align_up(std::max<int64_t>(s.block_bytes, 1), 16), sat_mul(containers, per)});
  }
  if (s.kind != SNodeKind::place)
    for (auto& c : s.children) collect_pools(*c, sat_mul(containers, s.num_cells()), out);
}

// Header, a u32 free-stack link per block (pool.cpp), the blocks.
int64_t region_bytes(int64_t block, int64_t blocks) {
  return (int64_t)sizeof(PoolRegionHeader) + align_up(sat_mul(blocks, 4), 64) + sat_mul(blocks, block);
}

// Capacities (need scaled by f, at least 1 block) and their bytes in all.
int64_t size_pools(std::vector<DevicePool>& pools, double f) {
  int64_t total = 0;
  for (DevicePool& p : pools) {
    p.blocks = std::max<int64_t>(1, f >= 1 ? p.need : (int64_t)((double)p.need * f));
    total = std::min(kHuge, total + region_bytes(p.block, p.blocks));
  }
  return total;
}

// Lays out the device pools of a tree whose containers end at `start`:
// returns their bytes (0: none), each pool's region and capacity in `pools`.
int64_t lay_out_device_pools(SNode& root, int64_t start, size_t tree, std::vector<DevicePool>& pools) {
  collect_pools(root, 1, pools);
  if (pools.empty()) return 0;
  int64_t room = kDeviceWindow - start, total = size_pools(pools, 1.0);
  if (total > room) {
    // The largest share of every pool's need that fits (bisection on f).
    double lo = 0, hi = 1;
    for (int i = 0; i < 64; i++) {
      double mid = (lo + hi) / 2;
      (size_pools(pools, mid) <= room ? lo : hi) = mid;
    }
    total = size_pools(pools, lo);
    if (total > room)
      raise("MemoryError", "vulkan: SNode tree " + std::to_string(tree) + " does not fit the device: its containers (" +
                               std::to_string(start) + " bytes) and one block of each pointer/dynamic SNode's pool need " +
                               std::to_string(start + total) + " bytes, and a tree's device buffer holds at most 2 GiB");
  }
  int64_t at = start;
  for (DevicePool& p : pools) {
    p.at = at;
    at += region_bytes(p.block, p.blocks);
  }
  return total;
}

// Capacities with each region at most `cap` bytes (at least 1 block), and
// their bytes in all.
int64_t cap_pools(std::vector<DevicePool>& pools, int64_t cap) {
  int64_t total = 0;
  for (DevicePool& p : pools) {
    p.blocks = p.need;
    if (region_bytes(p.block, p.need) > cap)  // the blocks (and their links) that fit after the header
      p.blocks = std::clamp<int64_t>((cap - (int64_t)sizeof(PoolRegionHeader) - 64) / (p.block + 4), 1, p.need);
    total = std::min(kHuge, total + region_bytes(p.block, p.blocks));
  }
  return total;
}

// CUDA's pools (and the CPU's with KILN_DEVICE_POOLS=1), after the tree's
// counters: every block each pool can ever need when they all fit the budget
// (device_memory_GB); else the pools that need little get all of it and the
// others an equal share of the rest in bytes (the largest cap on a region's
// bytes that keeps the sum within the budget: a small pool beside a huge one
// is not starved, as it would be by shares in proportion to the need).
// Fresh blocks must read zero, and CUDA's managed memory is cleared when the
// tree is made, so the budget bounds what a tree costs on the device; the
// code generators compute the same geometry (device_pools.h).
int64_t budgeted_device_pools(SNode& root, int64_t budget, std::vector<DevicePool>& pools) {
  collect_pools(root, 1, pools);
  for (DevicePool& p : pools) p.need = std::min(p.need, kMaxDeviceBlocks);
  int64_t total = size_pools(pools, 1.0);
  if (total > budget) {
    int64_t lo = 0, hi = budget;  // the largest cap whose regions fit (the bytes grow with the cap)
    while (lo < hi) {
      int64_t mid = lo + (hi - lo + 1) / 2;
      if (cap_pools(pools, mid) <= budget) lo = mid;
      else hi = mid - 1;
    }
    total = cap_pools(pools, lo);
    if (total > budget) {
      std::string names;
      for (const DevicePool& p : pools) names += (names.empty() ? "" : ", ") + p.snode->name();
      raise("MemoryError", "the device pools of sparse SNodes " + names + " need " + std::to_string(total) +
                               " bytes for one block each, more than a tree's pools may take (" + std::to_string(budget) +
                               " bytes: ti.init(device_memory_GB=" + gb_text((double)budget / (double)(1ll << 30)) + "))");
    }
  }
  int64_t at = device_counters_at(root) + kDeviceCountersBytes;
  for (DevicePool& p : pools) {
    p.at = at;
    at += region_bytes(p.block, p.blocks);
  }
  return total;
}

}  // namespace

int64_t device_counters_at(const SNode& root) { return align_up(std::max<int64_t>(root.container_size, 1), 64); }

int64_t device_pool_budget(double gb) {
  if (!(gb > 0) || gb * (double)(1ll << 30) >= (double)kHuge)
    raise("ValueError", "device_memory_GB must be more than 0 and less than 2^26 (GiB), not " + gb_text(gb));
  return std::max<int64_t>((int64_t)(gb * (double)(1ll << 30)), 1);
}

int64_t device_pool_regions(SNode& root, int64_t budget, std::vector<DevicePoolRegion>& regions) {
  std::vector<DevicePool> pools;
  int64_t total = budgeted_device_pools(root, budget, pools);
  for (const DevicePool& p : pools) regions.push_back({p.snode, p.at, p.block, p.blocks, p.need});
  return total;
}

void Program::materialize() {
  materialize_trees();
  if (engine) engine->sync();
}

void Program::materialize_trees() {
  // Nothing to do since the last check: no field declared, no tree opened,
  // and no open tree left but an empty one (the last tree; it is the only one
  // that can gain SNodes, and only under its root: open_root).
  if (fields.size() == laid_out_fields && trees.size() == laid_out_trees &&
      (trees.empty() || trees.back()->materialized || trees.back()->root->children.empty()))
    return;
  // Taichi refuses to lay out with a dangling field: a later place() could not
  // go into a tree that is already allocated, so the field could never be used.
  for (auto& f : fields)
    if (!f->place && !f->primal)  // an autodiff companion may stay unplaced
      raise("RuntimeError", f->describe() + " was declared but never placed", f->loc);

  for (size_t i = 0; i < trees.size(); ++i) {
    SNodeTree& t = *trees[i];
    // An empty open root (someone only looked at ti.root) stays open for the
    // SNodes that come next instead of becoming an empty tree.
    if (t.materialized || t.root->children.empty()) continue;
    int64_t align = lay_out(*t.root);
    t.root->offset_in_cell = 0;
    // Cache-line alignment at least: trees never share a line, and wide loads
    // of a tree's first elements are aligned.
    size_t alloc_align = (size_t)std::max<int64_t>(align, 64);
    size_t bytes = (size_t)std::max<int64_t>(t.root->container_size, 1);
    // Zeroed pages are only promised by the kernel; touching more than the
    // machine has would get the process killed later, far from the cause.
    // Refuse here instead, with a message that names the size. (Device pools
    // are a reservation: on the CPU only the blocks a program takes are touched.)
    check_memory((int64_t)bytes, {});
    std::vector<DevicePool> regions;
    bool counters = false;
    // KILN_DEVICE_POOLS=1 reserves device pools on the CPU too, where the
    // LLVM tier then runs the GPU's allocation code (ctest's lang/NAME/llvm_pools).
    static const bool pools_on_cpu = [] {
      const char* e = std::getenv("KILN_DEVICE_POOLS");
      return e && std::string(e) == "1";
    }();
    if (config.arch == "vulkan") {
      int64_t start = align_up((int64_t)bytes, 64);
      if (int64_t pools = lay_out_device_pools(*t.root, start, i, regions)) bytes = (size_t)(start + pools);
    } else if (config.arch == "cuda" || pools_on_cpu) {
      // The tree's device counters, then its pools (device_pools.h).
      int64_t pools = budgeted_device_pools(*t.root, device_pool_budget(config.device_memory_gb), regions);
      bytes = (size_t)(device_counters_at(*t.root) + kDeviceCountersBytes + pools);
      counters = true;
    }
    void* mem;
    if (config.alloc_hooks.set()) {
      mem = config.alloc_hooks.alloc(config.alloc_hooks.user, bytes, alloc_align);
      if (mem && !config.alloc_hooks.zeroed) std::memset(mem, 0, bytes);
      t.alloc_bytes = bytes;
    } else {
      mem = alloc_tree_memory(bytes, alloc_align, counters);
    }
    if (!mem)
      raise("MemoryError", "out of memory: cannot allocate " + std::to_string(bytes) +
                                " bytes for SNode tree " + std::to_string(i));
    t.memory = static_cast<uint8_t*>(mem);
    t.size = t.root->container_size;
    t.materialized = true;
    if (counters) t.device_counters = reinterpret_cast<uint64_t*>(t.memory + device_counters_at(*t.root));
    for (const DevicePool& r : regions) r.snode->pool = std::make_shared<SNodePool>((size_t)r.block, t.memory + r.at, r.blocks);
    prepare_sparse(t);
    stat_add("snode_tree_bytes", (double)t.size);
  }
  laid_out_fields = fields.size();
  laid_out_trees = trees.size();
}

// Kernels (access_of), host reads/writes (check_index) and whole-field
// copies come here: a field that has no place in a tree has no memory to touch.
void Program::require_placed(const FieldInfo& f) {
  if (f.place) return;
  raise("RuntimeError", f.primal ? "gradient " + f.describe() + " has not been placed: call ti.root.lazy_grad() / "
                                       "lazy_dual() after placing '" + f.primal->name + "', or place it yourself"
                                 : f.describe() + " was declared but never placed", f.loc);
}

ir::Access Program::access_of(const FieldInfo& f) {
  materialize();
  require_placed(f);
  const SNode* place = f.place;
  ir::Access acc;
  acc.tree = place->tree;
  acc.offset = base_offset(place);
  acc.shape = f.shape;
  acc.index_offset = f.offset;
  acc.field = f.name;
  acc.field_id = f.id;
  acc.snode = place->name();
  if (place->sparse) {
    acc.sparse_place = place->id;
    // Within a cell of its parent (a struct-for over the parent addresses the
    // element from there). A quant_array's elements share one word, told apart
    // by their index: they keep the lookup.
    if (place->parent && place->parent->quant_array_bits == 0) {
      acc.sparse_cell = place->parent->id;
      acc.offset = place->offset_in_cell;
    }
    return acc;
  }

  const auto& pip = place->physical_index_position;
  std::vector<const SNode*> levels = levels_above(place);
  // below[l][p]: product of axis p's extents over the levels under level l;
  // the part of a virtual index that level l sees is (index / below) % extent.
  size_t L = levels.size();
  std::vector<std::array<int64_t, kMaxIndices>> below(L);
  std::array<int64_t, kMaxIndices> run;
  run.fill(1);
  for (size_t l = L; l-- > 0;) {
    below[l] = run;
    for (int p = 0; p < kMaxIndices; ++p) run[p] *= levels[l]->extent[p];
  }
  std::array<bool, kMaxIndices> seen_top{};  // the topmost split of an axis needs no modulo
  for (size_t l = 0; l < L; ++l) {
    const SNode& s = *levels[l];
    for (size_t v = 0; v < pip.size(); ++v) {
      int p = pip[v];
      if (s.extent[p] <= 1) continue;  // this level does not split axis p
      // The cell index is row-major over the axes this level splits, lower
      // physical axes outermost, so axis p steps over the extents after it.
      int64_t inner = 1;
      for (int q = p + 1; q < kMaxIndices; ++q) inner *= s.extent[q];
      ir::IndexTerm t;
      t.axis = (int)v;
      t.div = below[l][p];
      t.mod = seen_top[p] ? s.extent[p] : 0;
      t.stride = inner * s.cell_size;
      seen_top[p] = true;
      acc.terms.push_back(t);
    }
  }
  return acc;
}

// Materializes, then checks the index count and range of a host access.
void Program::check_index(const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc) {
  materialize();
  require_placed(f);
  int dims = (int)f.shape.size();
  if (n != dims)
    raise("TypeError", f.describe() + " has " + plural(dims, "dimension", "dimensions") +
                           " but was indexed with " + plural(n, "index", "indices"),
          loc);
  for (int a = 0; a < dims; ++a) {
    int64_t lo = f.offset_at((size_t)a);
    if (idx[a] < lo || idx[a] - lo >= f.shape[a])
      raise("IndexError", bounds_message(f.describe(), a, idx[a], f.shape, f.offset), loc);
  }
}

namespace {

// The user's index (offsets included) as the storage index from 0; `idx`
// itself when the field has no offset.
const int64_t* storage_index(const FieldInfo& f, const int64_t* idx, int n, int64_t* buf) {
  if (f.offset.empty()) return idx;
  for (int a = 0; a < n; ++a) buf[a] = idx[a] - f.offset_at((size_t)a);
  return buf;
}

}  // namespace

const void* Program::element_read_address(const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc) {
  check_index(f, idx, n, loc);
  if (f.place->sparse) {
    int64_t buf[kMaxIndices];
    return sparse_element(f.place->id, storage_index(f, idx, n, buf), false);
  }
  return element_address(f, idx, n, loc);
}

void* Program::element_address(const FieldInfo& f, const int64_t* user_idx, int n, SourceLoc loc) {
  check_index(f, user_idx, n, loc);
  int dims = (int)f.shape.size();
  int64_t buf[kMaxIndices];
  const int64_t* idx = storage_index(f, user_idx, n, buf);
  if (f.place->sparse) return sparse_element(f.place->id, idx, true);
  // Walks the levels bottom-up without building an Access: host loops index
  // fields element by element, and this path allocates nothing. It is also an
  // independent derivation of the same layout that access_of() describes,
  // which the unit tests compare.
  const SNode* place = f.place;
  std::array<int64_t, kMaxIndices> phys{}, below;
  below.fill(1);
  for (int v = 0; v < dims; ++v) phys[place->physical_index_position[v]] = idx[v];
  int64_t addr = base_offset(place);
  for (const SNode* s = place->parent; s; s = s->parent) {
    int64_t cell = 0;
    for (int p = 0; p < kMaxIndices; ++p) {
      int64_t e = s->extent[p];
      cell = cell * e + (phys[p] / below[p]) % e;  // Horner form of row-major
      below[p] *= e;
    }
    addr += cell * s->cell_size;
  }
  return trees[place->tree]->memory + addr;
}

}  // namespace kiln
