// The launcher's serial-or-parallel rule (vm/interp/launch_mode.h), driven
// with made-up timings: which way each launch of a task runs.
#include <doctest/doctest.h>

#include "vm/interp/launch_mode.h"

using namespace kiln;
using namespace kiln::interp;

namespace {

// One launch of `work` units; the way it runs takes `serial_ns` or
// `parallel_ns`. Returns whether it ran in parallel.
// A parallel launch also estimates the serial time from the launching
// thread's chunks: `estimate_ns` (0: it gave none). The pool has `threads`.
bool launch(LaunchRecord& r, int64_t work, uint64_t serial_ns, uint64_t parallel_ns, uint64_t estimate_ns = 0,
            int threads = 2) {
  bool parallel = choose_parallel(r, work, threads);
  if (times_launch(r, parallel)) note_launch(r, parallel, work, parallel ? parallel_ns : serial_ns, parallel ? estimate_ns : 0);
  return parallel;
}

}  // namespace

TEST_CASE("a small sweep that runs faster serially: parallel only in rare probes") {
  LaunchRecord r;
  int parallel = 0;
  // the first launch compiles (5 ms) and gives no serial figure
  parallel += launch(r, 26000, 3'000, 5'000'000);
  for (int k = 0; k < 5000; ++k) parallel += launch(r, 26000, 3'000, 15'000);
  // the first two launches run in parallel (the first is not measured), the
  // third probes serially; parallel probes follow 64, 128, 256, ... apart
  CHECK(parallel >= 4);
  CHECK(parallel <= 9);
}

TEST_CASE("a short first launch with no serial figure: the second probes serially") {
  LaunchRecord r;
  // 1 ms with the compile, the launching thread's one chunk: no estimate
  CHECK(launch(r, 26000, 2'500, 1'000'000));
  CHECK(r.first_ns.load() == 1'000'000);
  int parallel = 0;
  for (int k = 0; k < 60; ++k) parallel += launch(r, 26000, 2'500, 17'000);
  // the parallel way is first measured 64 launches later (as after a first
  // launch's serial estimate), and stays the slower
  CHECK(parallel == 0);
  for (int k = 0; k < 100; ++k) parallel += launch(r, 26000, 2'500, 17'000);
  CHECK(parallel == 1);
  // on 16 threads a serial launch could cost 16 ms: the second runs in parallel
  LaunchRecord wide;
  CHECK(launch(wide, 26000, 2'500, 1'000'000, 0, 16));
  CHECK(launch(wide, 26000, 2'500, 17'000, 0, 16));
}

TEST_CASE("a long first launch with no serial figure: the second runs in parallel") {
  LaunchRecord r;
  CHECK(launch(r, 1 << 22, 20'000'000, 9'000'000));
  CHECK(launch(r, 1 << 22, 20'000'000, 9'000'000));
}

TEST_CASE("the first launch's serial estimate makes a small sweep serial from the second") {
  LaunchRecord r;
  CHECK(launch(r, 26000, 3'000, 900'000, 3'500));  // compiles: long, but its later chunks were quick
  int parallel = 0;
  for (int k = 0; k < 60; ++k) parallel += launch(r, 26000, 3'000, 15'000, 3'500);
  CHECK(parallel == 0);
}

TEST_CASE("a heavy loop of few iterations stays parallel from the first launch") {
  LaunchRecord r;
  for (int k = 0; k < 100; ++k) CHECK(launch(r, 4096, 6'000'000, 3'100'000, 6'200'000));
}

TEST_CASE("a big sweep stays parallel and is never probed serially") {
  LaunchRecord r;
  for (int k = 0; k < 1000; ++k) CHECK(launch(r, 1 << 22, 4'000'000, 2'100'000));
}

TEST_CASE("a short task that runs faster in parallel settles on parallel") {
  LaunchRecord r;
  int serial_late = 0;
  launch(r, 100000, 40'000, 5'000'000);  // the first launch compiles
  for (int k = 0; k < 2000; ++k) {
    bool p = launch(r, 100000, 40'000, 25'000);
    if (k >= 10 && !p) ++serial_late;
  }
  // serial probes 4, 8, 16, ... launches apart
  CHECK(serial_late <= 12);
}

TEST_CASE("one preempted serial launch does not turn a task parallel for long") {
  LaunchRecord r;
  for (int k = 0; k < 200; ++k) launch(r, 26000, 3'000, 15'000);
  int parallel = 0;
  // a serial launch preempted for 5 ms, then the same costs as before
  launch(r, 26000, 5'000'000, 15'000);
  for (int k = 0; k < 20; ++k) parallel += launch(r, 26000, 3'000, 15'000);
  CHECK(parallel <= 1);
}

TEST_CASE("a task whose work grows goes parallel, and back when it shrinks") {
  LaunchRecord r;
  for (int k = 0; k < 300; ++k) launch(r, 4096, 500, 10'000);
  CHECK(!launch(r, 4096, 500, 10'000));
  // 256x the work: serially 128 us at the small launches' rate, 256 us as
  // it runs (its data no longer fits a cache), in parallel 140 us. A
  // figure at most doubles a launch, so one launch may still go serially.
  int parallel = 0;
  for (int k = 0; k < 20; ++k) parallel += launch(r, 4096 * 256, 256'000, 140'000);
  CHECK(parallel >= 18);
  int serial = 0;
  for (int k = 0; k < 20; ++k) serial += !launch(r, 4096, 500, 10'000);
  CHECK(serial >= 18);
}

TEST_CASE("a record's first launch is not measured; a new task in its slot starts afresh") {
  LaunchRecord r;
  CHECK(launch(r, 1000, 3'000'000, 3'000'000));  // no figure: in parallel
  CHECK(r.parallel_ps.load() == 0);
  CHECK(launch(r, 1000, 3'000'000, 3'000'000));  // still none, long: in parallel again
  CHECK(r.parallel_ps.load() == 3'000'000);      // per unit: 3 ms / 1000
  bc::TaskCode a, b;
  LaunchRecord& ra = record_of(a);
  ra.serial_ps.store(7);
  CHECK(record_of(a).serial_ps.load() == 7);
  // b may share a's slot: then a's figures are gone when a comes back
  bool shared = &record_of(b) == &ra;
  CHECK(record_of(a).serial_ps.load() == (shared ? 0u : 7u));
}

TEST_CASE("a settled serial task is timed one launch in kSerialRefresh; a due serial probe always") {
  LaunchRecord r;
  for (int k = 0; k < 300; ++k) launch(r, 26000, 3'000, 15'000);
  int timed = 0;
  for (int k = 0; k < 160; ++k) {
    bool p = choose_parallel(r, 26000, 2);
    bool t = times_launch(r, p);
    CHECK((!p || t));  // a parallel launch is always timed
    if (t) {
      timed++;
      note_launch(r, p, 26000, p ? 15'000 : 3'000);
    }
  }
  // 160 / kSerialRefresh serial refreshes, and a parallel probe or two
  CHECK(timed >= 10);
  CHECK(timed <= 14);
  // parallel the faster: a serial launch is a probe, and timed
  LaunchRecord q;
  for (int k = 0; k < 300; ++k) launch(q, 100000, 40'000, 25'000);
  for (int k = 0; k < 300; ++k) {
    bool p = choose_parallel(q, 100000, 2);
    CHECK(times_launch(q, p));
    note_launch(q, p, 100000, p ? 25'000 : 40'000);
  }
}
