// Baseline for reduction.py (serial sums; the kernel's f32 sum order differs, so only i32 is the checksum).
// Serial; with -fopenmp (scripts/bench's OpenMP variant) both sums are parallel reductions.
#include <chrono>
#include <cstdio>
#include <vector>
int main() {
  const int N = 1 << 24;
  std::vector<float> xf(N);
  std::vector<int> xi(N);
  for (int i = 0; i < N; i++) { xf[i] = (i % 7) * 0.5f; xi[i] = i % 13; }
  volatile float sink;
  auto t = std::chrono::steady_clock::now();
  float a = 0;
#pragma omp parallel for reduction(+ : a)
  for (int i = 0; i < N; i++) a += xf[i];
  int b = 0;
#pragma omp parallel for reduction(+ : b)
  for (int i = 0; i < N; i++) b += xi[i];
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  sink = a;
  (void)sink;
  std::printf("checksum %d\ntime_ms %f\nbytes_moved %lld\n", b, ms, 2LL * 4 * N);
}
