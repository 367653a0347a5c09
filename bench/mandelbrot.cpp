// Baseline for mandelbrot.py (f32 like the kernel's default float). Serial;
// with -fopenmp (scripts/bench's OpenMP variant) rows run in parallel.
// The products are fused as Kiln's fast_math contracts them (docs/fast_math.md:
// the left product of a sum, `a * b - c` as fma(a, b, -c)), so the escape
// counts, and the checksum, are the kernel's; -ffp-contract=fast left g++ free
// to fuse the other product (a checksum 618 counts off).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>
int main() {
  const int W = 1024;
  std::vector<int> img(W * W);
  auto run = [&] {
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < W; i++)
      for (int j = 0; j < W; j++) {
        float cx = -2.0f + 3.0f * (float)i / W, cy = -1.5f + 3.0f * (float)j / W, x = 0, y = 0;
        int n = 0;
#ifdef ESCAPE_AS_BREAK  // mandelbrot_break.cpp: the test as users write it
        while (n < 200) {
          if (std::fma(x, x, y * y) >= 4.0f) break;
#else
        while (n < 200 && std::fma(x, x, y * y) < 4.0f) {
#endif
          float nx = std::fma(x, x, -(y * y)) + cx;
          y = std::fma(2.0f * x, y, cy);
          x = nx;
          n++;
        }
        img[i * W + j] = n;
      }
  };
  run();
  auto t = std::chrono::steady_clock::now();
  run();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  long long s = 0;
  for (int v : img) s += v;
  std::printf("checksum %lld\ntime_ms %f\n", s, ms);
}
