// List generation for struct-fors as generated code (lower_listgen.cpp): the
// struct-for's cell table, rows in exactly the order and format the host's
// Program::listgen + Program::active_cells give (a row per active cell of the
// target: its nidx indices, then its address), made level by level from the
// root's one container by deterministic compaction -- per level, each
// container part's active cells counted (a thread per part), an exclusive
// scan of the counts, then each part's cells written at its offset (no
// atomic appends: their order would not be fixed). The same functions serve
// the CPU (the LLVM tier under device pools, below) and, compiled for NVPTX,
// the device (docs/cuda_sparse.md). No LLVM headers here.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "vm/runtime/program.h"

namespace llvm {
class Module;
}

namespace kiln::llvmjit {

// A list entry between levels: a container's address, then the
// full-resolution physical index of its first element per axis.
constexpr int64_t kListEntryWords = 1 + kMaxIndices;

// A level's work items are parts of its containers: kListPartCells cells of
// a pointer or dense container, one mask word (64 cells) of a bitmasked one,
// a dynamic container whole. Item w is part w % P of container w / P (P =
// list_parts of the level's SNode): so a container of many cells, as a root
// pointer of 4096 slots, is counted and written by many GPU threads, not one
// reading its slots one after another (bench/sparse_grid's sweep took 0.9 ms
// on an H200 so), and the counts, per item, keep the table in the order of
// the containers and of their cells.
constexpr int64_t kListPartCells = 16;
inline int64_t list_parts(const SNode& s) {
  if (s.kind == SNodeKind::dynamic) return 1;
  int64_t per = s.kind == SNodeKind::bitmasked ? 64 : kListPartCells;
  return (s.num_cells() + per - 1) / per;
}
// The device's scan runs as one block of this many threads (lower_listgen.cpp).
constexpr int kListScanThreads = 1024;
// Step s of target's path (s = 0 .. path.size() - 1) scans the containers of
// path[s] listed in `in` (kListEntryWords each), item by item:
//   count: counts[w] = active cells of item w, for w in [b, e);
//   write: item w's active cells at out + offsets[w] * width: list entries
//          of path[s + 1]'s containers, or at the last step the table's rows
//          (nidx + 1 words);
//   scan:  counts[0, n) -> exclusive prefix sums, and counts[n] = the total
//          (counts holds n + 1 words).
using ListCountFn = void (*)(const int64_t* in, int64_t b, int64_t e, int64_t* counts);
using ListWriteFn = void (*)(const int64_t* in, int64_t b, int64_t e, const int64_t* offsets, int64_t* out);
using ListScanFn = void (*)(int64_t* counts, int64_t n);

// Adds the functions for (target, nidx) to `m`, named
// <prefix>count<s>, <prefix>write<s> and <prefix>scan. `gpu`: each loop over
// [b, e) strides by the grid (the NVPTX kernels' threads), atomics relaxed.
void build_listgen(llvm::Module& m, const SNode& target, int nidx, const std::string& prefix, bool gpu);

struct ListgenFns {
  std::vector<ListCountFn> count;
  std::vector<ListWriteFn> write;
  ListScanFn scan = nullptr;
};
// The CPU's compiled functions for (target, nidx), compiled by ORC once per
// process and kept.
const ListgenFns& listgen_fns(const SNode& target, int nidx);

// The level loop the CPU and the device share: from the root's one
// container of target.path[0], per level count, scan and write through
// `r`, whose buffers are host or device memory:
//   r.buffer(which, bytes): scratch 0 and 1 (a level's list and the next),
//                           2 (the counts), 3 (the table);
//   r.root(list, entry):    the first list's one entry (kListEntryWords words);
//   r.count(s, in, items, counts); r.scan(counts, items) -> the total
//   (counts[items]); r.write(s, in, items, counts, out).
// Returns the table's rows; `elements`: the list elements made, as the
// host's listgen tasks count them (the root's list, then each level's).
template <class R> int64_t run_list_levels(const SNode& t, int nidx, uint8_t* tree_memory, R& r, int64_t& elements) {
  int64_t entry[kListEntryWords] = {};
  entry[0] = (int64_t)(uintptr_t)(tree_memory + t.path[0]->offset_in_cell);
  void* cur = r.buffer(0, sizeof entry);
  r.root(cur, entry);
  int64_t n = 1;
  elements = 1;
  for (size_t s = 0;; s++) {
    int64_t items = n * list_parts(*t.path[s]);
    void* counts = r.buffer(2, (size_t)(items + 1) * 8);
    r.count(s, cur, items, counts);
    int64_t total = r.scan(counts, items);
    bool last = s + 1 == t.path.size();
    void* out = r.buffer(last ? 3 : (s + 1) % 2, (size_t)std::max<int64_t>(total, 1) * 8 * (last ? nidx + 1 : kListEntryWords));
    if (total) r.write(s, cur, items, counts, out);
    if (last) return total;
    elements += total;
    cur = out;
    n = total;
  }
}

// The struct-for's whole cell table over target's active cells into `out`
// (as Program::active_cells over every container of its list), by the
// generated functions on prog's thread pool; adds the list elements made to
// prog's listgen_elements as the host's listgen tasks count them.
void generate_cells(Program& prog, const SNode& target, int nidx, CellTable& out);

}  // namespace kiln::llvmjit
