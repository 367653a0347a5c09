// stream_copy (vm/support/stream_copy.h): memcpy's bytes for copies over the
// streaming size, whatever the alignment of either end and the length's
// remainder, with nothing written outside the destination; and memcpy's
// below it.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "vm/support/stream_copy.h"

using namespace kiln;

TEST_CASE("stream_copy: every byte, any alignment and tail, nothing past the ends") {
  size_t from = stream_copy_from();
  CHECK(from >= ((size_t)1 << 20));
  for (size_t n : {from + 1000, from + 4096 + 77, (size_t)12345}) {
    std::vector<uint8_t> src(n + 64), dst(n + 192);
    for (size_t i = 0; i < src.size(); i++) src[i] = (uint8_t)(i * 131 + (i >> 13));
    for (size_t s_off : {0, 5}) {
      for (size_t d_off : {64 - ((uintptr_t)dst.data() & 63), 64 - ((uintptr_t)dst.data() & 63) + 9}) {
        std::fill(dst.begin(), dst.end(), 0xee);
        stream_copy(dst.data() + d_off, src.data() + s_off, n);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) bad += dst[d_off + i] != src[s_off + i];
        CHECK(bad == 0);
        for (size_t i = 0; i < d_off; i++) CHECK(dst[i] == 0xee);
        for (size_t i = d_off + n; i < dst.size(); i++) CHECK(dst[i] == 0xee);
      }
    }
  }
}
