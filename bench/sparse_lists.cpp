// Baseline for sparse_lists.py: 4096 lists of up to 1024 ints, each a
// length and chunks of 64 allocated on first use (compare-and-swap), filled
// by 2^20 appends (an atomic increment of the length per append), then ten
// sweeps over every listed value. Threads (-fopenmp) split the appends and
// the lists, as the kernels' parallel loops do.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int M = 4096, CAP = 1024, CHUNK = 64, T = 1 << 20;

struct List {
  std::atomic<long long> len{0};
  std::atomic<int*> chunks[CAP / CHUNK] = {};
};

static int* chunk(List& l, int k) {
  int* c = l.chunks[k].load(std::memory_order_acquire);
  if (c) return c;
  int* fresh = static_cast<int*>(std::calloc(CHUNK, sizeof(int)));
  if (l.chunks[k].compare_exchange_strong(c, fresh, std::memory_order_acq_rel)) return fresh;
  std::free(fresh);
  return c;
}

int main() {
  std::vector<List> lists(M);
  auto fill = [&] {
#pragma omp parallel for schedule(static)
    for (int k = 0; k < T; k++) {
      List& l = lists[(k * 13) % M];
      long long at = l.len.fetch_add(1, std::memory_order_acq_rel);
      if (at < CAP) chunk(l, (int)(at / CHUNK))[at % CHUNK] = k % 1000;
    }
  };
  auto sweep = [&] {
#pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < M; i++) {
      List& l = lists[i];
      long long n = l.len.load(std::memory_order_acquire);
      for (long long j = 0; j < n && j < CAP; j++) {
        int* c = l.chunks[j / CHUNK].load(std::memory_order_relaxed);
        int& v = c[j % CHUNK];
        v = (v * 3 + i) % 1001;
      }
    }
  };
  auto clear = [&] {
    for (auto& l : lists) {
      for (auto& c : l.chunks) std::free(c.exchange(nullptr));
      l.len = 0;
    }
  };
  fill();  // warm-up, as the kernels' first runs
  sweep();
  clear();
  auto t0 = std::chrono::steady_clock::now();
  fill();
  auto t1 = std::chrono::steady_clock::now();
  for (int r = 0; r < 10; r++) sweep();
  auto t2 = std::chrono::steady_clock::now();
  long long s = 0;
  for (int i = 0; i < M; i++)
    for (long long j = 0; j < lists[i].len && j < CAP; j++) s += lists[i].chunks[j / CHUNK].load()[j % CHUNK];
  double a = std::chrono::duration<double, std::milli>(t1 - t0).count();
  double w = std::chrono::duration<double, std::milli>(t2 - t1).count();
  std::printf("checksum %lld\ntime_ms %f\nappend_ms %f\nsweep_ms %f\n", s, a + w, a, w);
}
