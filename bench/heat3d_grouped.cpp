// Baseline for heat3d_grouped.py: the same 20 steps over a 160^3 f32 grid in
// the kernel's operation order (lap = -6 a; lap += a[+i] + a[-i]; the same
// along j, then k; b = a + c * lap). Serial as built by scripts/bench; with
// -fopenmp the planes run in parallel.
#include <chrono>
#include <cstdio>
#include <vector>
int main() {
  const int N = 160;
  const float c = 0.1f;
  std::vector<float> u((size_t)N * N * N), v((size_t)N * N * N);
  auto at = [&](int i, int j, int k) { return ((size_t)i * N + j) * N + k; };
  auto init = [&] {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        for (int k = 0; k < N; k++) u[at(i, j, k)] = v[at(i, j, k)] = i == 0 ? 1.0f : 0.0f;
  };
  auto step = [&](const std::vector<float>& av, std::vector<float>& bv) {
    const float* __restrict a = av.data();  // raw pointers: the OpenMP-outlined loop then vectorizes
    float* __restrict b = bv.data();
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        for (int k = 1; k < N - 1; k++) {
          const size_t x = ((size_t)i * N + j) * N + k;
          float lap = -6.0f * a[x];
          lap += a[x + N * N] + a[x - N * N];
          lap += a[x + N] + a[x - N];
          lap += a[x + 1] + a[x - 1];
          b[x] = a[x] + c * lap;
        }
  };
  init();
  step(u, v);
  step(v, u);
  init();
  auto t = std::chrono::steady_clock::now();
  for (int n = 0; n < 10; n++) {
    step(u, v);
    step(v, u);
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) s += (double)u[at(i, j, k)] * (1 + k % 7);
  std::printf("checksum %.10g\ntime_ms %f\nbytes_moved %lld\n", s, ms, 20LL * 2 * N * N * N * 4);
}
