// The struct-for's cell table: a row per active cell of the containers a
// unit of work covers (the cell's coordinates, then its address), which the
// task's loop reads. It is written for every cell a struct-for visits, so its
// paths avoid a call, a division or a fresh allocation per cell.
#include <algorithm>

#include "vm/runtime/program.h"
#include "vm/runtime/sparse_cells.h"

namespace kiln {

using namespace sparse;

namespace {

// The rows of one container of a leaf with one split axis (a list, a
// bitmasked row): sized once per container (a resize per mask word or chunk
// cost more than the rows), then written in a tight loop. A row's varying
// column `col` is the cell number plus the container's base; the others are
// the base. N: the row's index count when small (the copies unroll), 0 for
// any (nidx).
template <int N>
void leaf_rows(const SNode& t, uint8_t* container, const int64_t* base, int nidx, int col, int64_t lo, int64_t hi,
               CellTable& out) {
  const int ni = N ? N : nidx;
  const size_t w = (size_t)ni + 1;
  // The row's fixed columns in locals (not through `base`, which the
  // compiler must reload after every store into the table), and the varying
  // one always written: with no index taking it, into the address column,
  // which the address then overwrites.
  int64_t fixed[kMaxIndices + 1];
  for (int v = 0; v < ni; v++) fixed[v] = base[v];
  const int vc = col >= 0 ? col : ni;
  const int64_t cell0 = col >= 0 ? base[col] : 0;
  int64_t* o;
  auto put = [&](int64_t i, uint8_t* addr) {
    for (int v = 0; v < ni; v++) o[v] = fixed[v];
    o[vc] = cell0 + i;
    o[ni] = (int64_t)(uintptr_t)addr;
    o += w;
  };
  const int64_t cs = t.cell_size;
  size_t at = out.size();
  if (t.kind == SNodeKind::dynamic) {
    int64_t n = std::min({length_at(container)->load(std::memory_order_acquire), t.num_cells(), hi});
    if (n <= lo) return;
    out.resize(at + (size_t)(n - lo) * w);  // at most; trimmed below
    o = out.data() + at;
    for (int64_t first = lo - lo % t.chunk_size; first < n; first += t.chunk_size) {
      uint8_t* chunk = slot_at(container + 8 + (first / t.chunk_size) * 8)->load(std::memory_order_acquire);
      if (!chunk) continue;
      int64_t b = std::max(first, lo), e = std::min(n, first + t.chunk_size);
      for (int64_t i = b; i < e; i++) put(i, chunk + (i - first) * cs);
    }
    out.resize((size_t)(o - out.data()));
    return;
  }
  int64_t n = std::min(t.num_cells(), hi);
  if (n <= lo) return;
  int64_t w0 = lo / 64, w1 = (n + 63) / 64;
  auto word = [&](int64_t wd) {
    uint64_t bits = mask_word(t, container, wd * 64)->load(std::memory_order_acquire);
    if (wd == w0) bits &= ~0ull << (lo % 64);
    if (wd == w1 - 1 && n % 64) bits &= ~(~0ull << (n % 64));
    return bits;
  };
  // The bits are read once (other threads of this struct-for may flip
  // them): up to 64 words at a time into `bits`, counted, then written.
  for (int64_t g = w0; g < w1; g += 64) {
    uint64_t bits[64];
    int64_t ng = std::min<int64_t>(64, w1 - g), count = 0;
    for (int64_t q = 0; q < ng; q++) count += __builtin_popcountll(bits[q] = word(g + q));
    if (!count) continue;
    at = out.size();
    out.resize(at + (size_t)count * w);
    o = out.data() + at;
    for (int64_t q = 0; q < ng; q++) {
      int64_t first = (g + q) * 64;
      for (uint64_t m = bits[q]; m; m &= m - 1) {
        int64_t i = first + __builtin_ctzll(m);
        put(i, container + i * cs);
      }
    }
  }
}

}  // namespace

void Program::active_cells(const SNode* target, size_t b, size_t e, int nidx, CellTable& out, int64_t lo,
                           int64_t hi) {
  const std::vector<ListElem>& in = lists[target];
  const SNode& t = *target;
  const auto& below = t.path_below.back();
  const auto& pip = t.physical_index_position;
  // The table is written for every cell a struct-for visits, so it is built
  // without a division per cell where the container allows: a dense one's
  // cells run in row-major order (coordinates by counting), a 1-axis one's
  // coordinate is the cell number; other sparse ones decompose the number.
  int nsplit = (int)t.split_axes.size();
  int64_t ext[kMaxIndices], step[kMaxIndices];  // per split axis: extent, and the coordinate's column
  int col_of[kMaxIndices];
  for (int p = 0; p < kMaxIndices; p++) col_of[p] = -1;
  for (int v = 0; v < nidx; v++) {
    int p = v < (int)pip.size() ? pip[v] : v;
    col_of[p] = v;
  }
  for (int k = 0; k < nsplit; k++) ext[k] = t.extent[t.split_axes[k]], step[k] = col_of[t.split_axes[k]];
  bool dense = t.kind == SNodeKind::dense || t.kind == SNodeKind::root;
  const CellDigits digits(t);
  size_t w = (size_t)nidx + 1;
  int64_t row[kMaxIndices + 1];
  for (size_t k = b; k < e && k < in.size(); k++) {
    const ListElem& le = in[k];
    // The SNode's own coordinates (Taichi: `for i, j in block` gives block
    // numbers): the full-resolution index of the container's first element
    // divided by how many indices one cell spans, plus the cell's coordinates.
    int64_t base[kMaxIndices + 1];
    for (int v = 0; v < nidx; v++) {
      int p = v < (int)pip.size() ? pip[v] : v;
      base[v] = le.base[p] / below[p];
    }
    if (dense) {
      int64_t n = std::min(t.num_cells(), hi);
      if (n <= lo) continue;
      size_t at = out.size();
      out.resize(at + (size_t)(n - lo) * w);
      int64_t* o = out.data() + at;
      for (int v = 0; v < nidx; v++) row[v] = base[v];
      int64_t ci[kMaxIndices] = {};
      for (int64_t a = nsplit, rest = lo; a-- > 0; rest /= ext[a]) {  // cell lo's coordinates
        ci[a] = rest % ext[a];
        if (step[a] >= 0) row[step[a]] += ci[a];
      }
      for (int64_t c = lo; c < n; c++, o += w) {
        for (int v = 0; v < nidx; v++) o[v] = row[v];
        o[nidx] = (int64_t)(uintptr_t)(le.container + c * t.cell_size);
        for (int a = nsplit; a-- > 0;) {  // the next cell: count up the last axis, carry
          int col = step[a];
          if (++ci[a] < ext[a]) {
            if (col >= 0) row[col]++;
            break;
          }
          ci[a] = 0;
          if (col >= 0) row[col] = base[col];
        }
      }
      continue;
    }
    // The common sparse leaves (one split axis: a list, a bitmasked row):
    // without a call per cell (leaf_rows).
    if (nsplit == 1 && (t.kind == SNodeKind::dynamic || t.kind == SNodeKind::bitmasked)) {
      if (k + 1 < e && k + 1 < in.size())  // the next container's bits or slots: a miss otherwise
        __builtin_prefetch(in[k + 1].container + (t.kind == SNodeKind::bitmasked ? t.mask_offset : 0));
      switch (nidx) {  // rows of 1-3 indices: their copies unrolled
        case 1: leaf_rows<1>(t, le.container, base, nidx, step[0], lo, hi, out); break;
        case 2: leaf_rows<2>(t, le.container, base, nidx, step[0], lo, hi, out); break;
        case 3: leaf_rows<3>(t, le.container, base, nidx, step[0], lo, hi, out); break;
        default: leaf_rows<0>(t, le.container, base, nidx, step[0], lo, hi, out); break;
      }
      continue;
    }
    // Other containers (pointer cells, several split axes): the active cells
    // gathered 64 at a time, then their rows sized at once and written.
    int64_t cells[64];
    uint8_t* addrs[64];
    int got = 0;
    auto flush = [&] {
      size_t at = out.size();
      out.resize(at + (size_t)got * w);
      int64_t* o = out.data() + at;
      for (int q = 0; q < got; q++, o += w) {
        for (int v = 0; v < nidx; v++) o[v] = base[v];
        if (nsplit == 1) {
          if (step[0] >= 0) o[step[0]] += cells[q];
        } else {
          int64_t digit[kMaxIndices];
          digits.of(cells[q], digit);
          for (int a = 0; a < nsplit; a++)
            if (step[a] >= 0) o[step[a]] += digit[a];
        }
        o[nidx] = (int64_t)(uintptr_t)addrs[q];  // what in-cell accesses address from
      }
      got = 0;
    };
    for_each_active_cell(t, le.container, [&](int64_t cell, uint8_t* addr) {
      cells[got] = cell, addrs[got] = addr;
      if (++got == 64) flush();
    }, lo, hi);
    if (got) flush();
  }
}

bool Program::cell_table_cacheable(const SNode* target) const {
  for (const SNode* s : target->path)
    if (s->kind == SNodeKind::dynamic) return false;
  for (const SNode* s : snode_by_id)
    if (s && s->tree == target->tree && s->pool && s->pool->region) return false;
  return true;
}

}  // namespace kiln
