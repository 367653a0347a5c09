// Serial or parallel: the launcher's choice for one launch of a range_for or
// struct_for task that could run on the pool.
//
// Handing a loop to the pool costs microseconds (more on a loaded machine),
// splits it into chunks that each enter the task's code, and moves the
// chunks' cache lines to whichever core takes them: a sweep of a few
// microseconds runs faster on the launching thread alone. What is small
// depends on the task's work per unit, the engine and the machine's load, so
// it is measured: each launch's wall time per unit of work (iterations, or a
// struct-for's cells) is kept for the way it ran (LaunchRecord), and
//   - the first launch runs in parallel and its wall time is not kept (it
//     compiles the task's code), but its launching thread's chunks after its
//     first give a serial figure: their time per unit (a parallel launch
//     gives one whenever the task has none);
//   - when the first launch gave no serial figure (the launching thread ran
//     one chunk: it compiled the code while the other threads took the
//     rest), the second probes serially if the first took so little wall
//     time that a serial launch costs at most kFirstProbeNs (first wall
//     times threads; that wall includes the compile). Else the second runs
//     in parallel, and its chunks give the figure: a small sweep then paid
//     a pool wake-up and a probe (sparse_grid's sweep on 2 threads, 17 and
//     10 us against 2.5 us a launch once settled);
//   - a launch whose serial time would pass kShortNs runs in parallel (a big
//     sweep always shares its work);
//   - a parallel launch shorter than that is followed by a serial one (the
//     probe), and from then on the faster way per unit runs;
//   - the slower way is measured again some launches later (kSerialReprobe
//     and kParallelReprobe: a serial probe costs little, a parallel one the
//     pool's overhead), twice as late each time it loses again, up to
//     kMaxReprobe: a task whose cost or machine load changes is followed,
//     at a small cost.
// A figure falls at once but at most doubles a launch, so that one launch
// preempted on a loaded machine does not turn a task over.
// The work is the same either way; only the order of a parallel loop's
// prints (already unordered) differs.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>

#include "vm/bytecode/function.h"

namespace kiln::interp {

constexpr uint64_t kShortNs = 50'000, kFirstProbeNs = 4'000'000;
constexpr uint32_t kSerialReprobe = 4, kParallelReprobe = 64, kMaxReprobe = 4096;
// A serial launch of a task that runs faster serially renews its figure at
// most every kSerialRefresh launches (times_launch).
constexpr uint32_t kSerialRefresh = 16;

// What the launcher learned from a task's launches: the latest wall time of
// each way per unit of work (0: not measured yet), the first launch's wall
// time when it gave no serial figure (else 0), the task's launch count
// when it was taken, and how many launches each way waits before it is
// measured again. Relaxed atomics: two threads may launch one kernel at
// once, and a lost update costs one probe.
struct LaunchRecord {
  std::atomic<uint64_t> serial_ps{0}, parallel_ps{0}, first_ns{0};
  std::atomic<uint32_t> launches{0}, serial_at{0}, parallel_at{0};
  std::atomic<uint32_t> serial_wait{kSerialReprobe}, parallel_wait{kParallelReprobe};
  void reset();
};

// The record of task `t` (launch_mode.cpp: a table found by the task's
// address; a new task there starts from an empty record).
LaunchRecord& record_of(const bc::TaskCode& t);

// The launching thread's chunks of a parallel launch (worker 0), timed
// after its first (which may compile the task's code or meet cold caches):
// their cost, scaled to all `total` chunks' indices, estimates the launch's
// serial time. Only worker 0 touches it.
struct CallerChunks {
  int64_t total = 0;  // the parallel_for's index count
  template <class F>
  void time(int worker, int64_t begin, int64_t end, F&& f) {
    if (worker != 0) {
      f();
      return;
    }
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    if (first_) {
      first_ = false;
    } else {
      indices_ += end - begin;
      ns_ += (double)ns;
    }
  }
  uint64_t serial_estimate_ns() const { return indices_ > 0 ? (uint64_t)(ns_ * (double)total / (double)indices_) : 0; }

 private:
  bool first_ = true;
  int64_t indices_ = 0;
  double ns_ = 0;
};

// Whether this launch of `work` units runs on the pool of `threads`; counts
// the launch.
bool choose_parallel(LaunchRecord& r, int64_t work, int threads);
// Whether the launch choose_parallel just chose is timed (and then noted):
// every parallel launch, and a serial one when the task has no serial
// figure, when it is a due probe of the slower way, or when the faster
// way's figure is kSerialRefresh launches old. (Two clock reads cost ~30 ns,
// a tenth of a small kernel's whole launch; a settled serial task's figure
// changes slowly, and one that grows past kShortNs is predicted parallel
// from its work without a new figure.)
bool times_launch(const LaunchRecord& r, bool parallel);
// Records a launch's wall time `ns` for the way it ran, and a parallel
// launch's serial estimate (0: none) when the task has no serial figure.
void note_launch(LaunchRecord& r, bool parallel, int64_t work, uint64_t ns, uint64_t serial_estimate_ns = 0);

// Runs one launch of `t` either way (a pool of `threads`): run(parallel,
// chunks), timed and recorded; a parallel run times its chunks through `chunks`.
template <class Run>
void run_measured(const bc::TaskCode& t, int64_t work, int threads, Run&& run) {
  LaunchRecord& r = record_of(t);
  bool parallel = choose_parallel(r, work, threads);
  CallerChunks chunks;
  if (!times_launch(r, parallel)) {
    run(parallel, chunks);
    return;
  }
  auto t0 = std::chrono::steady_clock::now();
  run(parallel, chunks);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
  note_launch(r, parallel, work, (uint64_t)ns, parallel ? chunks.serial_estimate_ns() : 0);
}

}  // namespace kiln::interp
