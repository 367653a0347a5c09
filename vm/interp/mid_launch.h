// A launch that may go on with other code part-way (the tiered engine's
// tier-up during a launch, jit/tiered.cpp): the launcher runs the range_for
// tasks of such a launch in slices, asks between them whether the other
// engine's code is ready, and once it is runs the rest of the task (and the
// later range_for and serial tasks of the launch) on whichever of the two
// codes a duel of short timed slices finds the faster (MidLaunchTask).
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

#include "vm/interp/interp.h"

namespace kiln::interp {

// A slice's target length, and the first slice of a task with no figure yet.
constexpr int64_t kSliceNs = 2'000'000, kFirstSlice = 256;

// The duel (below): its slices' target length, and how many slices it runs
// (half on each code) before it decides.
constexpr int64_t kDuelSliceNs = 50'000, kDuelSlices = 32;
// After the duel's first decision, a probe (a duel slice on each code)
// follows every kProbeEvery-th slice on the chosen code; a code kClearWin
// times faster than the other ends the probes.
constexpr int kProbeEvery = 4;
constexpr double kClearWin = 2.0;

// Which code a task runs once the other code is ready.
enum DuelChoice : int { kUndecided = 0, kOther = 1, kOwn = 2 };

// One task of such a launch.
struct MidLaunchTask {
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
  // Iterations run so far in this launch, and the CPU time their slices took
  // (all threads'; the machine's other work does not count): reset as the
  // task starts by the launching thread.
  std::atomic<int64_t> done{0}, cpu_ns{0};
  // The duel: which code is the faster on this task is measured, not assumed
  // (the JIT's vector lanes beat LLVM's four scalar copies of an f32 escape
  // loop on one host, 36 against 46 ms, and lose on f64, 60 against 44, and
  // on another host on f32 too). Once the other code is ready, the task's
  // next kDuelSlices slices of ~kDuelSliceNs alternate between the two codes,
  // A B B A A B B A ..., each timed in the thread's CPU time (a slice that
  // the machine's other work preempts costs no more), and the code with the
  // lesser time a unit over its slices runs on (`choice`, which outlives the
  // launch). The slices are short and each code's spread over the stretch,
  // so that both codes run iterations of the same cost: a trend along the
  // range falls on both (A B B A), and so does a pattern of period two slices
  // (an image's rows cut in halves: A B, B A), which slices in the order
  // A B A B, or a comparison of neighbouring slices, charge to one code
  // (measured on an escape-time loop: the cost of 50 us stretches of a
  // 1024-pixel row's pixels differs up to 10x between neighbours; 250 us
  // stretches, 20 rows each, 3x). But a stretch is not the range: where the
  // duel began in a cheap part of it (pixels that escape at once), the
  // per-pass costs decide, not the loop's. So the duel goes on as probes: a
  // slice on each code after every kProbeEvery slices of kSliceNs on the
  // chosen one (~1.2% of the time, half of it on the slower code), each pair
  // deciding again on all the slices so far, whose sums weigh each part of
  // the range by its cost, until the task has been probed through one whole
  // launch after the one the duel began in, or one code is kClearWin times
  // faster (`settled`: the launcher then runs the choice in one call). A task that is not cut (a serial task, a float sum's serial run)
  // runs whole on one code a launch, alternating across launches.
  // `duel` false: the other code runs at once (KILN_TIER_SYNC=1, the tests'
  // mode); `duel_back`: every duel ends on the own code (tests).
  bool duel = true, duel_back = false;
  std::atomic<int> choice{kUndecided};
  std::atomic<bool> settled{false};
  int probed_launches = 0;  // (the launching thread's)
  std::atomic<int64_t> duel_turns{0}, duel_runs{0};
  std::atomic<int64_t> duel_ns[2]{}, duel_units[2]{};  // [0] own code, [1] other

  // The duel's next slice: its number, and whether it runs the other code.
  int64_t duel_turn(bool& other) {
    int64_t k = duel_turns.fetch_add(1, std::memory_order_relaxed);
    other = ((k + 1) >> 1) & 1;
    return k;
  }
  // Slice k's time: `units` of the task (own units) in `ns`. The last of the
  // first kDuelSlices to end decides; after that each probe's second slice
  // decides again, on all the slices so far.
  void duel_add(int64_t k, int64_t ns, int64_t units) {
    const bool other = ((k + 1) >> 1) & 1;
    duel_ns[other].fetch_add(ns, std::memory_order_relaxed);
    duel_units[other].fetch_add(units, std::memory_order_relaxed);
    int64_t runs = duel_runs.fetch_add(1, std::memory_order_acq_rel) + 1;
    if (runs < kDuelSlices || runs % 2) return;
    const int64_t own_ns = duel_ns[0].load(std::memory_order_relaxed), own_units = duel_units[0].load(std::memory_order_relaxed),
                  other_ns = duel_ns[1].load(std::memory_order_relaxed), other_units = duel_units[1].load(std::memory_order_relaxed);
    choice.store(duel_back ? kOwn : duel_winner(own_ns, own_units, other_ns, other_units), std::memory_order_release);
    const double own_rate = (double)own_ns / (double)std::max<int64_t>(own_units, 1),
                 other_rate = (double)other_ns / (double)std::max<int64_t>(other_units, 1);
    // A code kClearWin times faster settles it: probes of the other would
    // cost more than any stretch of the range could overturn (bench/
    // one_launch: LLVM 3.5x faster, probed through the launch, lost 6%).
    if (other_rate * kClearWin <= own_rate || own_rate * kClearWin <= other_rate)
      settled.store(true, std::memory_order_release);
  }
  // Whether this launch of the task runs on its choice in one call (the
  // launching thread, at the task's start): once the task has been probed
  // through the launch its duel began in and one whole launch after it.
  void settle_at_start() {
    if (settled.load(std::memory_order_relaxed) || !native.load(std::memory_order_acquire) ||
        choice.load(std::memory_order_acquire) == kUndecided)
      return;
    if (++probed_launches >= 2) settled.store(true, std::memory_order_release);
  }
  // The code with the lesser time a unit (a tie goes to the other code, whose
  // compile was made for it).
  static int duel_winner(int64_t own_ns, int64_t own_units, int64_t other_ns, int64_t other_units) {
    return (double)other_ns * (double)std::max<int64_t>(own_units, 1) <=
                   (double)own_ns * (double)std::max<int64_t>(other_units, 1)
               ? kOther
               : kOwn;
  }
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
