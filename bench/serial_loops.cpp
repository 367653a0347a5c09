// Baseline for serial_loops.py.
#include <chrono>
#include <cstdint>
#include <cstdio>
int main() {
  auto t = std::chrono::steady_clock::now();
  int64_t s = 0;
  for (int64_t i = 0; i < 100000000; i++) s += i * i % 7;
  int64_t steps = 0;
  for (int64_t k = 1; k < 1000000; k++) {
    int64_t n = k;
    while (n != 1) {
      n = n % 2 == 0 ? n / 2 : 3 * n + 1;
      steps++;
    }
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  std::printf("checksum %lld %lld\ntime_ms %f\n", (long long)s, (long long)steps, ms);
}
