// A launch that may go on with other code part-way (the tiered engine's
// tier-up during a launch, jit/tiered.cpp): the launcher runs the range_for
// tasks of such a launch in slices, asks between them whether the other
// engine's code is ready, and once it is runs the rest of the task (and the
// later range_for and serial tasks of the launch) on whichever of the two
// codes a duel of short timed slices finds the faster (duel.h).
//
// Why slices: a kernel launched once or twice for a long time (a one-shot
// render, bench/mandelbrot's two 90 ms launches) never reached the next
// launch, where the tiered engine used to switch. A parallel launch already
// runs in the pool's chunks; a serial one (a short range, one thread, a
// serialized loop) ran its whole range as one call. Slices of ~kSliceNs
// cost a call and two clock reads each; the tiered engine lends a launch
// this only while its launches are long (a short kernel never sees it).
//
// What may switch, and why the results are the interpreter's whichever
// iterations ran on which engine: both engines run the same iterations in
// the same order within a chunk, ti.random draws by iteration (rng.h), prints
// append to the launch's buffer in the order they run, and an error stops
// the launch at the same iteration. A serial run of a task that sums floats
// thread-locally (chunks.h sums_by_chunk) is not sliced: its one partial sum
// would become several, added in another order; in parallel it switches only
// at the pool's own chunks, whose partials are what the interpreter adds.
// Struct-for tasks do not switch within a launch (their list tasks, and the
// format of their cell table, are the engine's: word_rows.h, listgen.h).
// Either code may be jammed (passes of K iterations in lockstep: the JIT's
// vector lanes, LLVM's four copies of an escape loop); a switch maps one's
// passes onto the other's at an iteration where both start a pass.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "vm/interp/duel.h"
#include "vm/interp/interp.h"

namespace kiln::interp {

// A slice's target length, and the first slice of a task with no figure yet.
constexpr int64_t kSliceNs = 2'000'000, kFirstSlice = 256;

// One task of such a launch, and its duel (duel.h).
struct MidLaunchTask : Duel {
  bool may_switch = false;  // a range_for or serial task (set before the first launch)
  bool slices = false;      // a serial run may be cut (not sums_by_chunk)
  // The other code of the task, once the launch may go on with it (release:
  // `jam` and `choice` are written before), and the iterations a pass of it
  // runs: a task jammed for it (ir::jam_outer's factor K) runs passes
  // [0, ceil(n / K)), pass p the iterations begin + K * p + c, c < K.
  std::atomic<NativeTask*> native{nullptr};
  int64_t jam = 1;
  // The same for the launch's own code (the JIT jams some tasks for its
  // vector lanes: passes of 8 or 4); with own_jam > 1 the task's range is of
  // own passes, and `first`, `iters` are the task's iterations as written
  // (constant bounds: jammable tasks have them). A multiple of `jam`, or the
  // other code is not published: a switch happens at a pass boundary of both.
  int64_t own_jam = 1, first = 0, iters = 0;
  // This engine's time an iteration (picoseconds; 0: none yet), for the
  // slices' length; any thread may write it (relaxed: a lost figure costs a
  // slice of another length).
  std::atomic<uint64_t> ps{0};
  // The units of its last slice of kSliceNs (the same: any thread, relaxed).
  std::atomic<int64_t> last_len{0};
  // Iterations run so far in this launch, and the CPU time their slices took
  // (all threads'; the machine's other work does not count): reset as the
  // task starts by the launching thread.
  std::atomic<int64_t> done{0}, cpu_ns{0};
  // The task's CPU time an iteration over its latest window (ps; 0: none),
  // where the window now open began, and where the rate's figures begin (the
  // launch's first boundary; -1: none yet): the kernel's (MidLaunch::boundary,
  // one thread at a time), reset at a launch's start (reset_rate).
  double window_ps = 0;
  int64_t window_done = 0, window_cpu = 0, base_done = -1, base_cpu = 0;

  // Publishes `nt`, the other code (jammed by `other_jam`), for the task's
  // launches to go on with: by a duel (`duel`; `back`: one that ends on the
  // own code, tests) or at once. A task the own code jammed for its lanes
  // switches at a boundary of both codes' passes: the other's factor must
  // divide its own (jam_while's 4 divides 8 and 4), else the task stays on
  // its own code.
  void offer(NativeTask* nt, int64_t other_jam, bool duel_it, bool back);
  // The CPU time (ns) that the task's iterations left, `total` less `done`,
  // would take at its rate: the greater of the launch's so far (`cpu` ns
  // for `done`) and its latest window's of `window` ns or more of CPU (a
  // task whose iterations grow costlier along the range, an image's middle
  // rows, is predicted from its cheap start otherwise: bench/mandelbrot's
  // 60 ms launch at most 21 ms left, never the 30 that start a tier-up).
  // The rate counts from the launch's first boundary on (the JIT may
  // record and compile the loop's trace in the first slice: bench/
  // sparse_particles' spawn ran its first 256 iterations in 9.6 ms of CPU,
  // the rest at 25 ns, and that slice's rate predicted 79 s left); 0 until
  // `window` ns have run after it. Moves the window on once `window` ns
  // have run in it.
  double left_cpu_ns(int64_t done, int64_t total, int64_t cpu, int64_t window);
  void reset_rate() { window_ps = 0, window_done = window_cpu = base_cpu = 0, base_done = -1; }
  // At the task's start in a launch (the launching thread): Duel's.
  void settle_at_start() { Duel::settle_at_start(native.load(std::memory_order_acquire) != nullptr); }
};

struct MidLaunch {
  std::unique_ptr<MidLaunchTask[]> tasks;
  size_t num_tasks = 0;
  virtual ~MidLaunch() = default;
  // After a slice or chunk of task `task`, on the thread that ran it (any
  // of the launch's): `done` of its `total` iterations have run (all
  // threads', in tasks[task].cpu_ns of CPU time), `now_ns` is the clock. May
  // start the tier-up, or publish the other code (MidLaunchTask::native).
  virtual void boundary(size_t task, int64_t done, int64_t total, int64_t now_ns) = 0;
};

// What a launch's duels (duel.h) leave the kernel on: whether a task chose
// its own code, whether a sliced task with the other code published has yet
// to decide, and the duels that ended since the last tally (`counted`, per
// task: its duel's end was tallied), by the code each chose.
struct DuelTally {
  bool own = false, open = false;
  int ended_own = 0, ended_other = 0;
};
DuelTally tally_duels(MidLaunch& mid, std::vector<char>& counted);

// Sets up `mid`'s tasks for kernel `k`: which may go on with the other code
// part-way through a launch (range_for and serial ones, in the launcher's
// order: the kernel's offloaded statements), which of them are cut in
// slices (range_fors but those that sum floats by chunk, which switch only
// at the pool's chunks), and the passes of those the own code jammed for its
// lanes (`own_jams`, per task: the JIT's while loops, jit/while_lanes.h, run
// passes of 8 or 4 iterations; the slices are of them, and a switch maps
// them onto the other code's passes: mid_launch.cpp run_other).
void plan_switches(MidLaunch& mid, const ir::Kernel& k, const std::vector<int>& own_jams);

// One chunk of a task: its native code when an engine gave it some, else its bytecode.
inline void run_code(const bc::TaskCode& t, LaunchContext& ctx, int64_t begin, int64_t end, LoopHook* hook,
                     NativeTask* native, const int64_t* cells = nullptr) {
  if (native) native->run(ctx, begin, end, cells);
  else run_function(t.fn, ctx, begin, end, hook, cells);
}

// The launcher's side (mid_launch.cpp). A range_for task of such a launch:
// its position, its MidLaunchTask and its range (of own units).
struct Switch {
  MidLaunch* mid;
  size_t i;
  MidLaunchTask* m;
  int64_t begin, end;
};
// Its iterations [x, hi) (a chunk of the range, or all of it), on the
// launch's own code `t` (with `hook`) or the other.
void run_slices(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, const Switch& s, int64_t x, int64_t hi);
// A serial task of such a launch: on its own code, or the other's once ready.
void run_serial(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, MidLaunchTask& m);

// The tiered engine sets LaunchContext::mid (vm/runtime/engine.h) to its
// MidLaunch around its JIT kernel's launch: the JIT's kernel runs its bytecode
// through interp::launch and knows nothing of the tier above it.

inline int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace kiln::interp
