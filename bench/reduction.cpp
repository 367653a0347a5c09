// Baseline for reduction.py. The f32 sum is an `omp simd` reduction, as Kiln's
// fast_math splits it into 8 partial sums in lanes (vm/ir/passes/split_sums.cpp;
// g++ picks its own association, so only the i32 sum is the checksum).
// Serial (scripts/bench builds with -fopenmp-simd); with -fopenmp both sums are
// parallel reductions.
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
#pragma omp parallel for simd reduction(+ : a)
  for (int i = 0; i < N; i++) a += xf[i];
  int b = 0;
#pragma omp parallel for reduction(+ : b)
  for (int i = 0; i < N; i++) b += xi[i];
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  sink = a;
  (void)sink;
  std::printf("checksum %d\ntime_ms %f\nbytes_moved %lld\n", b, ms, 2LL * 4 * N);
}
