// Baseline for blocked.py: a 4096x4096 grid in 8x8 blocks (blocks row-major,
// each block's cells row-major), x and y an array each, updated block by
// block as a user writes it; g++ -O3 -march=native (serial; with -fopenmp the
// rows of blocks run in parallel).
#include <chrono>
#include <cstdio>
#include <vector>
constexpr int N = 4096, B = 8, NB = N / B;
// The cell of element (i, j).
inline long at(int i, int j) { return ((long)(i / B * NB + j / B) * B + i % B) * B + j % B; }
int main() {
  std::vector<float> xs((size_t)N * N), ys((size_t)N * N);
  float* X = xs.data();  // raw pointers: the OpenMP-outlined loop then vectorizes
  float* Y = ys.data();
#pragma omp parallel for schedule(static)
  for (int bi = 0; bi < NB; bi++)
    for (int bj = 0; bj < NB; bj++)
      for (int u = 0; u < B; u++)
        for (int v = 0; v < B; v++) {
          int i = bi * B + u, j = bj * B + v;
          long c = ((long)(bi * NB + bj) * B + u) * B + v;
          X[c] = ((i + j) % 100) * 0.01f;
          Y[c] = 1.0f;
        }
  auto run = [&](float a) {
#pragma omp parallel for schedule(static)
    for (int bi = 0; bi < NB; bi++)
      for (int bj = 0; bj < NB; bj++) {
        long blk = (long)(bi * NB + bj) * B * B;
        for (int u = 0; u < B; u++)
          for (int v = 0; v < B; v++) {
            long c = blk + u * B + v;
            Y[c] = a * X[c] + Y[c];
          }
      }
    asm volatile("" : : "r"(Y) : "memory");  // each run reads and writes all of y (see saxpy.cpp)
  };
  run(0.5f);
  auto t = std::chrono::steady_clock::now();
  for (int k = 0; k < 10; k++) run(0.5f);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  double s = 0;
  for (long k = 0; k < (long)N * N / 4093; k++) {
    long c = k * 4093;
    s += Y[at((int)(c / N), (int)(c % N))];
  }
  std::printf("checksum %.10g\ntime_ms %f\nbytes_moved %lld\n", s, ms, 10LL * 3 * 4 * N * N);
}
