// See stream_copy.h.
#include "vm/support/stream_copy.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace kiln {

// The last-level cache from sysfs, which says what the (virtual) CPU reports.
// glibc's sysconf(_SC_LEVEL3_CACHE_SIZE) said 320 MiB on this project's VM,
// whose lscpu and sysfs say 32 MiB (and glibc's memcpy, sizing its own
// streaming threshold from the same figure, never streams here).
size_t stream_copy_from() {
  static const size_t from = [] {
    size_t best = 0;
    for (int k = 0; k < 8; k++) {
      std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(k) + "/";
      std::ifstream level(dir + "level"), size(dir + "size");
      int lv = 0;
      std::string sz;
      if (!(level >> lv) || !(size >> sz) || sz.empty()) continue;
      size_t n = std::strtoull(sz.c_str(), nullptr, 10);
      if (sz.back() == 'K') n <<= 10;
      if (sz.back() == 'M') n <<= 20;
      if (lv >= 2 && n > best) best = n;
    }
    return best ? best : (size_t)32 << 20;
  }();
  return from;
}

#if defined(__x86_64__)
namespace {

// 128 bytes a step, from a 32-byte aligned destination (the streaming
// stores need it; the loads take any source). The 16-byte SSE2 form ran
// ~15% slower here than 32-byte stores.
__attribute__((target("avx"))) void stream_avx(uint8_t* d, const uint8_t* s, size_t n) {
  for (size_t i = 0; i < n; i += 128) {
    __m256 a = _mm256_loadu_ps((const float*)(s + i)), b = _mm256_loadu_ps((const float*)(s + i + 32));
    __m256 c = _mm256_loadu_ps((const float*)(s + i + 64)), e = _mm256_loadu_ps((const float*)(s + i + 96));
    _mm256_stream_ps((float*)(d + i), a);
    _mm256_stream_ps((float*)(d + i + 32), b);
    _mm256_stream_ps((float*)(d + i + 64), c);
    _mm256_stream_ps((float*)(d + i + 96), e);
  }
}

void stream_sse2(uint8_t* d, const uint8_t* s, size_t n) {
  for (size_t i = 0; i < n; i += 64) {
    __m128i a = _mm_loadu_si128((const __m128i*)(s + i)), b = _mm_loadu_si128((const __m128i*)(s + i + 16));
    __m128i c = _mm_loadu_si128((const __m128i*)(s + i + 32)), e = _mm_loadu_si128((const __m128i*)(s + i + 48));
    _mm_stream_si128((__m128i*)(d + i), a);
    _mm_stream_si128((__m128i*)(d + i + 16), b);
    _mm_stream_si128((__m128i*)(d + i + 32), c);
    _mm_stream_si128((__m128i*)(d + i + 48), e);
  }
}

}  // namespace

void stream_copy(void* dst, const void* src, size_t n) {
  if (n < stream_copy_from()) {
    std::memcpy(dst, src, n);
    return;
  }
  static const bool avx = __builtin_cpu_supports("avx");
  auto* d = static_cast<uint8_t*>(dst);
  auto* s = static_cast<const uint8_t*>(src);
  // The head up to the destination's next 64-byte boundary, and the tail past
  // the last whole 128 bytes, by memcpy; whole lines streamed between.
  size_t head = (64 - ((uintptr_t)d & 63)) & 63;
  std::memcpy(d, s, head);
  d += head, s += head, n -= head;
  size_t body = n & ~(size_t)127;
  if (avx) stream_avx(d, s, body);
  else stream_sse2(d, s, body);
  _mm_sfence();  // (streaming stores are weakly ordered: later plain stores and other threads see them after)
  std::memcpy(d + body, s + body, n - body);
}
#else
void stream_copy(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }
#endif

}  // namespace kiln
