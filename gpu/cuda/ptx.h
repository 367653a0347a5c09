// IR kernel -> PTX (ptx.cpp, LLVM inside; no LLVM here). Each offloaded task
// goes through the ORC tier's lowering (jit/llvm/lower.h) for the GPU, wrapped
// in a kernel entry; a task that lowering cannot take and the list tasks
// run on the host, over the same managed memory.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "jit/llvm/task.h"

namespace kiln {
struct Program;
struct SNode;
}

namespace kiln::cuda {

// The device log a launch's tasks write (managed memory, one per kernel):
// the failed checks of the earliest iterations, and print records. Its
// layout is the one ptx.cpp's kiln_gpu_fail / kiln_gpu_print write.
constexpr int kLogSlots = 16;    // failed checks recorded (the earliest wins)
constexpr int kLogValues = 16;   // values a failed check's message takes
struct LogSlot {
  int64_t key;      // the failing iteration (-1 outside the task's loop)
  int32_t task;
  int32_t check;
  int32_t n;
  int32_t pad;
  uint64_t values[kLogValues];
};
struct DeviceLog {
  int64_t err_key;     // the earliest failing iteration so far (INT64_MAX: none)
  uint32_t err_count;  // slots taken (an entry's kernel returns at once when nonzero)
  uint32_t overflow;   // print records dropped: the buffer was full
  uint64_t print_used;  // words of print_words taken
  uint64_t print_cap;
  uint64_t* print_words;  // records: key, task | site << 16 | n << 32, n values
  LogSlot slots[kLogSlots];
};

// How a task's bounds reach its entry: constants from the host, or global
// temporaries the entry reads itself (a previous task computed them).
struct PtxTask {
  std::string entry;  // the kernel entry's name in the PTX; "" when the task runs on the host
  std::string why;    // why it runs on the host ("" for list tasks, which are the runtime's)
  llvmjit::TaskMeta meta;
  // Whether the optimized code can still fail a check (meta.checks lists
  // every check lowered, some of which the optimizer proved never fail).
  bool may_fail = true;
};

struct PtxKernel {
  std::string ptx;
  std::vector<PtxTask> tasks;  // one per offloaded task
  double ms = 0;               // lowering, optimization and code generation
  // A task that calls a recursive ti.real_func: the thread stack one level
  // of calls takes at most (an estimate from the PTX's frames; 0 when no
  // task recurses). The engine sizes the stack and the depth limit by it.
  uint64_t level_bytes = 0;
};

// What one level of recursion can take of a thread's stack in `ptx`: the
// largest ti.real_func frame (its __local_depot) with its largest task's,
// each plus kCallSaveBytes for the registers ptxas saves around calls (it
// added 70-145 bytes to LLVM's frames of tests/lang/real_func.py).
constexpr uint64_t kCallSaveBytes = 256;
uint64_t recursion_level_bytes(const std::string& ptx);

// The entries of `ptx` whose code still reaches kiln_gpu_fail (directly or
// through the functions they call) after the optimizer: a task whose checks
// were all proved never to fail is a launch the host need not wait for.
std::set<std::string> may_fail_entries(const std::string& ptx);

// Compiles the tasks of an offloaded kernel for sm_`sm` (80, 90, ...);
// `only` >= 0 compiles that task alone (kiln dis --ptx). With `prog`, the
// PTX comes from (and goes to) its offline cache (vm/runtime/code_cache.h).
// Throws RuntimeError when LLVM has no NVPTX target or libdevice cannot be read.
PtxKernel compile_ptx(const ir::Kernel& k, int sm, int only = -1, Program* prog = nullptr);

// The sm the PTX of `kiln dis --ptx` targets: $KILN_CUDA_SM, else 80.
int default_sm();

// A struct-for's cell table made on the device (jit/llvm/listgen.h): the
// list functions for `target` and `nidx` as PTX kernels named
// kListgenPrefix + count<s> / write<s> (grid-stride over [b, e)) and scan
// (one thread), for the engine's launch and `kiln dis --ptx`.
constexpr const char* kListgenPrefix = "kiln_lg_";
std::string compile_listgen_ptx(const SNode& target, int nidx, int sm);

}  // namespace kiln::cuda
