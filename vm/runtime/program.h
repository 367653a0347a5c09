// The Program: everything one VM instance owns at run time: SNode trees and
// their memory, fields, the thread pool, the engine that runs kernels, the
// output stream, and statistics. No global state: several Programs may live in
// one process (one per embedding VM).
#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "vm/support/alloc_hooks.h"
#include "vm/ir/ir.h"
#include "vm/types/dtype_support.h"
#include "vm/runtime/engine.h"
#include "vm/runtime/pool.h"
#include "vm/runtime/snode.h"
#include "vm/runtime/thread_pool.h"

namespace kiln {

// The struct-for's cell table (Program::active_cells): grown without zeroing
// the rows active_cells writes anyway (the zeroing cost as much as writing
// them: a table is written for every cell of every sweep).
template <class T> struct NoZeroInit : std::allocator<T> {
  template <class U> struct rebind { using other = NoZeroInit<U>; };
  template <class U> void construct(U* p) noexcept { ::new ((void*)p) U; }
  template <class U, class... A> void construct(U* p, A&&... a) { ::new ((void*)p) U(std::forward<A>(a)...); }
};
using CellTable = std::vector<int64_t, NoZeroInit<int64_t>>;

// What a kept cell table (CachedCells) was built for: the activity
// generation, the row width, how the work was cut into units, and the list
// (its size and first container). The table is read again only for an equal key.
struct CellTableKey {
  uint64_t generation = 0;
  int nidx = 0;
  int64_t per = 0, span = 0, ranges = 0, units = 0;
  size_t list_size = 0;
  const uint8_t* first_container = nullptr;
  bool operator==(const CellTableKey&) const = default;
};
// A struct-for's whole cell table kept across launches (Program::cell_cache):
// while no cell's activity changed (Program::activity_generation), the next
// launch over the same SNode with the same units reads these rows instead of
// scanning the containers again (Taichi's listgen likewise has nothing new
// to find in an unchanged tree). Unit u's rows are [unit_row[u], unit_row[u + 1]).
struct CachedCells {
  bool valid = false;
  CellTableKey key;
  CellTable rows;
  std::vector<int64_t> unit_row;
};

namespace interp {
struct DebugHook;  // vm/interp/interp.h
}

struct Config {
  std::string arch = "cpu";   // "cpu", "vulkan", "cuda"
  std::string engine = "jit";    // "jit" (the tracing JIT) or "interp" (the reference)
  bool debug = false;
  bool print_ir = false;
  // Taichi's fast_math (on by default): the IR passes contract a * b + c into
  // fma and split float sums (docs/fast_math.md); false keeps program order.
  bool fast_math = true;
  int num_threads = 0;        // 0 = hardware concurrency
  TypeConfig types;
  uint64_t random_seed = 0;
  int ad_stack_size = 0;      // autodiff tape capacity when a loop's trip count is unknown (0: 32)
  CastMode dtype_cast_mode = CastMode::none;  // what to do with types the engine lacks
  AllocHooks alloc_hooks;     // tree memory from the embedding host (else mimalloc)
  // Taichi's offline cache: compiled LLVM objects and PTX kept on disk across
  // runs (vm/runtime/code_cache.h). The directory: offline_cache_file_path,
  // else $KILN_CACHE_DIR, $XDG_CACHE_HOME/kiln, ~/.cache/kiln.
  bool offline_cache = true;
  std::string offline_cache_dir;
  // Taichi's device_memory_GB (its default, 1): the bytes a tree's device
  // pools (arch=cuda, KILN_DEVICE_POOLS=1) share when every block they could
  // ever need would not fit (vm/runtime/device_pools.h).
  double device_memory_gb = 1.0;
};

// Taichi's rules for a field's index offsets (TaichiCompilationError): a
// field without a shape (`shape` null) takes none, and there is one per
// dimension. Hosts call it before creating the components of a compound field.
void check_offset(const std::vector<int64_t>* shape, const std::vector<int64_t>& offset, SourceLoc loc);

struct SNodeTree {
  std::unique_ptr<SNode> root;
  uint8_t* memory = nullptr;  // one buffer for the whole tree (zero-initialized)
  size_t alloc_bytes = 0;     // what Config::alloc_hooks was asked for (0: mimalloc's)
  // Device pools' trees: the activations and deactivations that device code
  // counted (device_pools.h's DeviceCounters, in the tree's memory); null
  // for the others.
  uint64_t* device_counters = nullptr;
  int64_t size = 0;
  bool materialized = false;
};

struct Program {
  Config config;
  std::vector<std::unique_ptr<SNodeTree>> trees;   // the last one may still be open
  std::vector<std::unique_ptr<FieldInfo>> fields;
  std::unique_ptr<ThreadPool> pool;
  std::unique_ptr<Engine> engine;
  std::function<void(std::string_view)> out;       // print sink (stdout by default)
  std::map<std::string, double> stats;             // seed 001 statistics counters
  std::map<const SNode*, std::vector<ListElem>> lists;  // generated lists (sparse.cpp)
  int next_snode_id = 0;
  // Set (from a SIGINT handler, so only by an atomic store) to stop running
  // kernels: engines poll it at loop back-edges and raise KeyboardInterrupt.
  // Whoever sets it clears it before the next launch (the REPL, per input).
  std::atomic<bool> interrupt_requested{false};
  uint64_t launches = 0;    // kernel launches so far: each draws new ti.random streams
  // materialize_trees' last full check found `fields` placed and `trees`
  // laid out, these many of each (SIZE_MAX: none yet).
  size_t laid_out_fields = SIZE_MAX, laid_out_trees = SIZE_MAX;
  uint64_t host_draws = 0;  // ti.random() calls from host code
  // Set by the debugger (vm/debug): kernels compile keeping every named
  // variable readable, run on the interpreter serially, and stop in it.
  interp::DebugHook* debugger = nullptr;

  explicit Program(Config cfg);
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // The root of the tree that new SNodes go under (`ti.root`). Opens a new tree
  // if the previous one was already materialized (as Taichi does).
  SNode* open_root();
  // Adds a container child: kind dense (later pointer/...), over `axes`
  // (physical axis numbers, ti.i = 0, ti.j = 1, ...) with `sizes`.
  // Throws kiln::Error for bad input (non-positive size, axis repeated, tree
  // already materialized), located at `loc`.
  // dynamic takes one axis and `chunk_size` (0: the whole extent in one chunk).
  SNode* add_container(SNode* parent, SNodeKind kind, const std::vector<int>& axes,
                       const std::vector<int64_t>& sizes, SourceLoc loc, int64_t chunk_size = 0);
  // Creates a field without placing it (`x = ti.field(ti.f32)`).
  FieldInfo* create_field(Prim dtype, std::string name, SourceLoc loc);
  // Places a field under `parent` (`.place(x)`); its shape follows from the
  // axes above it. Error if the field is already placed.
  // `offset` (`.place(x, offset=(...))`): see set_offset; empty for none.
  SNode* place(SNode* parent, FieldInfo* f, SourceLoc loc, const std::vector<int64_t>& offset = {});
  // Quantized fields (quant_place.cpp). A quant field is created unplaced;
  // place_bitpacked packs `members` (each a place() call of
  // ti.BitpackedFields: its fields and whether they share one exponent) into
  // one word of `max_bits` bits placed under `parent`. A quant_array is a
  // dense container over `axis` whose n cells are bit slices of one word;
  // place() under it packs the one quant field it holds.
  FieldInfo* create_quant_field(const QuantType& t, std::string name, SourceLoc loc);
  struct BitpackGroup {
    std::vector<FieldInfo*> fields;
    bool shared_exponent = false;
  };
  SNode* place_bitpacked(SNode* parent, int max_bits, const std::vector<BitpackGroup>& groups, SourceLoc loc);
  SNode* add_quant_array(SNode* parent, const std::vector<int>& axes, const std::vector<int64_t>& sizes, int max_bits,
                         SourceLoc loc);
  // `ti.field(dtype, shape=..., offset=...)`: create_field + root.dense(axes 0..n-1, shape).place.
  FieldInfo* create_dense_field(Prim dtype, const std::vector<int64_t>& shape, std::string name, SourceLoc loc,
                                const std::vector<int64_t>& offset = {});
  // Gives placed field f index offsets (Taichi's rules, TaichiCompilationError
  // otherwise: one per dimension; an unplaced field, i.e. `ti.field(dt,
  // offset=...)` without a shape, cannot have one). A host that creates a
  // field without shape and is given an offset calls this to get the error.
  void set_offset(FieldInfo* f, const std::vector<int64_t>& offset, SourceLoc loc);

  // A dense field whose levels are `levels` (axis, extent), outermost first:
  // order="ji" and seed 002 layouts (row_major * column_major ...) become
  // such chains; an axis split by several levels composes into one dimension.
  FieldInfo* create_layout_field(Prim dtype, const std::vector<std::pair<int, int64_t>>& levels, std::string name,
                                 SourceLoc loc);

  // Lays out and allocates every open tree, then waits for the engine's
  // launches still running (Engine::sync): called before any host access to
  // field memory. Fields declared but never placed are an error here
  // ("field 'x' was declared but never placed").
  void materialize();
  // The layout half of materialize(), before a kernel launch: a launch goes
  // after earlier ones on the device without waiting for them. O(1) when no
  // field or tree came since its last full check (every launch calls it).
  void materialize_trees();
  // x.grad (dual false) or x.dual of a real field: created unplaced on first
  // use. Null for integer fields (they have no derivative).
  FieldInfo* companion(FieldInfo* f, bool dual);
  // ti.root.lazy_grad() / lazy_dual(): every real field placed under `s`
  // whose companion is not placed gets it placed beside it (same parent,
  // same offsets), so it has the primal's layout.
  void lazy_companions(SNode* s, bool dual, SourceLoc loc);
  // ti.ad.Tape(validation=True): every field with a placed gradient gets a u8
  // checkbit field of its shape (in a new tree: the fields' own may be laid
  // out already), which validating kernels set on reads and check on writes.
  void ensure_checkbits();
  // The Access description a global_ptr needs for field `f` (materializes first).
  ir::Access access_of(const FieldInfo& f);
  // Host element access (`x[i, j]` at top level): bounds-checked address of an
  // element. Indices are the user's, offsets included (x[-8] of a field with
  // offset -8 is its first element). Throws IndexError naming the field, index and shape. This is the
  // write path: under sparse SNodes it activates the element.
  void* element_address(const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc);
  // The read path: an inactive sparse element reads as zero (the address of
  // a zero block) and stays inactive.
  const void* element_read_address(const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc);
  void check_index(const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc);
  // Raises RuntimeError when `f` has no place in a tree (declared but never
  // placed; a gradient companion without lazy_grad / needs_dual): kernels,
  // element access and whole-field copies all check this first.
  static void require_placed(const FieldInfo& f);
  // Base pointers of every tree, indexed by tree id (kernels read these at launch);
  // the second form refills `out`, keeping its memory (a launch's kept context).
  std::vector<uint8_t*> tree_bases();
  void tree_bases(std::vector<uint8_t*>& out) const;

  // ---- sparse SNodes (sparse.cpp) ----
  std::vector<SNode*> snode_by_id;   // every materialized SNode, by id
  // Counters kept by the runtime with atomics (kernels run on many threads);
  // folded into `stats` by collect_stats().
  std::atomic<int64_t> n_activations{0}, n_deactivations{0}, n_listgen_elements{0};
  std::atomic<int64_t> listgen_ns{0};  // wall time spent in clear_list/listgen tasks
  // Bumped by every change of a pointer or bitmasked cell's activity (an
  // activation, a deactivation, a container released): cached cell tables
  // older than it are stale. Dynamic lengths do not bump it (appends are hot);
  // tables over a dynamic level are never cached.
  std::atomic<uint64_t> activity_generation{0};
  void activity_changed() { activity_generation.fetch_add(1, std::memory_order_relaxed); }
  std::map<const SNode*, CachedCells> cell_cache;  // by struct-for target (launch.cpp)
  // Whether a struct-for over `target` may keep its cell table across
  // launches: no dynamic level on its path, and no device pools in its tree
  // (native code activates those without the runtime seeing it).
  bool cell_table_cacheable(const SNode* target) const;
  void prepare_sparse(SNodeTree& t);  // paths, flags, pools (materialize calls it)
  SNode* snode(int id) const;
  // The container of `target` that holds physical index `phys` (for a place:
  // the element's address). null when an ancestor cell is inactive and
  // `activate` is false; with `activate` every cell on the way is activated.
  uint8_t* locate(const SNode* target, const int64_t* phys, bool activate);
  // Element address for kernel access by virtual index: reads of an inactive
  // element get a block of zeros, writes (`activate`) activate it.
  void* sparse_element(int place_id, const int64_t* idx, bool activate);
  enum class SNodeOp : uint8_t { activate, deactivate, is_active, append, length };
  // ti.activate / ti.deactivate / ti.is_active / ti.append / ti.length on
  // SNode `snode_id` at virtual index `idx`. append returns the old length
  // (the index to write) and never grows past the capacity (it then returns
  // the capacity, which the caller's bounds check reports).
  int64_t snode_op(SNodeOp op, int snode_id, const int64_t* idx);
  void deactivate_all(SNode* s);      // snode.deactivate_all()
  void deactivate_all_snodes();       // ti.deactivate_all_snodes()
  // List generation (seed 001): level `level` of `target`'s path from the
  // list of the level above it (the root's one-element list for level 0).
  void clear_list(const SNode* target, int level);
  void listgen(const SNode* target, int level);
  const std::vector<ListElem>& list_of(const SNode* s);
  // Every level of s's path listed, serially, from the root: the containers
  // of s that exist now (a struct-for's lists, built on the calling thread).
  const std::vector<ListElem>& build_lists(const SNode* s);
  // Virtual indices of every active cell of the containers list[b, e) of
  // `target` (the last level of its path), appended to `out`: a row of `nidx`
  // indices then the cell's address per cell (nidx + 1 int64s). Only the
  // cells [lo, hi) of each container when given.
  void active_cells(const SNode* target, size_t b, size_t e, int nidx, CellTable& out, int64_t lo = 0,
                    int64_t hi = INT64_MAX);
  int64_t pool_blocks_in_use() const;  // over every pool: blocks handed out
  int64_t pool_blocks_reserved() const;  // over every pool: blocks obtained from the system
  void collect_stats();
  // Every counter, "name: value" a line in name order (ti.print_statistics,
  // kiln run --stats). Counts print as integers. Timers (*_time_ms) are left
  // out: they differ from run to run; ti.statistics() has them.
  std::string statistics_text();

  void print(std::string_view s) { out(s); }
  void stat_add(const std::string& key, double v) { stats[key] += v; }
};

// place() of a quant field under a quant_array container (quant_place.cpp).
SNode* place_in_quant_array(Program& p, SNode* parent, FieldInfo* f, SourceLoc loc);

}  // namespace kiln
