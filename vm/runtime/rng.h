// ti.random's streams. A draw depends only on (seed, launch number, task,
// iteration index, draws made so far in that iteration) -- never on which
// thread ran the iteration or how the range was chunked -- so the
// interpreter, the JIT and any thread count print the same numbers for the
// same program. (Taichi gives each hardware thread a stream, so its results
// vary from run to run; this is the stronger guarantee at the same cost.)
//
// The generator is SplitMix64 (Steele, Lea, Flood 2014): the k-th output of a
// stream is mix(base + k * gamma), with base mixed from the task's key and
// the iteration index, so streams of neighbouring indices are unrelated.
// A stream is three 64-bit words (key, current index, state) so that it can
// live in interpreter registers and be traced by the JIT like any value.
#pragma once
#include <bit>
#include <cstdint>
#include <limits>

#include "vm/types/type.h"

namespace kiln {

inline uint64_t rng_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

constexpr uint64_t kRngGamma = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kRngNoIndex = (uint64_t)std::numeric_limits<int64_t>::min();

// The key of one task of one launch.
inline uint64_t rng_task_key(uint64_t launch_key, uint32_t task) {
  return rng_mix(launch_key + (uint64_t)(task + 1) * kRngGamma);
}

inline void rng_init(uint64_t* S, uint64_t key) {
  S[0] = key;
  S[1] = kRngNoIndex;
  S[2] = 0;
}

// The next 64 bits of iteration `idx`'s stream; a new index starts afresh.
inline uint64_t rng_next(uint64_t* S, uint64_t idx) {
  if (idx != S[1]) {
    S[1] = idx;
    S[2] = rng_mix(S[0] ^ rng_mix(idx));
  }
  S[2] += kRngGamma;
  return rng_mix(S[2]);
}

// 64 random bits as a register value of `p` (opcodes.h representation):
// floats uniform in [0, 1) from the top 24 / 53 bits, ints the full range.
inline uint64_t rng_to_reg(uint64_t bits, Prim p) {
  switch (p) {
    case Prim::f32: return std::bit_cast<uint32_t>((float)(bits >> 40) * 0x1.0p-24f);
    case Prim::f64: return std::bit_cast<uint64_t>((double)(bits >> 11) * 0x1.0p-53);
    case Prim::i32: return (uint64_t)(int64_t)(int32_t)(uint32_t)(bits >> 32);
    case Prim::u32: return bits >> 32;
    default: return bits;  // i64, u64
  }
}

}  // namespace kiln
