// The launcher's serial-or-parallel rule (launch_mode.h).
#include "vm/interp/launch_mode.h"

#include <algorithm>

namespace kiln::interp {

namespace {

// Picoseconds per unit times the units, in nanoseconds, saturating.
uint64_t predict_ns(uint64_t ps, int64_t work) {
  if (work <= 0) return 0;
  return ps > UINT64_MAX / (uint64_t)work ? UINT64_MAX : ps * (uint64_t)work / 1000;
}

// Records by task address, direct-mapped: a kernel's TaskCodes live as long
// as its compiled form, which the launcher cannot see end, so a slot changes
// hands when another task hashes there (the record starts again: one more
// first launch and probe). A few thousand slots keep a program's hot tasks
// apart. (A field of bc::TaskCode would do without the table; that header
// rebuilds most of the tree.)
constexpr size_t kSlots = 4096;
struct Slot {
  std::atomic<const bc::TaskCode*> task{nullptr};
  LaunchRecord record;
};
Slot slots[kSlots];

}  // namespace

void LaunchRecord::reset() {
  constexpr auto rx = std::memory_order_relaxed;
  serial_ps.store(0, rx);
  parallel_ps.store(0, rx);
  first_ns.store(0, rx);
  launches.store(0, rx);
  serial_at.store(0, rx);
  parallel_at.store(0, rx);
  serial_wait.store(kSerialReprobe, rx);
  parallel_wait.store(kParallelReprobe, rx);
}

LaunchRecord& record_of(const bc::TaskCode& t) {
  uint64_t h = (uint64_t)(uintptr_t)&t * 0x9E3779B97F4A7C15ull;
  Slot& s = slots[h >> 52];  // the top 12 bits: kSlots = 4096
  if (s.task.load(std::memory_order_relaxed) != &t) {
    s.task.store(&t, std::memory_order_relaxed);
    s.record.reset();
  }
  return s.record;
}

bool choose_parallel(LaunchRecord& r, int64_t work, int threads) {
  constexpr auto rx = std::memory_order_relaxed;
  uint32_t now = r.launches.fetch_add(1, rx) + 1;
  uint64_t s = r.serial_ps.load(rx), p = r.parallel_ps.load(rx);
  if (!s && !p) {
    // A second launch with no figure: serially when that costs little even
    // if the first launch's wall (compile included) was all parallel work.
    uint64_t first = r.first_ns.load(rx);
    return now == 1 || !first || first >= kFirstProbeNs / (uint64_t)std::max(threads, 1);
  }
  bool short_parallel = p && predict_ns(p, work) < kShortNs;
  // Probe serially when parallel launches are short and the serial figure
  // is missing or stale.
  if (short_parallel && (!s || now - r.serial_at.load(rx) > r.serial_wait.load(rx))) return false;
  if (!s || predict_ns(s, work) >= kShortNs) return true;  // a big sweep shares its work
  if (now - r.parallel_at.load(rx) > r.parallel_wait.load(rx)) return true;  // parallel_at is 0 when missing
  return p && p < s;
}

bool times_launch(const LaunchRecord& r, bool parallel) {
  constexpr auto rx = std::memory_order_relaxed;
  uint64_t s = r.serial_ps.load(rx), p = r.parallel_ps.load(rx);
  if (parallel || !s) return true;
  uint32_t age = r.launches.load(rx) - r.serial_at.load(rx);
  if (p && p < s) return age > r.serial_wait.load(rx);  // the slower way: a due probe (choose_parallel's rule)
  return age >= kSerialRefresh;
}

namespace {

uint64_t per_unit_ps(uint64_t ns, int64_t work) {
  return std::max<uint64_t>(1, ns * 1000 / (uint64_t)std::max<int64_t>(1, work));
}

}  // namespace

void note_launch(LaunchRecord& r, bool parallel, int64_t work, uint64_t ns, uint64_t serial_estimate_ns) {
  constexpr auto rx = std::memory_order_relaxed;
  uint32_t now = r.launches.load(rx);
  if (serial_estimate_ns && !r.serial_ps.load(rx)) {
    r.serial_ps.store(per_unit_ps(serial_estimate_ns, work), rx);
    r.serial_at.store(now, rx);
  }
  if (now <= 1) {  // the first launch's wall time: it compiles and fills caches
    if (!r.serial_ps.load(rx)) r.first_ns.store(std::max<uint64_t>(1, ns), rx);
    return;
  }
  uint64_t ps = per_unit_ps(ns, work);
  auto& figure = parallel ? r.parallel_ps : r.serial_ps;
  uint64_t was = figure.load(rx);
  if (was) ps = std::min(ps, 2 * was);
  figure.store(ps, rx);
  (parallel ? r.parallel_at : r.serial_at).store(now, rx);
  // The way that measured slower waits twice as long for its next probe.
  uint64_t other = (parallel ? r.serial_ps : r.parallel_ps).load(rx);
  auto& wait = parallel ? r.parallel_wait : r.serial_wait;
  uint32_t base = parallel ? kParallelReprobe : kSerialReprobe;
  if (other) wait.store(ps < other ? base : std::min(kMaxReprobe, 2 * wait.load(rx)), rx);
}

}  // namespace kiln::interp
