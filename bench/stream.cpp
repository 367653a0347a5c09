// The machine's memory bandwidth, as STREAM measures it: copy (a = b), triad
// (a = b + s*c), and update (a = a + s*c, shaped like saxpy), plus read (s += b, the
// shape of a reduction, which STREAM lacks: one core's reads alone reach well below
// its reads mixed with writes on this VM), over three 2^24-element
// double arrays (128 MiB each, 384 MiB in all, beyond the 32 MiB L3; saxpy's and
// reduction's working sets are 128 MiB; this VM measures faster at these sizes than
// at GiBs, so larger arrays would understate what the benchmarks can get), best of 10. Bytes
// counted as STREAM counts them (arrays read + arrays written; no
// write-allocate traffic, which is why triad reads low). scripts/bench uses
// the best kernel as the machine's bandwidth, and each memory-bound program's own
// shape (it prints stream_kernel) as the roof for that program.
// grid: the copy at the stencils' footprint (bench/jacobi*.py: two 2048 x 2048 f32
// grids, 16 MiB each, swept back and forth 20 times, timed together as those
// programs time their 20 sweeps). A 5-point sweep moves a copy's traffic (one
// grid read, one written), but its 32 MiB may sit in the last-level cache
// where 384 MiB does not: on a host with a 260 MiB L3 the 128 MiB copy kernel
// ran at under half of this one, so it was no roof for the stencils. Not in
// the best kernel (bandwidth_gbs): that stays the memory's. On 2 MiB pages, as
// Kiln's field buffers are (vm/runtime/large_buffers): the copy at its best
// (on 4 KiB pages it took 4-5% more CPU time).
// grid3: the same at the 3-D stencils' footprint (bench/heat3d*.py: two 160^3
// f32 grids, 15.6 MiB each).
// Serial as built by scripts/bench; with -fopenmp the loops run in parallel.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <utility>
#include <vector>

#include <sys/mman.h>

// One pass of the grid kernel: a plain vector loop, as the stencils' sweeps
// store (g++ would otherwise call memcpy, whose large copies may stream).
__attribute__((optimize("no-tree-loop-distribute-patterns"))) static void grid_pass(float* to, const float* from,
                                                                                    long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++) to[i] = from[i];
}

int main() {
  const long N = 1L << 24;
  std::vector<double> a(N), b(N), c(N);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++) { a[i] = 1.0; b[i] = 2.0; c[i] = 0.5; }
  double best_copy = 1e30, best_triad = 1e30, best_update = 1e30, best_read = 1e30;
  // Two grids of n floats each, on 2 MiB pages (n rounded up to them).
  auto grids = [](long n) {
    size_t bytes = (n * 4 + (2 << 20) - 1) / (2 << 20) * (2 << 20);
    float* g[2];
    for (float*& x : g) {
      x = static_cast<float*>(std::aligned_alloc(2 << 20, bytes));
      madvise(x, bytes, MADV_HUGEPAGE);
    }
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) g[0][i] = 1.0f, g[1][i] = 0.0f;
    return std::pair{g[0], g[1]};
  };
  const long G = 2048L * 2048, G3 = 160L * 160 * 160;
  auto [g0, g1] = grids(G);
  auto [h0, h1] = grids(G3);
  double best_grid = 1e30, best_grid3 = 1e30;
  double sum = 0;
  for (int rep = 0; rep < 10; rep++) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < N; i++) a[i] = b[i];
    auto t1 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < N; i++) a[i] = b[i] + 3.0 * c[i];
    auto t2 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < N; i++) a[i] = a[i] + 3.0 * c[i];
    auto t3 = std::chrono::steady_clock::now();
    // Eight partial sums so that g++ vectorises the loop without -ffast-math
    // (a reduction that waits on one add would measure the adder, not memory).
    double p[8] = {};
#pragma omp parallel for schedule(static) reduction(+ : p[:8])
    for (long i = 0; i < N; i += 8)
      for (int k = 0; k < 8; k++) p[k] += b[i + k];
    auto t4 = std::chrono::steady_clock::now();
    for (double v : p) sum += v;
    for (int k = 0; k < 10; k++) {
      grid_pass(g1, g0, G);
      grid_pass(g0, g1, G);
    }
    auto t5 = std::chrono::steady_clock::now();
    for (int k = 0; k < 10; k++) {
      grid_pass(h1, h0, G3);
      grid_pass(h0, h1, G3);
    }
    auto t6 = std::chrono::steady_clock::now();
    best_grid = std::min(best_grid, std::chrono::duration<double>(t5 - t4).count());
    best_grid3 = std::min(best_grid3, std::chrono::duration<double>(t6 - t5).count());
    best_read = std::min(best_read, std::chrono::duration<double>(t4 - t3).count());
    best_update = std::min(best_update, std::chrono::duration<double>(t3 - t2).count());
    best_copy = std::min(best_copy, std::chrono::duration<double>(t1 - t0).count());
    best_triad = std::min(best_triad, std::chrono::duration<double>(t2 - t1).count());
  }
  double copy = 2.0 * 8 * N / best_copy / 1e9, triad = 3.0 * 8 * N / best_triad / 1e9;
  double update = 3.0 * 8 * N / best_update / 1e9, read = 8.0 * N / best_read / 1e9;
  double grid = 20.0 * 2 * 4 * G / best_grid / 1e9, grid3 = 20.0 * 2 * 4 * G3 / best_grid3 / 1e9;
  std::printf("checksum %g %g %g %g\ncopy_gbs %.2f\ntriad_gbs %.2f\nupdate_gbs %.2f\nread_gbs %.2f\ngrid_gbs %.2f\n"
              "grid3_gbs %.2f\nbandwidth_gbs %.2f\n",
              a[N / 2], sum, (double)g0[G / 2], (double)h0[G3 / 2], copy, triad, update, read, grid, grid3,
              std::max(std::max(copy, triad), std::max(update, read)));
  for (float* x : {g0, g1, h0, h1}) std::free(x);
}
