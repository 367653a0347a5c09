// The launcher's side of a launch that may go on with other code part-way
// (mid_launch.h): a task's slices, the map from the launch's own units to
// the other code's passes, and the duel that decides which code runs on.
#include "vm/interp/mid_launch.h"

#include <time.h>

#include <algorithm>

#include "vm/ir/ir.h"
#include "vm/runtime/chunks.h"

namespace kiln::interp {

namespace {

// The calling thread's CPU time (ns): a duel's slices are timed in it.
int64_t thread_cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (int64_t)ts.tv_sec * 1'000'000'000 + ts.tv_nsec;
}

// Iterations [x, hi) (own units) with the other code `nt`. Own unit u runs
// the task's iterations at offsets [own_jam * (u - begin), + own_jam) from
// its first; the other code's pass p those at [jam * p, + jam) (unjammed:
// iterations as they are). Where the launch's own code is not jammed, the
// iterations before the other code's first whole pass in [x, hi) and after
// its last run here, on the own code; a jammed own code's passes are whole
// passes of the other's (publish checks own_jam % jam == 0), so its
// boundaries are the other's. (The task's last pass may be partial, on
// either code: it ends at the task's end, where both stop.)
void run_other(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, NativeTask* nt, const Switch& s,
               int64_t x, int64_t hi) {
  const MidLaunchTask& m = *s.m;
  const int64_t Kj = m.own_jam, K = m.jam;
  if (Kj == 1 && K == 1) {
    nt->run(ctx, x, hi, nullptr);
    return;
  }
  const int64_t first = Kj == 1 ? s.begin : m.first, n = Kj == 1 ? s.end - s.begin : m.iters;
  const int64_t ox = Kj * (x - s.begin), ohi = hi == s.end ? n : Kj * (hi - s.begin);
  if (K == 1) {
    nt->run(ctx, first + ox, first + ohi, nullptr);
    return;
  }
  int64_t p0 = (ox + K - 1) / K;
  int64_t p1 = ohi == n ? (n + K - 1) / K : ohi / K;
  if (p1 <= p0) {  // (own units are iterations here: Kj == 1)
    run_code(t, ctx, x, hi, hook, nullptr);
    return;
  }
  if (K * p0 > ox) run_code(t, ctx, x, first + K * p0, hook, nullptr);
  nt->run(ctx, p0, p1, nullptr);
  if (ohi != n && K * p1 < ohi) run_code(t, ctx, first + K * p1, hi, hook, nullptr);
}

}  // namespace

// Iterations [x, hi) of a switching task: in slices of about kSliceNs while
// the other code is not ready (one call when the task may not be sliced);
// once it is, the duel's slices of about kDuelSliceNs on either code, timed,
// and after the duel's first decision slices of kSliceNs on the code it
// chose, every kProbeEvery-th followed by a probe: a duel slice on each code,
// which may change the choice (MidLaunchTask::duel_add), until the task's
// choice is settled; then the rest on it in one call. Each slice's end is reported
// (MidLaunch::boundary), by whichever thread ran it: on a loaded machine the
// launching thread may get few of a parallel launch's chunks, or none.
void run_slices(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, const Switch& s, int64_t x, int64_t hi) {
  MidLaunchTask& m = *s.m;
  int probes = 0, mains = 0;  // duel slices due; slices on the chosen code in this chunk
  while (x < hi) {
    NativeTask* nt = m.native.load(std::memory_order_acquire);
    const int choice = nt ? m.choice.load(std::memory_order_acquire) : kUndecided;
    if (choice != kUndecided && (!m.slices || m.settled.load(std::memory_order_acquire))) {
      if (choice == kOther) run_other(t, ctx, hook, nt, s, x, hi);
      else run_code(t, ctx, x, hi, hook, nullptr);
      return;
    }
    const bool duel = nt && (choice == kUndecided || probes > 0);
    bool other = false;
    int64_t k = 0;
    if (duel) {
      k = m.duel_turn(other);
      probes -= probes > 0;
    } else if (nt) {
      other = choice == kOther;
      if (++mains % kProbeEvery == 0) probes = 2;
    }
    int64_t y = hi;
    if (m.slices) {
      uint64_t ps = m.ps.load(std::memory_order_relaxed);
      uint64_t ns = duel ? kDuelSliceNs : kSliceNs;
      int64_t len = ps ? std::max<int64_t>(1, (int64_t)(ns * 1000 / ps)) : kFirstSlice;
      // A slice of kSliceNs runs at most twice the last one's units: a rate
      // taken on cheap iterations (an image's empty first rows) made the
      // next slice run all the rest, and a task whose iterations grow dear
      // had no boundary to start its tier-up at.
      if (!duel) len = std::min(len, 2 * std::max(m.last_len.load(std::memory_order_relaxed), kFirstSlice));
      // (A duel in a short stretch cuts it finer: it decides within it.)
      if (choice == kUndecided && nt) len = std::min(len, std::max<int64_t>(1, (hi - x) / kDuelSlices));
      if (len < hi - x) y = x + len;
    }
    const int64_t c0 = thread_cpu_ns(), t0 = steady_ns();
    if (other) run_other(t, ctx, hook, nt, s, x, y);
    else run_code(t, ctx, x, y, hook, nullptr);
    const int64_t t1 = steady_ns(), cpu = thread_cpu_ns() - c0;
    if (!other) m.ps.store(std::max<uint64_t>(1, (uint64_t)(t1 - t0) * 1000 / (uint64_t)(y - x)), std::memory_order_relaxed);
    if (duel) m.duel_add(k, cpu, y - x);
    else m.last_len.store(y - x, std::memory_order_relaxed);
    m.cpu_ns.fetch_add(cpu, std::memory_order_relaxed);
    int64_t done = m.done.fetch_add(y - x, std::memory_order_relaxed) + (y - x);
    s.mid->boundary(s.i, done, s.end - s.begin, t1);
    x = y;
  }
}

// A serial task is one call: it switches at its start, and duels a launch at
// a time.
void run_serial(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, MidLaunchTask& m) {
  NativeTask* nt = m.native.load(std::memory_order_acquire);
  int choice = nt ? m.choice.load(std::memory_order_acquire) : kUndecided;
  if (!nt || choice == kOwn) {
    run_code(t, ctx, 0, 0, hook, nullptr);
  } else if (choice == kOther) {
    run_code(t, ctx, 0, 0, nullptr, nt);
  } else {
    bool other = false;
    const int64_t k = m.duel_turn(other), c0 = thread_cpu_ns();
    if (other) run_code(t, ctx, 0, 0, nullptr, nt);
    else run_code(t, ctx, 0, 0, hook, nullptr);
    m.duel_add(k, thread_cpu_ns() - c0, 1);
  }
}

void MidLaunchTask::offer(NativeTask* nt, int64_t other_jam, bool duel_it, bool back) {
  jam = std::max<int64_t>(other_jam, 1);
  if (own_jam > 1 && own_jam % jam) return;
  duel = duel_it;
  duel_back = back;
  choice.store(duel_it ? kUndecided : kOther, std::memory_order_relaxed);
  native.store(nt, std::memory_order_release);
}

double MidLaunchTask::left_cpu_ns(int64_t done, int64_t total, int64_t cpu, int64_t window) {
  if (base_done < 0 || done < base_done || cpu < base_cpu) {  // (the launch's first boundary)
    base_done = window_done = done;
    base_cpu = window_cpu = cpu;
    window_ps = 0;
    return 0;
  }
  if (cpu - base_cpu < window || done <= window_done) return 0;
  if (cpu - window_cpu >= window) {
    window_ps = (double)(cpu - window_cpu) * 1000.0 / (double)(done - window_done);
    window_done = done;
    window_cpu = cpu;
  }
  const double ps = std::max((double)(cpu - base_cpu) * 1000.0 / (double)(done - base_done), window_ps);
  return ps * 1e-3 * (double)(total - done);
}

void plan_switches(MidLaunch& mid, const ir::Kernel& k, const std::vector<int>& own_jams) {
  size_t n = 0;
  for (auto& s : k.root.stmts) n += s->kind == ir::StmtKind::offloaded;
  mid.tasks = std::make_unique<MidLaunchTask[]>(n);
  mid.num_tasks = n;
  size_t i = 0;
  for (auto& s : k.root.stmts) {
    if (s->kind != ir::StmtKind::offloaded) continue;
    MidLaunchTask& m = mid.tasks[i];
    m.may_switch = s->task == ir::Task::range_for || s->task == ir::Task::serial;
    m.slices = s->task == ir::Task::range_for && !sums_by_chunk(*s);
    if (i < own_jams.size() && own_jams[i] > 1) {  // (jammable: constant bounds)
      m.own_jam = own_jams[i];
      m.first = s->begin;
      m.iters = s->end - s->begin;
    }
    i++;
  }
}

}  // namespace kiln::interp
