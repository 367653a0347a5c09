// The bytecode interpreter: Kiln's reference semantics and the CPU engine
// "interp". It keeps no global mutable state: each call gets its own frame,
// so many threads may run one task Function at once.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>

#include "vm/bytecode/function.h"
#include "vm/runtime/engine.h"

namespace kiln {

struct SNode;  // vm/runtime/snode.h

// The interpreter as an Engine (compile = IR -> bytecode; launch = interpret).
std::unique_ptr<Engine> make_interp_engine();

namespace interp {

// The JIT's one entry point into the interpreter. A loop's back edge (forl
// taken, or a while loop's `loop` op) whose hot counter is at or above
// `hotloop` calls hot() with the pc the interpreter would run next (the loop
// body's first instruction) and the live frame. The hook may record, compile
// or run a trace, which advances the frame; it returns the pc to continue at.
// It may also lower the counter register to back off, or lower `hotloop`
// itself (read at every check). Without a hook the check is one compare per
// back edge.
struct LoopHook {
  std::atomic<int64_t> hotloop{INT64_MAX};
  // Iterations of the task's own loop (the range or the cells, counter at
  // r2) run so far, over every chunk and launch: a chunk's counter starts
  // here. A parallel task runs in chunks, each a new frame whose counters
  // start at 0, so a loop whose chunks were all shorter than `hotloop` (a
  // heavy body over 800 particles cut into ~50-iteration chunks: Taichi's
  // mpm examples' p2g and g2p) never got hot however often it ran.
  std::atomic<int64_t> task_iterations{0};
  virtual ~LoopHook() = default;
  virtual uint32_t hot(const bc::Function& fn, uint32_t pc, uint64_t* R, LaunchContext& ctx) = 0;
  // A counted loop about to run its first iteration (body at `pc`) with its
  // counter at `hotloop` or more (the task's own loop, whose count goes on
  // across launches): the pc to go on at after running the loop's compiled
  // code from there, or `pc` when it has none (the interpreter runs the
  // iteration). Without it every launch interpreted its task loop's first
  // iteration before the back edge entered the trace.
  virtual uint32_t enter(const bc::Function&, uint32_t pc, uint64_t*, LaunchContext&) { return pc; }
};

// The debugger's view of running bytecode (vm/debug implements it). With
// Program::debugger set, the interpreter calls at() before each instruction
// with the live frame, and fault() with the error before raising a user error
// (a failed assert, a bounds check, a division by zero), so that the debugger
// can stop with the state intact. Both may block while the user looks around.
struct DebugHook {
  // Bumped whenever what the debugger wants may have changed (a breakpoint,
  // a step, a pause): running functions then ask wants() again.
  std::atomic<uint32_t> epoch{0};
  virtual ~DebugHook() = default;
  // Whether `fn` must call at() before each instruction now.
  virtual bool wants(const bc::Function& fn) = 0;
  virtual void at(const bc::Function& fn, uint32_t pc, const uint64_t* R, LaunchContext& ctx) = 0;
  virtual void fault(const bc::Function& fn, uint32_t pc, const uint64_t* R, LaunchContext& ctx,
                     const Error& e) = 0;
};

// Runs one task Function to its `end`. For a range_for task, [begin, end)
// is the chunk of iterations (registers 0 and 1); serial tasks ignore them.
// Throws kiln::Error (IndexError, ZeroDivisionError, AssertionError, ...)
// located at the failing instruction's source.
// A struct_for task also gets `cells`: the index table of its cells.
void run_function(const bc::Function& fn, LaunchContext& ctx, int64_t begin = 0, int64_t end = 0,
                  LoopHook* hook = nullptr, const int64_t* cells = nullptr);

// How deep ti.real_func calls may nest in one thread: deeper is the user's
// RecursionError, not a crash of the thread's stack (every engine).
constexpr int kMaxCallDepth = 2000;

// An engine's native code for one task (jit/llvm), run by the launcher in
// place of the task's bytecode: the iterations [begin, end) of a range_for
// chunk, or the cells [0, end) of a struct_for piece with their index table.
// Throws kiln::Error as run_function does.
struct NativeTask {
  virtual ~NativeTask() = default;
  virtual void run(LaunchContext& ctx, int64_t begin, int64_t end, const int64_t* cells) = 0;
  // A struct_for's whole cell table from the engine's own list generation
  // (jit/llvm/listgen.h under device pools): `rows` rows as
  // Program::active_cells gives them, valid until this thread's next call.
  // Null (the default): the launcher makes the rows from the lists that the
  // list tasks built. The launcher runs a given table's rows in the units,
  // and with the serial/parallel choice (launch_mode.h), of its own rows.
  virtual const int64_t* cell_table(LaunchContext&, const SNode* /*target*/, int /*nidx*/, int64_t& /*rows*/) {
    return nullptr;
  }
};

// Runs every task of `k` in order, range_for and struct_for tasks split over
// ctx.program->pool (serially when there is no program or pool, when the task
// says serialize, when the range is tiny, in debug mode so that parallel
// prints come in order, or when short launches ran faster: launch_mode.h). Kernel print output is flushed to
// ctx.program->print (when there is a program) after the launch, also when it
// throws. `hooks`, when given, holds one LoopHook (or null) per task;
// `natives` one NativeTask (or null: the bytecode runs) per task; for a
// clear_list or listgen task, non-null means that the struct_for it serves
// makes its own cells (NativeTask::cell_table): the task is skipped.
void launch(const bc::Kernel& k, LaunchContext& ctx, LoopHook* const* hooks = nullptr,
            NativeTask* const* natives = nullptr);

// One task of a launch (what launch() does for each), for engines with
// their own launch loop (gpu/cuda runs some tasks on the host); and the
// launch's end: kernel print output to ctx.program->print.
void run_task(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, NativeTask* native);
void flush_prints(LaunchContext& ctx);

// A CompiledKernel holding bytecode, for engines (the JIT) that reuse the
// interpreter's launcher.
struct InterpKernel : CompiledKernel {
  bc::Kernel code;
  explicit InterpKernel(bc::Kernel k) : code(std::move(k)) {}
  void launch(LaunchContext& ctx) override { interp::launch(code, ctx); }
  std::string disassemble() const override { return bc::disassemble(code); }
  // Task i's native code, when the engine gave it some (jit/llvm), else
  // null: what a launch of the same tasks by another engine may go on with
  // (the tiered engine's tier-up during a launch: vm/interp/mid_launch.h).
  virtual NativeTask* native_task(size_t) const { return nullptr; }
};

}  // namespace interp
}  // namespace kiln
