// SNodePool's free list order (pool.h): a refill after many releases takes
// blocks lowest address first, as a fresh pool hands them out (a stack gave
// them back in reverse release order: bench/sparse_lists' sweep after
// deactivate_all ran 1.5x slower over that layout); a few releases are
// reused last-in first-out; every block comes back zeroed, once.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "vm/runtime/pool.h"

using namespace kiln;

namespace {

std::vector<uint8_t*> take(SNodePool& p, int n) {
  std::vector<uint8_t*> v;
  for (int i = 0; i < n; i++) v.push_back(static_cast<uint8_t*>(p.alloc()));
  return v;
}

}  // namespace

TEST_CASE("a fresh pool hands out blocks in address order") {
  SNodePool p(272, 8);
  auto a = take(p, 100);
  CHECK(std::is_sorted(a.begin(), a.begin() + 16));  // one slab of 16: consecutive
  for (int i = 1; i < 16; i++) CHECK(a[(size_t)i] == a[0] + i * 272);
}

TEST_CASE("after a big release in any order the refill goes lowest address first") {
  SNodePool p(272, 8);
  auto a = take(p, 1000);
  const int64_t reserved = p.blocks_reserved();
  std::vector<uint8_t*> order = a;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  for (auto* b : order) {
    std::memset(b, 0xab, 272);
    p.release(b);
  }
  auto again = take(p, 1000);
  std::vector<uint8_t*> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  CHECK(again == sorted);
  for (auto* b : again) CHECK(std::all_of(b, b + 272, [](uint8_t c) { return c == 0; }));
  CHECK(p.blocks_in_use() == 1000);
  CHECK(p.blocks_reserved() == reserved);  // the refill took no new slab
}

TEST_CASE("a few releases are reused last in, first out") {
  SNodePool p(64, 8);
  auto a = take(p, 300);
  p.release(a[10]);
  p.release(a[200]);
  CHECK(p.alloc() == a[200]);
  CHECK(p.alloc() == a[10]);
  // A big batch, then a few: the batch is sorted in when it is big enough,
  // and the few released after it come back first.
  for (int i = 0; i < 200; i++) p.release(a[(size_t)(299 - i)]);  // a[100..299], highest first
  uint8_t* first = static_cast<uint8_t*>(p.alloc());
  CHECK(first == a[100]);  // the lowest of the batch
  p.release(first);
  CHECK(p.alloc() == first);
  std::set<void*> seen{first};
  for (int i = 0; i < 199; i++) CHECK(seen.insert(p.alloc()).second);  // every block once
  CHECK(p.blocks_in_use() == 300);
}
