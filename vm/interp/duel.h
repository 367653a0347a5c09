// The duel: which of two codes of a task runs on, once the other code (the
// tiered engine's LLVM code) is ready part-way through a launch of the
// launch's own code (the JIT's): measured, not assumed. The JIT's vector
// lanes beat LLVM's four scalar copies of an f32 escape loop on one host,
// 36 against 46 ms, and lose on f64, 60 against 44, and on another host on
// f32 too; the JIT runs Taichi's n-body example in half LLVM's time.
//
// Once the other code is ready, the task's next kDuelSlices slices of
// ~kDuelSliceNs alternate between the two codes, A B B A A B B A ..., each
// timed in the thread's CPU time (a slice that the machine's other work
// preempts costs no more), and the code with the lesser time a unit over its
// slices runs on (`choice`, which outlives the launch). The slices are short
// and each code's spread over the stretch, so that both codes run iterations
// of the same cost: a trend along the range falls on both (A B B A), and so
// does a pattern of period two slices (an image's rows cut in halves: A B,
// B A), which slices in the order A B A B, or a comparison of neighbouring
// slices, charge to one code (measured on an escape-time loop: the cost of
// 50 us stretches of a 1024-pixel row's pixels differs up to 10x between
// neighbours; 250 us stretches, 20 rows each, 3x). But a stretch is not the
// range: where the duel began in a cheap part of it (pixels that escape at
// once), the per-pass costs decide, not the loop's. So the duel goes on as
// probes: a slice on each code after every kProbeEvery slices of kSliceNs on
// the chosen one (~1.2% of the time, half of it on the slower code), each
// pair deciding again on all the slices so far, whose sums weigh each part of
// the range by its cost, until the task has been probed through one whole
// launch after the one the duel began in, or one code is kClearWin times
// faster (`settled`: the launcher then runs the choice in one call). A task
// that is not cut (a serial task, a float sum's serial run) runs whole on
// one code a launch, alternating across launches.
//
// The launcher's side (slices, probes) is mid_launch.cpp's run_slices; the
// kernel's side (what a launch whose duels ended leaves the kernel on) is
// tally_duels (mid_launch.h) and jit/tiered.cpp.
#pragma once
#include <atomic>
#include <cstdint>

namespace kiln::interp {

// The duel's slices' target length, and how many slices it runs (half on
// each code) before it decides: after kDuelSlices when one code is kSureWin
// times faster than the other, else after kDuelMaxSlices (a close duel
// measures on: where the iterations' cost varies along the range, an
// escape-time loop's pixels, 16 slices a code measured bench/mandelbrot's
// LLVM 0.88-2.03 times as fast as the JIT in 6 runs, 1.4 in whole launches;
// where it does not, 0.55-0.57 and 1.22-1.28: nbody's force loop, collatz).
constexpr int64_t kDuelSliceNs = 50'000, kDuelSlices = 32, kDuelMaxSlices = 128;
constexpr double kSureWin = 1.25;
// The own code wins only when kOwnMargin times faster: a tie, or a
// difference within the duel's noise, goes to the other code, which was
// compiled for the task.
constexpr double kOwnMargin = 1.05;
// After the duel's first decision, a probe (a duel slice on each code)
// follows every kProbeEvery-th slice on the chosen code; a code kClearWin
// times faster than the other ends the probes.
constexpr int kProbeEvery = 4;
constexpr double kClearWin = 2.0;

// Which code a task runs once the other code is ready.
enum DuelChoice : int { kUndecided = 0, kOther = 1, kOwn = 2 };

// One task's duel (any of the launch's threads may run its slices).
struct Duel {
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
  // first kDuelSlices to end decides (of the first kDuelMaxSlices in a close
  // duel); after that each probe's second slice decides again, on all the
  // slices so far.
  void duel_add(int64_t k, int64_t ns, int64_t units);
  // Whether this launch of the task runs on its choice in one call (the
  // launching thread, at the task's start; `ready`: the other code is
  // published): once the task has been probed through the launch its duel
  // began in and one whole launch after it.
  void settle_at_start(bool ready);
  // The code with the lesser time a unit, the own code only by kOwnMargin.
  static int duel_winner(int64_t own_ns, int64_t own_units, int64_t other_ns, int64_t other_units);
};

}  // namespace kiln::interp
