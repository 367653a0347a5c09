// A launch that may go on with other code part-way (the tiered engine's
// tier-up during a launch, jit/tiered.cpp): the launcher runs the range_for
// tasks of such a launch in slices, asks between them whether the other
// engine's code is ready, and once it is runs the rest of the task (and the
// later range_for and serial tasks of the launch) with it.
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
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

#include "vm/interp/interp.h"

namespace kiln::interp {

// A slice's target length, and the first slice of a task with no figure yet.
constexpr int64_t kSliceNs = 2'000'000, kFirstSlice = 256;

// One task of such a launch.
struct MidLaunchTask {
  bool may_switch = false;  // a range_for or serial task (set before the first launch)
  bool slices = false;      // a serial run may be cut (not sums_by_chunk)
  // The other code of the task, once the launch may go on with it (release:
  // `jam` is written before), and the iterations a pass of it runs: a task
  // jammed for it (ir::jam_outer's factor K) runs passes [0, ceil(n / K)),
  // pass p the iterations begin + K * p + c, c < K.
  std::atomic<NativeTask*> native{nullptr};
  int64_t jam = 1;
  // This engine's time an iteration (picoseconds; 0: none yet), for the
  // slices' length; any thread may write it (relaxed: a lost figure costs a
  // slice of another length).
  std::atomic<uint64_t> ps{0};
  // Iterations run so far in this launch, and when the task began there
  // (steady_clock nanoseconds): reset as the task starts by the launching thread.
  std::atomic<int64_t> done{0};
  int64_t start_ns = 0;
};

struct MidLaunch {
  std::unique_ptr<MidLaunchTask[]> tasks;
  size_t num_tasks = 0;
  virtual ~MidLaunch() = default;
  // After a slice or chunk of task `task`, on the thread that ran it (any
  // of the launch's): `done` of its `total` iterations have run (all
  // threads'), `now_ns` is the clock. May start the tier-up, or publish the
  // other code (MidLaunchTask::native).
  virtual void boundary(size_t task, int64_t done, int64_t total, int64_t now_ns) = 0;
};

// The tiered engine sets LaunchContext::mid (vm/runtime/engine.h) to its
// MidLaunch around its JIT kernel's launch: the JIT's kernel runs its bytecode
// through interp::launch and knows nothing of the tier above it.

inline int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace kiln::interp
