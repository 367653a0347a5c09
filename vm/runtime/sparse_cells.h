// What the sparse runtime (sparse.cpp) and the struct-for's cell table
// (cell_table.cpp) share: where a container keeps its slots, length and
// activity bits, cell coordinates without a division per cell, and the walk
// over a container's active cells. Included by those two files only.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "vm/runtime/snode.h"

namespace kiln::sparse {

using Slot = std::atomic<uint8_t*>;

inline Slot* slot_at(uint8_t* p) { return reinterpret_cast<Slot*>(p); }
inline std::atomic<int64_t>* length_at(uint8_t* c) { return reinterpret_cast<std::atomic<int64_t>*>(c); }
inline std::atomic<uint64_t>* mask_word(const SNode& s, uint8_t* c, int64_t cell) {
  return reinterpret_cast<std::atomic<uint64_t>*>(c + s.mask_offset) + (cell >> 6);
}

// Division on the lookup paths (every sparse access and SNode op goes
// through several levels): the divisors are extents, cell spans and chunk
// sizes, mostly 1 or powers of two, so for the non-negative indices that
// bounds checks let through a shift or nothing replaces a 64-bit division of
// tens of cycles (ti.append was ~9 of them).
inline int64_t quot(int64_t a, int64_t b) {
  if (b == 1) return a;
  if (a >= 0 && (b & (b - 1)) == 0) return a >> __builtin_ctzll((uint64_t)b);
  return a / b;
}
inline int64_t rem(int64_t a, int64_t b) {
  if (b == 1) return 0;
  if (a >= 0 && (b & (b - 1)) == 0) return a & (b - 1);
  return a % b;
}

// The cell of level `s` that physical index `phys` falls in.
inline int64_t cell_of(const SNode& s, const std::array<int64_t, kMaxIndices>& below, const int64_t* phys) {
  int64_t cell = 0;
  for (int p : s.split_axes) cell = cell * s.extent[p] + rem(quot(phys[p], below[p]), s.extent[p]);
  return cell;
}

// The per-split-axis coordinates of cell numbers, row-major, without a
// hardware division per cell (tens of cycles each): list generation and the
// struct-for's cell table take the coordinates of every active cell. Lemire's
// exact division of 32-bit numbers by a precomputed 64-bit reciprocal;
// containers of 2^32 cells or more divide plainly.
struct CellDigits {
  int n = 0;
  bool wide = false;
  bool pow2 = true;  // every extent a power of two: masks and shifts
  uint64_t ext[kMaxIndices] = {}, inv[kMaxIndices] = {};
  int shift[kMaxIndices] = {};
  explicit CellDigits(const SNode& s) : n((int)s.split_axes.size()), wide(s.num_cells() >= ((int64_t)1 << 32)) {
    for (int k = 0; k < n; k++) {
      ext[k] = (uint64_t)s.extent[s.split_axes[k]];
      inv[k] = ext[k] > 1 ? ~(uint64_t)0 / ext[k] + 1 : 0;
      pow2 = pow2 && ext[k] && (ext[k] & (ext[k] - 1)) == 0;
      shift[k] = ext[k] ? __builtin_ctzll(ext[k]) : 0;
    }
  }
  // digit[k]: the coordinate along split axis k (s.split_axes[k]).
  void of(int64_t cell, int64_t* digit) const {
    uint64_t c = (uint64_t)cell;
    if (pow2) {
      for (int k = n; k-- > 0;) {
        digit[k] = (int64_t)(c & (ext[k] - 1));
        c >>= shift[k];
      }
      return;
    }
    for (int k = n; k-- > 0;) {
      uint64_t q = wide ? c / ext[k] : ext[k] > 1 ? (uint64_t)(((unsigned __int128)inv[k] * c) >> 64) : c;
      digit[k] = (int64_t)(c - q * ext[k]);
      c = q;
    }
  }
};

// Bit k set where pointer slot k of the m (<= 64) slots at p is not null. The
// slots are read as plain words: a slot that changes meanwhile is read again
// (with acquire) by the caller, or missed as a cell activated during the scan
// would be anyway.
inline uint64_t nonnull_bits(const uint8_t* p, int m) {
  uint64_t bits = 0;
  int k = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (; k + 2 <= m; k += 2) {  // two slots: both 32-bit halves zero is a null slot
    __m128i e = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k * 8)), zero);
    e = _mm_and_si128(e, _mm_shuffle_epi32(e, _MM_SHUFFLE(2, 3, 0, 1)));
    bits |= (uint64_t)(~_mm_movemask_pd(_mm_castsi128_pd(e)) & 3) << k;
  }
#endif
  for (; k < m; k++) bits |= (uint64_t)(slot_at(const_cast<uint8_t*>(p) + k * 8)->load(std::memory_order_relaxed) != nullptr) << k;
  return bits;
}

// Calls fn(cell, cell_address) for every active cell of container c of s
// (of the cells [lo, hi) when given: a struct-for splits big containers).
template <class F> void for_each_active_cell(const SNode& s, uint8_t* c, F&& fn, int64_t lo = 0, int64_t hi = INT64_MAX) {
  int64_t n = std::min(s.num_cells(), hi);
  switch (s.kind) {
    case SNodeKind::pointer:
      // 64 slots' null tests at a time, then their set bits: a branch per
      // slot mispredicted at every active one of a sparse grid (a tenth of
      // 4096 slots cost more than the sweep of their blocks).
      for (int64_t g = lo; g < n; g += 64) {
        for (uint64_t bits = nonnull_bits(c + g * 8, (int)std::min<int64_t>(64, n - g)); bits; bits &= bits - 1) {
          int64_t i = g + __builtin_ctzll(bits);
          if (uint8_t* p = slot_at(c + i * 8)->load(std::memory_order_acquire)) fn(i, p);
        }
      }
      return;
    case SNodeKind::bitmasked:
      for (int64_t w = lo / 64; w < (n + 63) / 64; w++) {
        uint64_t bits = mask_word(s, c, w * 64)->load(std::memory_order_acquire);
        if (w == lo / 64) bits &= ~0ull << (lo % 64);
        if (w == (n - 1) / 64 && n % 64) bits &= ~(~0ull << (n % 64));
        while (bits) {
          int64_t i = w * 64 + __builtin_ctzll(bits);
          bits &= bits - 1;
          fn(i, c + i * s.cell_size);
        }
      }
      return;
    case SNodeKind::dynamic: {
      int64_t len = std::min(length_at(c)->load(std::memory_order_acquire), n);
      for (int64_t first = lo - lo % s.chunk_size; first < len; first += s.chunk_size) {  // chunk by chunk
        uint8_t* chunk = slot_at(c + 8 + (first / s.chunk_size) * 8)->load(std::memory_order_acquire);
        if (!chunk) continue;
        int64_t end = std::min(len, first + s.chunk_size);
        for (int64_t i = std::max(first, lo); i < end; i++) fn(i, chunk + (i - first) * s.cell_size);
      }
      return;
    }
    default:
      for (int64_t i = lo; i < n; i++) fn(i, c + i * s.cell_size);
      return;
  }
}

}  // namespace kiln::sparse
