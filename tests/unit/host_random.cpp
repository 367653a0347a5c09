// ti.random: the draws of a parallel loop depend on the seed and the
// iteration, not on the thread count, chunking or engine (vm/runtime/rng.h).
#include <doctest/doctest.h>

#include <cstdlib>

#include "host_session.h"
#include "vm/runtime/rng.h"

using kiln::test::HostSession;

namespace {

std::string draws(const std::string& engine, int threads, int block_dim) {
  kiln::HostOptions o;
  o.engine = engine;
  HostSession s(o);
  std::string cfg = block_dim ? "    ti.loop_config(block_dim=" + std::to_string(block_dim) + ")\n" : "";
  return s("import taichi as ti\n"
           "ti.init(arch=ti.cpu, random_seed=11, cpu_max_num_threads=" + std::to_string(threads) + ")\n"
           "x = ti.field(ti.f32, shape=5000)\n"
           "k = ti.field(ti.i32, shape=5000)\n"
           "@ti.kernel\n"
           "def fill():\n" + cfg +
           "    for i in x:\n"
           "        x[i] = ti.random()\n"
           "        for j in range(i % 3):\n"
           "            k[i] += ti.random(ti.i32) % 100\n"
           "fill()\n"
           "fill()\n"
           "print(x[0], x[1], x[4999], k[2], k[4998], sum([x[i] for i in range(5000)]))\n");
}

}  // namespace

TEST_CASE("random draws do not depend on threads, chunks or engine") {
  setenv("KILN_JIT", "hotloop=1", 1);
  std::string ref = draws("interp", 1, 0);
  CHECK(ref.size() > 20);
  CHECK(draws("interp", 2, 0) == ref);
  CHECK(draws("interp", 4, 7) == ref);
  CHECK(draws("jit", 1, 0) == ref);
  CHECK(draws("jit", 2, 13) == ref);
}

std::string sparse_draws(const std::string& engine, int threads) {
  kiln::HostOptions o;
  o.engine = engine;
  HostSession s(o);
  return s("import taichi as ti\n"
           "ti.init(arch=ti.cpu, random_seed=5, cpu_max_num_threads=" + std::to_string(threads) + ")\n"
           "x = ti.field(ti.f32)\n"
           "ti.root.pointer(ti.ij, 16).dense(ti.ij, 4).place(x)\n"
           "@ti.kernel\n"
           "def act():\n"
           "    for i, j in ti.ndrange(64, 64):\n"
           "        if (i + j) % 3 == 0:\n"
           "            x[i, j] = 0.0\n"
           "@ti.kernel\n"
           "def fill():\n"
           "    for i, j in x:\n"
           "        x[i, j] = ti.random()\n"
           "act()\n"
           "fill()\n"
           "print(x[0, 0], x[3, 63], x[30, 30], x[63, 63])\n");
}

TEST_CASE("random draws in a sparse struct-for do not depend on threads or engine") {
  setenv("KILN_JIT", "hotloop=1", 1);
  std::string ref = sparse_draws("interp", 1);
  CHECK(ref.size() > 10);
  CHECK(sparse_draws("interp", 2) == ref);
  CHECK(sparse_draws("jit", 2) == ref);
}

TEST_CASE("a stream continues within an iteration and restarts for another") {
  uint64_t a[3], b[3];
  kiln::rng_init(a, 99);
  kiln::rng_init(b, 99);
  uint64_t first = kiln::rng_next(a, 5);
  uint64_t second = kiln::rng_next(a, 5);
  CHECK(first != second);
  CHECK(kiln::rng_next(b, 5) == first);  // the same (key, index): the same draws
  CHECK(kiln::rng_next(b, 6) != second);
  kiln::rng_init(b, 100);
  CHECK(kiln::rng_next(b, 5) != first);  // another key: another stream
}

TEST_CASE("draws map into each type's range") {
  for (uint64_t bits : {0ull, ~0ull, 0x8000000000000000ull, 12345ull}) {
    float f = std::bit_cast<float>((uint32_t)kiln::rng_to_reg(bits, kiln::Prim::f32));
    double d = std::bit_cast<double>(kiln::rng_to_reg(bits, kiln::Prim::f64));
    CHECK(f >= 0.0f);
    CHECK(f < 1.0f);
    CHECK(d >= 0.0);
    CHECK(d < 1.0);
    CHECK(kiln::rng_to_reg(bits, kiln::Prim::u32) <= 0xffffffffull);
    int64_t i = (int64_t)kiln::rng_to_reg(bits, kiln::Prim::i32);
    CHECK(i >= INT32_MIN);
    CHECK(i <= INT32_MAX);
  }
}
