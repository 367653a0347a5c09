// SPIR-V code generation from an offloaded IR kernel (after ir::run_pipeline):
// one GLCompute module per task. Only Kiln's own types cross this header, so
// the runtime side (engine.cpp) and the tests need no Vulkan headers for it.
//
// What a task's shader sees (descriptor set 0):
//   binding 0  the launch context: 8-byte slots [args | rets | temps | rng key], then
//              the error record (kErrWords words) that checks fill
//   binding 1  the print buffer: word 0 a cursor, records from word 2
//   binding 2  the call stack of recursive ti.real_func calls (codegen_recursion.cpp;
//              the print buffer again when no task has one)
//   binding 3+a  the a-th ndarray argument's data (KernelShaders::ndarrays)
//   then one per SNode tree t, its memory (tree_binding(t))
// A range_for task is a grid-stride loop: invocation g runs iterations
// begin+g, begin+g+N, ... (N invocations in the dispatch), so the TLS
// prologue/epilogue run once per invocation and any dispatch size is right.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vm/ir/ir.h"
#include "vm/ir/ndarray_uses.h"

namespace kiln {
struct Program;
}  // namespace kiln

namespace kiln::vk {

// What the device offers that changes the code (features of device.h).
struct DeviceCaps {
  bool int8 = true, int16 = true, int64 = true, float16 = true, float64 = true;
  bool storage8 = true, storage16 = true;
  bool int64_atomics = true;
  bool float32_atomic_add = false;  // VK_EXT_shader_atomic_float
  bool cpu = false;                 // a CPU implementation (lavapipe)
  uint32_t max_local_x = 128;       // invocations a workgroup may have (x; Vulkan promises 128)
  // llvmpipe (lavapipe) ends every loop of an invocation once they have made
  // this many iterations in all (Mesa's gallivm loop limiter): loops count
  // their iterations and a task that reaches it fails instead of going on
  // with truncated loops. 0: no such limit.
  uint32_t loop_limit = 0;
  // Bytes the call stack of recursive ti.real_func calls may take (all the
  // invocations of a task; the memory is committed as it is touched where
  // the device imports host memory).
  uint64_t stack_window = 256ull << 20;
  // ti.simt: shared memory a workgroup may have; the subgroup operations of
  // compute shaders (VkSubgroupFeatureFlags: basic 1, vote 2, arithmetic 4,
  // ballot 8, shuffle 16, shuffle relative 32) and their width; whether they
  // take 8/16/64-bit values.
  uint32_t max_shared_bytes = 16384;
  uint32_t subgroup_ops = 0;
  uint32_t subgroup_size = 1;
  bool subgroup_extended_types = false;
};

constexpr int kStackBinding = 2;          // the call stack (u64 words)
constexpr int kNdarrayBinding = 3;        // the first ndarray argument's binding
constexpr int kLocalSize = 64;             // invocations per workgroup of a parallel task
constexpr int kErrWords = 4 + 2 * 8;       // flag, task, iteration, sequence, 8 values (u64)
// ti.print_statistics' counters a launch adds (u32 each): snode_activations,
// snode_deactivations, listgen_elements, as the runtime counts them.
constexpr int kStatWords = 4;
enum StatWord { kStatActivations = 0, kStatDeactivations = 1, kStatListgen = 2 };
constexpr uint32_t kPrintWords = 1 << 20;  // print buffer size in words
constexpr int kPrintHeader = 4;            // print record: id, task, iteration, sequence
// A resumable task (codegen_resume.cpp) saves up to kResumeSlots variables
// (u64 each) when it stops short of the driver's loop limit; kResumeDone in
// its state word says it finished. The host dispatches it again until then.
constexpr int kResumeSlots = 512;
constexpr uint32_t kResumeDone = 0xffffffffu;
constexpr int kResumeRepeat = 8;  // dispatches of a resumable task per submit

// A run-time check a shader may fail: its first failure is recorded in the
// error record and reported by the host after the launch as `kind` at `loc`.
struct CheckInfo {
  enum Kind : uint8_t { bounds, ndarray_bounds, snode_bounds, shared_bounds, div_zero, pow_zero, assertion, loop_limit, tape_overflow, pool_full, recursion } kind = bounds;
  SourceLoc loc;
  // bounds: the field, the axis checked, its shape and index offsets;
  // snode_bounds: the SNode's name in `field`, the axis and its shape;
  // shared_bounds: the shared array's name, the axis and its shape;
  // ndarray_bounds: the ndarray's name and the axis (the record holds the
  // index, then the launch's shape of `ndim` axes)
  std::string field;
  int axis = 0;
  int ndim = 0;
  std::vector<int64_t> shape, offset;
  // assertion: the message and the types of its format arguments
  std::string text;
  std::vector<Prim> prims;
  // tape_overflow: the tape's capacity; pool_full: the pool's blocks (the SNode in `field`);
  // recursion: the task's call depth limit (the function's name in `text`)
  uint32_t capacity = 0;
};

struct PrintInfo {
  std::vector<ir::PrintPart> parts;
  std::vector<Prim> prims;  // per value operand, in order
  SourceLoc loc;
};

struct TaskShader {
  ir::Task kind = ir::Task::serial;
  std::vector<uint32_t> spirv;
  SourceLoc loc;
  // A serial task that the driver's loop limit would stop: its number among
  // the kernel's resumable tasks (-1: not one).
  int resume = -1;
  // range_for: constant bounds or temp slots, the loop index type
  bool begin_const = true, end_const = true;
  int64_t begin = 0, end = 0;
  Prim index_prim = Prim::i32;
  int block_dim = 0;
  // Invocations per workgroup of a parallel task: kLocalSize, or the loop's
  // ti.loop_config(block_dim=N).
  int local_size = kLocalSize;
  bool serialize = false;
  // Workgroups of local_size invocations to dispatch (1 for serial work).
  uint32_t groups = 1;
  // A range_for whose thread-local float sums depend on the order: below
  // this many iterations (0: never) its range is one chunk, run by
  // invocation 0 alone, as the CPU engines run it.
  int64_t one_chunk_below = 0;
  // Recursive ti.real_func calls (codegen_recursion.cpp): the calls that may
  // nest in an invocation, and the call stack all its invocations take.
  uint32_t call_depth = 0;
  uint64_t stack_bytes = 0;
};

// An ndarray argument the kernel accesses: its data travels in a buffer of
// its own (binding 3 + its position in KernelShaders::ndarrays), filled from
// the host array before the launch and copied back after it when written.
using NdarrayBinding = ir::NdarrayUse;

struct KernelShaders {
  std::string name;
  std::vector<TaskShader> tasks;
  std::vector<NdarrayBinding> ndarrays;
  std::vector<CheckInfo> checks;
  std::vector<PrintInfo> prints;
  int num_args = 0, num_rets = 0, num_temps = 0;
  int num_trees = 0;  // trees 0..num_trees-1 are bound, after the ndarrays
  int tree_binding(int tree) const { return kNdarrayBinding + (int)ndarrays.size() + tree; }
  // Word offsets in the context buffer.
  int ret_slot() const { return num_args; }
  int temp_slot() const { return num_args + num_rets; }
  int rng_slot() const { return num_args + num_rets + num_temps; }  // the launch's ti.random key
  int err_word() const { return 2 * (rng_slot() + 1); }
  // Struct-fors over bitmasked SNodes: the activity bits their listgen task
  // copied (codegen_sparse.cpp), from word list_word() on, list_base[snode]
  // words in for the SNode's struct-fors.
  std::map<int, uint32_t> list_base;
  uint32_t list_words = 0;
  int stat_word() const { return err_word() + kErrWords; }
  // Resumable task r: its state word (0: not started, j + 1: stopped in its
  // top-level loop j, kResumeDone), then its saved variables from word + 2.
  int num_resumable = 0;
  int resume_word(int r) const { return stat_word() + kStatWords + r * (2 + 2 * kResumeSlots); }
  int list_word() const { return resume_word(num_resumable); }
  // The launch counts activations, deactivations or list elements (it then
  // waits for the device, and adds them and listgen_const to the program's).
  bool counts = false;
  int64_t listgen_const = 0;  // list elements of levels with no sparse level above
  int ctx_words() const { return list_word() + (int)list_words; }
};

// Generates every task's module. Throws kiln::Error ("NotImplementedError")
// naming the statement and its line for what the code generator lacks.
// `prog` gives the SNodes of sparse accesses (null: none can be compiled).
KernelShaders generate(const ir::Kernel& k, const DeviceCaps& caps, const Program* prog = nullptr);

}  // namespace kiln::vk
