// Baseline for saxpy.py: the same loops, g++ -O3 -march=native.
#include <chrono>
#include <cstdio>
#include <vector>
int main() {
  const int N = 1 << 24;
  std::vector<float> x(N), y(N);
  for (int i = 0; i < N; i++) { x[i] = (i % 100) * 0.01f; y[i] = 1.0f; }
  auto run = [&](float a) { for (int i = 0; i < N; i++) y[i] = a * x[i] + y[i]; };
  run(0.5f);
  auto t = std::chrono::steady_clock::now();
  for (int k = 0; k < 10; k++) run(0.5f);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  double s = 0;
  for (int i = 0; i < N; i += 4096) s += y[i];
  std::printf("checksum %g\ntime_ms %f\n", s, ms);
}
