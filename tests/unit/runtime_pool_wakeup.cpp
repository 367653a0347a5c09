// ThreadPool's hand-off (thread_pool.cpp): workers spin a little after a job,
// then sleep; the caller never waits for a worker that has not joined. These
// check the paths that a wrong protocol would break without a deadlock: many
// back-to-back short jobs (workers join late, or find the job closed), jobs
// spaced past the spin (the sleep and wake-up), an idle pool (it must not
// burn a core), and shutdown at every point of a worker's loop.
#include <doctest/doctest.h>

#include <time.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "vm/runtime/thread_pool.h"

using namespace kiln;

namespace {

double process_cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

}  // namespace

TEST_CASE("many short jobs from one thread: every element once, plain writes visible on return") {
  for (int threads : {2, 3, 8}) {
    CAPTURE(threads);
    ThreadPool pool(threads);
    std::vector<int> hits(700, 0);  // plain ints: each element is written by one chunk
    bool ok = true;
    for (int rep = 0; rep < 20000 && ok; ++rep) {
      int64_t n = 2 + rep % 600;
      int64_t chunk = 1 + rep % 7;
      pool.parallel_for(n, chunk, [&](int64_t b, int64_t e, int) {
        for (int64_t i = b; i < e; ++i) hits[i] = rep + 1;
      });
      // parallel_for's return orders every chunk's writes before this read
      for (int64_t i = 0; i < n; ++i) ok &= hits[i] == rep + 1;
    }
    CHECK(ok);
  }
}

TEST_CASE("jobs spaced past the spin: sleeping workers wake and take chunks") {
  ThreadPool pool(2);
  std::atomic<int64_t> by_worker{0}, total{0};
  int launches = 0;
  // The worker sleeps between these launches (each waits well past the spin),
  // so a chunk run by worker 1 came through the wake-up. A loaded machine may
  // leave it off its core for a few launches; it gets many.
  while (launches < 300 && by_worker.load() == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    pool.parallel_for(32, 1, [&](int64_t b, int64_t e, int w) {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      total += e - b;
      if (w != 0) by_worker += e - b;
    });
    ++launches;
  }
  CHECK(by_worker.load() > 0);
  CHECK(total.load() == 32LL * launches);
}

TEST_CASE("an idle pool sleeps: its workers use no CPU while nothing is launched") {
  ThreadPool pool(4);
  std::atomic<int64_t> sum{0};
  pool.parallel_for(100000, 100, [&](int64_t b, int64_t e, int) {
    for (int64_t i = b; i < e; ++i) sum += i & 1;
  });
  CHECK(sum.load() == 50000);
  // Each worker spins at most kSpinNs (tens of microseconds) after the job.
  double before = process_cpu_ms();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  double used = process_cpu_ms() - before;
  CHECK(used < 20.0);
}

TEST_CASE("shutdown while workers spin, sleep, or were never used") {
  for (int rep = 0; rep < 300; ++rep) {
    ThreadPool pool(3);
    std::atomic<int64_t> sum{0};
    pool.parallel_for(1000, 10, [&](int64_t b, int64_t e, int) { sum += e - b; });
    CHECK(sum.load() == 1000);
    // the destructor runs with the workers still spinning
  }
  for (int rep = 0; rep < 5; ++rep) {
    ThreadPool pool(3);
    pool.parallel_for(100, 1, [&](int64_t, int64_t, int) {});
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past the spin: asleep
  }
  for (int rep = 0; rep < 100; ++rep) ThreadPool pool(4);  // workers never given a job
}
