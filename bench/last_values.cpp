// Baseline for last_values.py: the same loops with their breaks, serial.
// Each kernel's time is thread CPU of one run, the least of 15 (ms).
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <vector>
static double thread_ms() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
// (noinline: each kernel reads the arrays afresh, as a launch does)
__attribute__((noinline)) int last_index(const float* x, int n) {
  int last = -1;
  for (int i = 0; i < n; i++) {
    if (x[i] < 0) break;
    last = i;
  }
  return last;
}
__attribute__((noinline)) float last_element(const float* x, int n) {
  float last = 0.0f;
  for (int i = 0; i < n; i++) {
    if (x[i] < 0) break;
    last = x[i];
  }
  return last;
}
__attribute__((noinline)) int last_and_sum(const int* k, int n) {
  int last = 0, s = 0;
  for (int i = 0; i < n; i++) {
    if (k[i] > 600) break;
    s += k[i];
    last = k[i] * 3;
  }
  return s + last;
}
int main() {
  const int N = 1 << 22;
  std::vector<float> x(N);
  std::vector<int> k(N);
  for (int i = 0; i < N; i++) x[i] = (float)(i % 1000) * 0.5f, k[i] = (i * 7) % 1001 - 500;
  double check = 0, total = 0;
  const char* names[3] = {"last_index", "last_element", "last_and_sum"};
  for (int f = 0; f < 3; f++) {
    double best = 1e9, v = 0;
    for (int r = 0; r < 16; r++) {
      double t = thread_ms();
      v = f == 0 ? last_index(x.data(), N) : f == 1 ? last_element(x.data(), N) : last_and_sum(k.data(), N);
      double dt = thread_ms() - t;
      if (r && dt < best) best = dt;
    }
    check += v;
    total += best;
    std::printf("%s %.3f\n", names[f], best);
  }
  std::printf("checksum %.1f\ntime_ms %f\n", check, total);
}
