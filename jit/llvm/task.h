// What the ORC tier's lowering (lower*.cpp, LLVM inside) and its engine
// (engine.cpp, no LLVM headers) share: the native task ABI, the environment a
// task reads, and the sites (failed checks, prints) its code reports by number.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "vm/ir/ir.h"
#include "vm/runtime/engine.h"

namespace kiln::llvmjit {

// Everything a task reads from its launch, one 8-byte field each (the lowering
// addresses them by index: keep kEnv* in step with the layout).
struct Env {
  const uint64_t* args;         // kernel argument slots (LaunchContext::args)
  uint64_t* rets;               // return slots
  uint8_t* const* trees;        // tree base pointers
  uint64_t* temps;              // global temporaries
  const std::atomic<bool>* stop;  // Program::interrupt_requested (Ctrl-C)
  void* host;                   // the engine's run state (runtime calls get it back)
  uint64_t num_trees;
  uint64_t rng_key;             // ti.random: this task's key in this launch (vm/runtime/rng.h)
  uint64_t task_no = 0;         // the task's position in its kernel (the GPU's log records it)
  // A ti.real_func's body runs on an Env its call builds (lower_func.cpp):
  // the nesting depth of calls (0 in a kernel's task) and, on the GPU, the
  // calling iteration, which keys the callee's log records.
  uint64_t depth = 0;
  int64_t call_key = -1;
};
enum EnvField : int {
  kEnvArgs, kEnvRets, kEnvTrees, kEnvTemps, kEnvStop, kEnvHost, kEnvNumTrees, kEnvRngKey, kEnvTaskNo, kEnvDepth, kEnvCallKey,
  kEnvFields
};

// A task's native code: iterations [begin, end) of a range_for chunk, cells
// [begin, end) of a struct_for piece (`cells`: num_loop_indices int64s per
// cell), or the whole of a serial task. Returns 0, or 1 after a runtime call
// recorded a user error (the caller raises it).
using TaskFn = int32_t (*)(const Env* env, int64_t begin, int64_t end, const int64_t* cells);

// A check that can fail at run time, with what its message needs. Its
// arguments (the failing index, an assert's values) travel as 8-byte
// register representations.
struct Check {
  enum Kind { bounds, ext_bounds, assertion, div_zero, pow_zero, interrupt, tape_full, tape_empty, recursion, pool_full, snode_bounds } kind = bounds;
  SourceLoc loc;
  std::string field;                  // bounds: the field's name; ext_bounds: the ndarray's; pool_full, snode_bounds: the SNode's
  int axis = 0;                       // bounds, snode_bounds; tape_full: the tape's capacity; pool_full: the pool's blocks;
                                      // recursion: 1 when the limit is the failure's value (the GPU's)
  std::vector<int64_t> shape, offset;  // bounds (snode_bounds: shape)
  int ext_arg = -1, ndim = 0;          // ext_bounds: the shape is in argument slots ext_arg+1..
  bool shape_in_values = false;        // ext_bounds in a ti.real_func: the shape follows the index in the values
  std::string text;                    // assertion: the message format; recursion: the function's name
  std::vector<Prim> prims;             // assertion: its arguments' types
};

struct PrintSite {
  std::vector<ir::PrintPart> parts;  // ops renumbered 0.. in the order the values are passed
  std::vector<Prim> prims;
  SourceLoc loc;
};

// ti.activate & co: the runtime's SNode operation `op` on `snode`.
struct SNodeOpSite {
  ir::SNodeOpKind op{};
  int snode = -1;
  SourceLoc loc;
};

struct TaskMeta {
  std::vector<Check> checks;
  std::vector<PrintSite> prints;
  std::vector<SNodeOpSite> snode_ops;
  // The trees the task addresses and where it first does: the engine checks
  // that each has memory before the task runs (its code reads the bases once).
  std::vector<std::pair<int, SourceLoc>> trees;
  bool recursive = false;  // calls a ti.real_func that calls itself (the GPU sizes its stack for it)
  // A struct_for that takes word rows (bc::TaskCode::word_rows; lower_rows.cpp).
  bool word_rows = false;
};

// gpu: the module global (an i64 in global memory) holding how deeply
// ti.real_func calls may nest; the engine lowers it from kMaxCallDepth to
// what the thread stack holds when a task recurses.
constexpr const char* kDepthLimitSymbol = "kiln_call_depth_limit";

// The message and kind of failed check `c` given its values (engine.cpp),
// and the text of a print site's record: what the CPU's runtime calls and the
// GPU's log decoding (gpu/cuda) both report.
std::string check_message(const Check& c, const uint64_t* values, const LaunchContext& ctx, const char*& kind);
std::string print_text(const PrintSite& p, const uint64_t* values);  // throws kiln::Error as the interpreter's print does

// Runtime calls the generated code makes (engine.cpp; resolved by name in the JIT).
extern "C" {
void kiln_llvm_fail(void* host, int32_t check, const uint64_t* values);
int32_t kiln_llvm_print(void* host, int32_t site, const uint64_t* values);
// The element of place SNode `place` at the n virtual indices `idx` under
// sparse SNodes (activating it when `activate`), or null after an error.
void* kiln_llvm_sparse(void* host, int32_t place, int32_t activate, int32_t n, const int64_t* idx);
// SNode operation `site` at the n values `idx` (indices, then append's
// value): 0 with the result in *out, or 1 after an error.
int32_t kiln_llvm_snode_op(void* host, int32_t site, int32_t n, const int64_t* idx, int64_t* out);
// ti.append at SNode operation `site` into the list at `container` (the
// runtime's append_in): 0 with the new cell's index (the capacity when
// full) in *out, or 1 after an error.
int32_t kiln_llvm_append(void* host, int32_t site, void* container, int64_t* out);
}

}  // namespace kiln::llvmjit
