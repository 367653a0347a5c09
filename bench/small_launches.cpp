// Baseline for small_launches.py: the same 2000 steps over 4096 f32 as a
// plain loop (what a launch costs nothing in), g++ -O3 -march=native.
#include <chrono>
#include <cstdio>
#include <vector>
int main() {
  const int N = 4096;
  std::vector<float> x(N);
  for (int i = 0; i < N; i++) x[i] = (i % 10) * 0.1f;
  auto step = [&](float a) {
    float* X = x.data();
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) X[i] = X[i] * a + 0.25f;
  };
  step(0.5f);
  auto t = std::chrono::steady_clock::now();
  for (int k = 0; k < 2000; k++) step(0.5f);
  double s = 0;
  for (int i = 0; i < N; i += 64) s += x[i];
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  std::printf("checksum %.10g\ntime_ms %f\n", s, ms);
}
