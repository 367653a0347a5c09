// MT19937, the generator behind Python's `random` and numpy's legacy
// `np.random` (RandomState): one implementation, seeded either way
// (init_by_array as CPython does, init_genrand as numpy's seed(int) does).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace kiln::host {

struct MT19937 {
  static constexpr int N = 624, M = 397;
  uint32_t mt[N];
  int mti = N + 1;
  bool has_gauss = false;
  double gauss_next = 0;

  void init_genrand(uint32_t s) {
    mt[0] = s;
    for (mti = 1; mti < N; mti++) mt[mti] = 1812433253u * (mt[mti - 1] ^ (mt[mti - 1] >> 30)) + (uint32_t)mti;
  }
  void init_by_array(const std::vector<uint32_t>& key) {
    init_genrand(19650218u);
    int i = 1;
    size_t j = 0;
    for (size_t k = std::max<size_t>(N, key.size()); k; k--) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.size()) j = 0;
    }
    for (int k = N - 1; k; k--) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000u;
    has_gauss = false;
  }
  void seed(uint64_t n) {
    std::vector<uint32_t> key;
    do {
      key.push_back((uint32_t)n);
      n >>= 32;
    } while (n);
    init_by_array(key);
  }
  uint32_t next() {
    static const uint32_t mag01[2] = {0u, 0x9908b0dfu};
    if (mti >= N) {
      if (mti == N + 1) init_genrand(5489u);
      int k = 0;
      for (; k < N - M; k++) {
        uint32_t y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu);
        mt[k] = mt[k + M] ^ (y >> 1) ^ mag01[y & 1u];
      }
      for (; k < N - 1; k++) {
        uint32_t y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu);
        mt[k] = mt[k + (M - N)] ^ (y >> 1) ^ mag01[y & 1u];
      }
      uint32_t y = (mt[N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
      mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ mag01[y & 1u];
      mti = 0;
    }
    uint32_t y = mt[mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
  }
  double random() {
    uint32_t a = next() >> 5, b = next() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
  // CPython's getrandbits for k <= 64: 32-bit words, least significant first.
  uint64_t bits(int k) {
    if (k <= 32) return next() >> (32 - k);
    uint64_t lo = next();
    uint64_t hi = next() >> (64 - k);
    return lo | (hi << 32);
  }
  uint64_t below(uint64_t n) {
    if (n == 0) return 0;
    int k = 64 - __builtin_clzll(n);
    uint64_t r = bits(k);
    while (r >= n) r = bits(k);
    return r;
  }
};


}  // namespace kiln::host
