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
// Serial as built by scripts/bench; with -fopenmp the loops run in parallel.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
int main() {
  const long N = 1L << 24;
  std::vector<double> a(N), b(N), c(N);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++) { a[i] = 1.0; b[i] = 2.0; c[i] = 0.5; }
  double best_copy = 1e30, best_triad = 1e30, best_update = 1e30, best_read = 1e30;
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
    best_read = std::min(best_read, std::chrono::duration<double>(t4 - t3).count());
    best_update = std::min(best_update, std::chrono::duration<double>(t3 - t2).count());
    best_copy = std::min(best_copy, std::chrono::duration<double>(t1 - t0).count());
    best_triad = std::min(best_triad, std::chrono::duration<double>(t2 - t1).count());
  }
  double copy = 2.0 * 8 * N / best_copy / 1e9, triad = 3.0 * 8 * N / best_triad / 1e9;
  double update = 3.0 * 8 * N / best_update / 1e9, read = 8.0 * N / best_read / 1e9;
  std::printf("checksum %g %g\ncopy_gbs %.2f\ntriad_gbs %.2f\nupdate_gbs %.2f\nread_gbs %.2f\nbandwidth_gbs %.2f\n",
              a[N / 2], sum, copy, triad, update, read, std::max(std::max(copy, triad), std::max(update, read)));
}
