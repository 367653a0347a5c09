// The duel's decisions (duel.h), and what a launch's duels leave its kernel
// on (mid_launch.h tally_duels).
#include "vm/interp/duel.h"

#include <algorithm>

#include "vm/interp/mid_launch.h"

namespace kiln::interp {

void Duel::duel_add(int64_t k, int64_t ns, int64_t units) {
  const bool other = ((k + 1) >> 1) & 1;
  duel_ns[other].fetch_add(ns, std::memory_order_relaxed);
  duel_units[other].fetch_add(units, std::memory_order_relaxed);
  int64_t runs = duel_runs.fetch_add(1, std::memory_order_acq_rel) + 1;
  if (runs < kDuelSlices || runs % 2) return;
  const int64_t own_ns = duel_ns[0].load(std::memory_order_relaxed), own_units = duel_units[0].load(std::memory_order_relaxed),
                other_ns = duel_ns[1].load(std::memory_order_relaxed), other_units = duel_units[1].load(std::memory_order_relaxed);
  const double own_rate = (double)own_ns / (double)std::max<int64_t>(own_units, 1),
               other_rate = (double)other_ns / (double)std::max<int64_t>(other_units, 1);
  const bool sure = other_rate * kSureWin <= own_rate || own_rate * kSureWin <= other_rate;
  if (!sure && runs < kDuelMaxSlices && choice.load(std::memory_order_relaxed) == kUndecided) return;
  choice.store(duel_back ? kOwn : duel_winner(own_ns, own_units, other_ns, other_units), std::memory_order_release);
  // A code kClearWin times faster settles it: probes of the other would
  // cost more than any stretch of the range could overturn (bench/
  // one_launch: LLVM 3.5x faster, probed through the launch, lost 6%).
  if (other_rate * kClearWin <= own_rate || own_rate * kClearWin <= other_rate)
    settled.store(true, std::memory_order_release);
}

void Duel::settle_at_start(bool ready) {
  if (settled.load(std::memory_order_relaxed) || !ready || choice.load(std::memory_order_acquire) == kUndecided) return;
  if (++probed_launches >= 2) settled.store(true, std::memory_order_release);
}

int Duel::duel_winner(int64_t own_ns, int64_t own_units, int64_t other_ns, int64_t other_units) {
  return (double)other_ns * (double)std::max<int64_t>(own_units, 1) <=
                 kOwnMargin * (double)own_ns * (double)std::max<int64_t>(other_units, 1)
             ? kOther
             : kOwn;
}

DuelTally tally_duels(MidLaunch& mid, std::vector<char>& counted) {
  DuelTally t;
  counted.resize(mid.num_tasks);
  for (size_t i = 0; i < mid.num_tasks; i++) {
    const MidLaunchTask& m = mid.tasks[i];
    if (!m.native.load(std::memory_order_acquire)) continue;
    const int c = m.choice.load(std::memory_order_acquire);
    t.own |= c == kOwn;
    t.open |= c == kUndecided && m.slices;
    if (c == kUndecided || counted[i] || !m.duel) continue;
    counted[i] = 1;
    (c == kOwn ? t.ended_own : t.ended_other)++;
  }
  return t;
}

}  // namespace kiln::interp
