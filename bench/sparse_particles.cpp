// Baseline for sparse_particles.py: the same bitmasked blocks (1024 cells of
// {p, v} and their activity bits), the same spawn, and ten steps that scan
// each block's bits and update its live cells; blocks split among threads
// with OpenMP when built with -fopenmp. f32 arithmetic as the kernel's
// (fused as fast_math fuses it).
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int N = 1 << 21, B = 1024, NB = N / B;

struct Cell {
  float p, v;
};
struct Block {
  Cell c[B];
  uint64_t mask[B / 64];
};

int main() {
  std::vector<Block> blocks(NB);
  for (auto& b : blocks) {
    for (auto& w : b.mask) w = 0;
    for (auto& c : b.c) c = {0, 0};
  }
  for (int k = 0; k < N; k++)
    if ((k * 13 + k / B) % 10 < 5) {
      Block& b = blocks[k / B];
      int i = k % B;
      b.mask[i / 64] |= 1ull << (i % 64);
      b.c[i] = {(float)(k % 1000) * 0.001f, (float)((k % 37) - 18) * 0.01f};
    }
  auto step = [&] {
#pragma omp parallel for schedule(dynamic, 16)
    for (int bi = 0; bi < NB; bi++) {
      Block& b = blocks[bi];
      for (int w = 0; w < B / 64; w++) {
        uint64_t bits = b.mask[w];
        while (bits) {
          int i = w * 64 + __builtin_ctzll(bits);
          bits &= bits - 1;
          float v = b.c[i].v - 0.098f;
          // Kiln's fast_math (its default, as Taichi's) contracts the
          // kernel's p + v * 0.01 into one fused multiply-add; g++ leaves
          // this one unfused even with -ffp-contract=fast, so it is spelled
          // out: the checksums then compare the same arithmetic.
          float p = std::fma(v, 0.01f, b.c[i].p);
          if (p < 0) {
            p = -p;
            v = -v;
          }
          b.c[i] = {p, v};
        }
      }
    }
  };
  step();  // warm-up, as the kernel's first run
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < 10; r++) step();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  double s = 0;
  for (auto& b : blocks)
    for (int i = 0; i < B; i++)
      if ((b.mask[i / 64] >> (i % 64)) & 1) s += (double)b.c[i].p + (double)b.c[i].v;
  std::printf("checksum %.9g\ntime_ms %f\nlistgen_ms 0\nsweep_ms %f\n", s, ms, ms);
}
