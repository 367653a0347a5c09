// Baseline for saxpy.py: the same loops, g++ -O3 -march=native (serial; with
// -fopenmp, scripts/bench's OpenMP variant, the loop runs in parallel).
#include <chrono>
#include <cstdio>
#include <vector>
int main() {
  const int N = 1 << 24;
  std::vector<float> x(N), y(N);
  for (int i = 0; i < N; i++) { x[i] = (i % 100) * 0.01f; y[i] = 1.0f; }
  auto run = [&](float a) {
    const float* X = x.data();  // raw pointers: the OpenMP-outlined loop then vectorizes
    float* Y = y.data();
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) Y[i] = a * X[i] + Y[i];
    // Each run reads and writes all of y, as each kernel launch does: without
    // this barrier g++ (serial build) interchanges the runs' loop with the
    // element loop and keeps y[i] in a register over the 10 runs (268% of the
    // stream bandwidth: a tenth of the traffic).
    asm volatile("" : : "r"(Y) : "memory");
  };
  run(0.5f);
  auto t = std::chrono::steady_clock::now();
  for (int k = 0; k < 10; k++) run(0.5f);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  double s = 0;
  for (int i = 0; i < N; i += 4096) s += y[i];
  std::printf("checksum %.10g\ntime_ms %f\nbytes_moved %lld\n", s, ms, 10LL * 3 * 4 * N);
}
