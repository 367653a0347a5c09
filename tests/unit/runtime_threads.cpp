// ThreadPool: dynamic chunks cover [0, n) exactly once for any chunk size,
// exceptions come back to the caller, and nested loops do not deadlock.
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "vm/runtime/program.h"
#include "vm/runtime/thread_pool.h"

using namespace kiln;

TEST_CASE("sums over 10^6 match the serial sum for many chunk sizes and pool sizes") {
  const int64_t n = 1000000;
  int64_t serial = 0, serial_sq = 0;
  for (int64_t i = 0; i < n; ++i) {
    serial += i;
    serial_sq += (i * i) % 1000003;
  }
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    CHECK(pool.size() == threads);
    for (int64_t chunk : {0LL, 1LL, 7LL, 1000LL, 65536LL, 999999LL, 1000000LL, 5000000LL}) {
      CAPTURE(threads);
      CAPTURE(chunk);
      std::vector<int64_t> partial(threads, 0), partial_sq(threads, 0);
      std::vector<std::atomic<uint8_t>> visits(n);
      std::atomic<bool> bad_worker{false};
      pool.parallel_for(n, chunk, [&](int64_t b, int64_t e, int w) {
        if (w < 0 || w >= threads) {
          bad_worker = true;
          return;
        }
        if (chunk > 0 && e - b > chunk) bad_worker = true;
        for (int64_t i = b; i < e; ++i) {
          partial[w] += i;
          partial_sq[w] += (i * i) % 1000003;
          visits[i].fetch_add(1, std::memory_order_relaxed);
        }
      });
      CHECK(!bad_worker);
      int64_t sum = 0, sum_sq = 0;
      for (int w = 0; w < threads; ++w) {
        sum += partial[w];
        sum_sq += partial_sq[w];
      }
      CHECK(sum == serial);
      CHECK(sum_sq == serial_sq);
      bool once = true;
      for (auto& v : visits) once &= (v.load() == 1);
      CHECK(once);
    }
  }
}

TEST_CASE("n = 0 (and negative n) returns at once") {
  ThreadPool pool(4);
  int calls = 0;
  pool.parallel_for(0, 0, [&](int64_t, int64_t, int) { ++calls; });
  pool.parallel_for(-5, 3, [&](int64_t, int64_t, int) { ++calls; });
  CHECK(calls == 0);
}

TEST_CASE("small n: every element still runs once") {
  ThreadPool pool(4);
  for (int64_t n : {1, 2, 3, 5, 31, 33}) {
    std::vector<std::atomic<int>> hits(n);
    pool.parallel_for(n, 0, [&](int64_t b, int64_t e, int) {
      for (int64_t i = b; i < e; ++i) hits[i]++;
    });
    for (auto& h : hits) CHECK(h.load() == 1);
  }
}

TEST_CASE("exceptions propagate and the pool keeps working") {
  for (int threads : {1, 4}) {
    ThreadPool pool(threads);
    CAPTURE(threads);
    // one failing element
    CHECK_THROWS_WITH_AS(pool.parallel_for(100000, 100,
                                           [&](int64_t b, int64_t e, int) {
                                             if (b <= 54321 && 54321 < e)
                                               throw std::runtime_error("boom");
                                           }),
                         "boom", std::runtime_error);
    // every chunk throws: exactly one exception comes back, and the remaining
    // chunks are skipped rather than all run
    std::atomic<int64_t> ran{0};
    try {
      pool.parallel_for(1000000, 1, [&](int64_t b, int64_t, int) {
        ran++;
        throw std::out_of_range("chunk " + std::to_string(b));
      });
      FAIL("no exception");
    } catch (const std::out_of_range& e) {
      CHECK(std::string(e.what()).rfind("chunk ", 0) == 0);
    }
    CHECK(ran.load() <= threads);
    // kiln::Error keeps its kind across threads
    try {
      pool.parallel_for(1000, 10, [&](int64_t b, int64_t, int) {
        if (b == 500) raise("IndexError", "bad index");
      });
      FAIL("no exception");
    } catch (const Error& e) {
      CHECK(e.kind == "IndexError");
    }
    std::atomic<int64_t> sum{0};
    pool.parallel_for(1000, 0, [&](int64_t b, int64_t e, int) {
      for (int64_t i = b; i < e; ++i) sum += i;
    });
    CHECK(sum.load() == 499500);
  }
}

TEST_CASE("a nested parallel_for runs serially on the calling worker") {
  ThreadPool pool(4);
  std::atomic<int64_t> total{0};
  std::atomic<bool> moved{false};
  pool.parallel_for(64, 1, [&](int64_t b, int64_t e, int w) {
    pool.parallel_for(1000, 10, [&](int64_t ib, int64_t ie, int iw) {
      if (iw != w) moved = true;
      for (int64_t i = ib; i < ie; ++i) total += i;
    });
    // a third level, and a throw from inside the nested loop
    CHECK_THROWS_AS(pool.parallel_for(10, 1,
                                      [&](int64_t, int64_t, int) {
                                        pool.parallel_for(3, 1, [](int64_t, int64_t, int) {
                                          throw std::logic_error("inner");
                                        });
                                      }),
                    std::logic_error);
  });
  CHECK(total.load() == 64 * 499500);
  CHECK(!moved);
}

TEST_CASE("two outside threads share one pool") {
  ThreadPool pool(3);
  std::atomic<int64_t> a{0}, b{0};
  auto work = [&](std::atomic<int64_t>& acc) {
    for (int rep = 0; rep < 50; ++rep)
      pool.parallel_for(10000, 0, [&](int64_t s, int64_t e, int) {
        int64_t local = 0;
        for (int64_t i = s; i < e; ++i) local += i;
        acc += local;
      });
  };
  std::thread t1(work, std::ref(a)), t2(work, std::ref(b));
  t1.join();
  t2.join();
  CHECK(a.load() == 50LL * 49995000);
  CHECK(b.load() == 50LL * 49995000);
}

TEST_CASE("Program creates its pool from the config") {
  Config c;
  c.num_threads = 3;
  Program p(c);
  REQUIRE(p.pool);
  CHECK(p.pool->size() == 3);
  Config d;  // 0 = hardware concurrency
  Program q(d);
  CHECK(q.pool->size() >= 1);
  CHECK(q.out);
}
