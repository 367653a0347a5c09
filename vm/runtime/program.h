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

#include "vm/ir/ir.h"
#include "vm/types/dtype_support.h"
#include "vm/runtime/engine.h"
#include "vm/runtime/snode.h"
#include "vm/runtime/thread_pool.h"

namespace kiln {

struct Config {
  std::string arch = "cpu";   // "cpu", "vulkan", "cuda"
  std::string engine = "interp";
  bool debug = false;
  bool print_ir = false;
  int num_threads = 0;        // 0 = hardware concurrency
  TypeConfig types;
  uint64_t random_seed = 0;
  CastMode dtype_cast_mode = CastMode::none;  // what to do with types the engine lacks
};

struct SNodeTree {
  std::unique_ptr<SNode> root;
  uint8_t* memory = nullptr;  // one buffer for the whole tree (zero-initialized)
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
  int next_snode_id = 0;
  // Set (from a SIGINT handler, so only by an atomic store) to stop running
  // kernels: engines poll it at loop back-edges and raise KeyboardInterrupt.
  // Whoever sets it clears it before the next launch (the REPL, per input).
  std::atomic<bool> interrupt_requested{false};

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
  SNode* add_container(SNode* parent, SNodeKind kind, const std::vector<int>& axes,
                       const std::vector<int64_t>& sizes, SourceLoc loc);
  // Creates a field without placing it (`x = ti.field(ti.f32)`).
  FieldInfo* create_field(Prim dtype, std::string name, SourceLoc loc);
  // Places a field under `parent` (`.place(x)`); its shape follows from the
  // axes above it. Error if the field is already placed.
  SNode* place(SNode* parent, FieldInfo* f, SourceLoc loc);
  // `ti.field(dtype, shape=...)`: create_field + root.dense(axes 0..n-1, shape).place.
  FieldInfo* create_dense_field(Prim dtype, const std::vector<int64_t>& shape, std::string name, SourceLoc loc);

  // Lays out and allocates every open tree. Called before any kernel launch
  // and any host access. Fields declared but never placed are an error here
  // ("field 'x' was declared but never placed").
  void materialize();
  // The Access description a global_ptr needs for field `f` (materializes first).
  ir::Access access_of(const FieldInfo& f);
  // Host element access (`x[i, j]` at top level): bounds-checked address of an
  // element. Throws IndexError naming the field, index and shape.
  void* element_address(const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc);
  // Base pointers of every tree, indexed by tree id (kernels read these at launch).
  std::vector<uint8_t*> tree_bases();

  void print(std::string_view s) { out(s); }
  void stat_add(const std::string& key, double v) { stats[key] += v; }
};

}  // namespace kiln
