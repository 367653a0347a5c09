// Baseline for sparse_grid.py: the same 64x64 grid of 8x8 blocks, block
// pointers allocated on activation, and an active-block list rebuilt by a
// scan before every sweep (what list generation does), then the sweep over
// the listed blocks' cells. Serial, like the kernel run with one thread.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int N = 512, B = 8, NB = N / B;

struct Block {
  int x[B][B];
};

int main() {
  std::vector<Block*> blocks(NB * NB, nullptr);
  for (int bi = 0; bi < NB; bi++)
    for (int bj = 0; bj < NB; bj++)
      if ((bi * 7919 + bj * 104729) % 1000 < 100) blocks[bi * NB + bj] = static_cast<Block*>(std::calloc(1, sizeof(Block)));
  struct Elem {
    Block* b;
    int i0, j0;
  };
  std::vector<Elem> list;
  auto listgen = [&] {
    list.clear();
    for (int k = 0; k < NB * NB; k++)
      if (blocks[k]) list.push_back({blocks[k], k / NB * B, k % NB * B});
  };
  auto sweep = [&] {
    for (const Elem& e : list)
      for (int i = 0; i < B; i++)
        for (int j = 0; j < B; j++) e.b->x[i][j] += 1;
  };
  listgen();
  sweep();  // warm-up, as the kernel's first run
  double lg_ms = 0, sw_ms = 0;
  for (int r = 0; r < 10; r++) {
    auto t0 = std::chrono::steady_clock::now();
    listgen();
    auto t1 = std::chrono::steady_clock::now();
    sweep();
    auto t2 = std::chrono::steady_clock::now();
    lg_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
    sw_ms += std::chrono::duration<double, std::milli>(t2 - t1).count();
  }
  long long s = 0;
  for (const Elem& e : list)
    for (int i = 0; i < B; i++)
      for (int j = 0; j < B; j++) s += e.b->x[i][j] + ((e.i0 + i) * N + (e.j0 + j)) % 3;
  std::printf("checksum %lld\ntime_ms %f\nlistgen_ms %f\nsweep_ms %f\n", s, lg_ms + sw_ms, lg_ms, sw_ms);
  std::printf("active_blocks %zu\n", list.size());
}
