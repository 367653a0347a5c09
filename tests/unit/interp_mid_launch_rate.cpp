// The in-launch rule's prediction of a task's time left (vm/interp/
// mid_launch.h MidLaunchTask::left_cpu_ns), driven with made-up figures.
#include <doctest/doctest.h>

#include "vm/interp/mid_launch.h"

using namespace kiln::interp;

TEST_CASE("the rate counts from the launch's first boundary, not its first slice") {
  // The first slice: 256 iterations in 9.6 ms (the JIT compiled the loop's
  // trace in it); then 25 ns an iteration, of 2M.
  MidLaunchTask m;
  m.reset_rate();
  const int64_t total = 2'000'000, window = 4'000'000;
  CHECK(m.left_cpu_ns(256, total, 9'600'000, window) == 0);  // (the base)
  int64_t done = 256, cpu = 9'600'000;
  for (int s = 0; s < 3; s++) {  // slices of 80000 iterations, 2 ms each
    done += 80000;
    cpu += 2'000'000;
    double left = m.left_cpu_ns(done, total, cpu, window);
    if (s == 0) CHECK(left == 0);  // under a window's CPU after the base: no rate yet
    else CHECK(left == doctest::Approx(25.0 * (double)(total - done)).epsilon(0.01));
  }
}

TEST_CASE("a task whose iterations grow dear is predicted from its latest window") {
  // 1000 iterations of 1 us, then each slice's iterations cost twice the
  // last one's: the launch's rate so far says less is left than the latest
  // window's, and the greater counts.
  MidLaunchTask m;
  m.reset_rate();
  const int64_t total = 100000, window = 1'000'000;
  int64_t done = 1000, cpu = 1'000'000;
  m.left_cpu_ns(done, total, cpu, window);
  double ns = 1000, left = 0;
  for (int s = 0; s < 6; s++) {
    ns *= 2;
    done += 1000;
    cpu += (int64_t)(1000 * ns);
    left = m.left_cpu_ns(done, total, cpu, window);
  }
  const double average = (double)(cpu - 1'000'000) / (double)(done - 1000) * (double)(total - done);
  CHECK(left == doctest::Approx(ns * (double)(total - done)));
  CHECK(left > 1.9 * average);
  // A later launch starts over (reset_rate): its first boundary is its base.
  m.reset_rate();
  CHECK(m.left_cpu_ns(10, total, 50'000, window) == 0);
  CHECK(m.left_cpu_ns(2010, total, 2'050'000, window) == doctest::Approx(1000.0 * (double)(total - 2010)));
}
