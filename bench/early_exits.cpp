// Baseline for early_exits.py: the same loops with their breaks. Serial;
// with -fopenmp the outer loops run in parallel.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>
int main() {
  const int N = 2000000, R = 4096, C = 512;
  std::vector<int> steps(N), data(R * C), first(R);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) data[i * C + j] = (i * 7919 + j * 104729) % 10007;
  auto run = [&] {
#pragma omp parallel for schedule(dynamic, 4096)
    for (int k = 0; k < N; k++) {
      int64_t n = k + 1;
      int s = 0;
      while (n != 1) {
        if (s >= 48) break;
        if (n % 2 == 0) n = n / 2;
        else n = 3 * n + 1;
        s++;
      }
      steps[k] = s;
    }
#pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < R; i++) {
      int t = 9000 + i % 1000, found = C, j = 0;
      while (j < C) {
        if (data[i * C + j] > t) {
          found = j;
          break;
        }
        j++;
      }
      first[i] = found;
    }
  };
  run();
  auto t = std::chrono::steady_clock::now();
  run();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  long long s = 0;
  for (int v : steps) s += v;
  for (int v : first) s += v;
  std::printf("checksum %lld\ntime_ms %f\n", s, ms);
}
