// map_large / unmap_large (vm/runtime/large_buffers.h): fresh blocks read
// zero and are 2 MiB aligned; a block released for recycling serves the next
// request of its size (with its bytes, not zeroed), one of another size
// does not; a block released without recycling is gone; large_length knows
// only live blocks.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include "vm/runtime/large_buffers.h"

using namespace kiln;

TEST_CASE("large buffers: fresh zero, 2 MiB aligned, recycled by size") {
  const size_t n = (size_t)6 << 20;
  bool zeroed = false;
  auto* p = static_cast<uint8_t*>(map_large(n, &zeroed, true));
  REQUIRE(p);
  CHECK(zeroed);
  CHECK(((uintptr_t)p & (((uintptr_t)2 << 20) - 1)) == 0);
  CHECK(large_length(p) == n);
  CHECK(p[0] == 0);
  CHECK(p[n - 1] == 0);
  std::memset(p, 7, n);
  CHECK(unmap_large(p, true));
  CHECK(large_length(p) == 0);  // (kept, not live)
  CHECK_FALSE(unmap_large(p, true));

  // Another size (over a quarter larger) gets a fresh block.
  auto* q = static_cast<uint8_t*>(map_large(n * 2, &zeroed, true));
  REQUIRE(q);
  CHECK(q != p);
  CHECK(zeroed);
  // The same size (rounded to 2 MiB) gets the kept one, its bytes as left.
  auto* r = static_cast<uint8_t*>(map_large(n - 100, &zeroed, true));
  CHECK(r == p);
  CHECK_FALSE(zeroed);
  CHECK(r[n / 2] == 7);
  // Not recycling: a fresh one even though q's size is kept after this.
  CHECK(unmap_large(q, true));
  auto* s = static_cast<uint8_t*>(map_large(n * 2, &zeroed, false));
  CHECK(s != q);
  CHECK(zeroed);
  CHECK(unmap_large(s, false));
  CHECK(unmap_large(r, false));
  int local = 0;
  CHECK(large_length(&local) == 0);
  CHECK_FALSE(unmap_large(&local, true));
}
