// Word rows of a struct-for (word_rows.h). A row per cell (active_cells)
// cost per cell about what the task's trace does with the cell: a tzcnt,
// three stores, and the row read back. A word's row is written once for up
// to 64 cells, and the cells' loop is the task's own.
#include "vm/runtime/word_rows.h"

#include <algorithm>

#include "vm/runtime/sparse_cells.h"

namespace kiln {

using namespace sparse;

namespace {

// The index column the cell number moves (-1: no index takes the split axis).
int moving_column(const SNode& t, int nidx) {
  const auto& pip = t.physical_index_position;
  for (int v = 0; v < nidx; v++)
    if ((v < (int)pip.size() ? pip[v] : v) == t.split_axes[0]) return v;
  return -1;
}

}  // namespace

bool word_row_layout(const SNode& t, int nidx, int64_t& cell_size, int& col) {
  if (t.kind != SNodeKind::bitmasked && t.kind != SNodeKind::dynamic) return false;
  if (t.split_axes.size() != 1 || nidx < 1 || nidx > kMaxIndices || t.cell_size <= 0) return false;
  // Cells that hold blocks run as blocks (the frontend's loop inside the cell).
  for (auto& ch : t.children)
    if (ch->is_container()) return false;
  cell_size = t.cell_size;
  col = moving_column(t, nidx);
  return true;
}

void word_rows(Program& prog, const SNode* target, size_t b, size_t e, int nidx, CellTable& out, int64_t lo,
               int64_t hi) {
  const std::vector<ListElem>& in = prog.list_of(target);
  const SNode& t = *target;
  const auto& below = t.path_below.back();
  const auto& pip = t.physical_index_position;
  const int col = moving_column(t, nidx);
  const size_t w = (size_t)nidx + 2;
  const int64_t cs = t.cell_size;
  constexpr size_t kPrefetch = 4;
  // A bitmasked container's mask words (a list's length: one line).
  // Up to 4 lines: a larger container's own rows outlast the hardware
  // prefetcher's start on the rest.
  const int64_t mask_bytes = t.kind == SNodeKind::bitmasked ? std::min<int64_t>((t.num_cells() + 63) / 64 * 8, 256) : 8;
  for (size_t k = b; k < e && k < in.size(); k++) {
    const ListElem& le = in[k];
    // The bits or length of the container kPrefetch ahead, every cache line
    // of them: a cache miss on each otherwise (perf, sparse_particles: 75% of
    // this function's time on the mask load when only the next container's
    // first line was fetched; a container's 16 mask words are two lines, and
    // one container's rows take less time than a miss). Also across units:
    // the next unit's first containers are this one's next.
    if (k + kPrefetch < in.size()) {
      const uint8_t* m = in[k + kPrefetch].container + (t.kind == SNodeKind::bitmasked ? t.mask_offset : 0);
      for (int64_t off = 0; off < mask_bytes; off += 64) __builtin_prefetch(m + off);
      __builtin_prefetch(m + mask_bytes - 1);  // (the mask need not start a line)
    }
    int64_t base[kMaxIndices];
    for (int v = 0; v < nidx; v++) {
      int p = v < (int)pip.size() ? pip[v] : v;
      base[v] = le.base[p] / below[p];
    }
    int64_t* o = nullptr;
    auto put = [&](int64_t first, uint8_t* addr, uint64_t bits) {
      for (int v = 0; v < nidx; v++) o[v] = base[v];
      if (col >= 0) o[col] += first;
      o[nidx] = (int64_t)(uintptr_t)addr;
      o[nidx + 1] = (int64_t)bits;
      o += w;
    };
    size_t at = out.size();
    if (t.kind == SNodeKind::dynamic) {
      int64_t n = std::min({length_at(le.container)->load(std::memory_order_acquire), t.num_cells(), hi});
      if (n <= lo) continue;
      // At most a row per 64 cells and one more per chunk; trimmed below.
      out.resize(at + (size_t)((n - lo) / 64 + (n - lo) / t.chunk_size + 2) * w);
      o = out.data() + at;
      for (int64_t first = lo - lo % t.chunk_size; first < n; first += t.chunk_size) {
        uint8_t* chunk = slot_at(le.container + 8 + (first / t.chunk_size) * 8)->load(std::memory_order_acquire);
        if (!chunk) continue;
        int64_t e0 = std::min(n, first + t.chunk_size);
        for (int64_t s = std::max(first, lo); s < e0; s += 64) {
          int64_t c = std::min<int64_t>(64, e0 - s);
          uint8_t* at = chunk + (s - first) * cs;
          // The row's cells, toward the cache: chunks lie apart, and the
          // task's walk of a row begins with a miss the row before could not
          // overlap (its end is a mispredicted exit). At most 4 lines a row.
          for (int64_t off = 0; off < std::min<int64_t>(c * cs, 256); off += 64) __builtin_prefetch(at + off);
          put(s, at, c == 64 ? ~0ull : (1ull << c) - 1);
        }
      }
    } else {
      int64_t n = std::min(t.num_cells(), hi);
      if (n <= lo) continue;
      int64_t w0 = lo / 64, w1 = (n + 63) / 64;
      out.resize(at + (size_t)(w1 - w0) * w);
      o = out.data() + at;
      for (int64_t wd = w0; wd < w1; wd++) {
        // Read once: other threads of this struct-for may flip the bits.
        uint64_t bits = mask_word(t, le.container, wd * 64)->load(std::memory_order_acquire);
        if (wd == lo / 64) bits &= ~0ull << (lo % 64);
        if (wd == w1 - 1 && n % 64) bits &= ~(~0ull << (n % 64));
        if (bits) put(wd * 64, le.container + wd * 64 * cs, bits);
      }
    }
    out.resize((size_t)(o - out.data()));
  }
}

}  // namespace kiln
