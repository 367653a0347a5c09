// The CPU's side of listgen.h: the generated functions compiled by ORC once
// per layout, and the level-by-level driver (count on the pool, scan, write
// on the pool) that the LLVM tier's struct-fors run under device pools.
#include "jit/llvm/listgen.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "jit/llvm/orc.h"

namespace kiln::llvmjit {

namespace {

// Everything build_listgen folds into the code: two targets with the same
// key get the same functions (an SNode's address could be reused by a later
// program's tree of another layout).
std::string layout_key(const SNode& t, int nidx) {
  std::string k = std::to_string(nidx);
  auto add = [&](int64_t v) { k += ' ' + std::to_string(v); };
  for (size_t s = 0; s < t.path.size(); s++) {
    const SNode& n = *t.path[s];
    k += " |";
    add((int64_t)n.kind), add(n.cell_size), add(n.mask_offset), add(n.chunk_size), add(n.offset_in_cell);
    for (int p : n.split_axes) add(p), add(n.extent[(size_t)p]);
    k += " /";
    for (int64_t b : t.path_below[s]) add(b);
  }
  k += " #";
  for (int p : t.physical_index_position) add(p);
  return k;
}

}  // namespace

const ListgenFns& listgen_fns(const SNode& target, int nidx) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<ListgenFns>> made;  // kept: their code is never freed
  std::string key = layout_key(target, nidx);
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<ListgenFns>& f = made[key];
  if (f) return *f;
  size_t levels = target.path.size();
  std::vector<std::string> names;
  for (size_t s = 0; s < levels; s++) names.push_back("kiln_lg_count" + std::to_string(s));
  for (size_t s = 0; s < levels; s++) names.push_back("kiln_lg_write" + std::to_string(s));
  names.push_back("kiln_lg_scan");
  std::vector<void*> a =
      compile_functions([&](llvm::Module& m) { build_listgen(m, target, nidx, "kiln_lg_", false); }, names);
  auto fns = std::make_unique<ListgenFns>();
  for (size_t s = 0; s < levels; s++) fns->count.push_back(reinterpret_cast<ListCountFn>(a[s]));
  for (size_t s = 0; s < levels; s++) fns->write.push_back(reinterpret_cast<ListWriteFn>(a[levels + s]));
  fns->scan = reinterpret_cast<ListScanFn>(a.back());
  f = std::move(fns);
  return *f;
}

namespace {

// Host memory for the levels, kept per thread across launches (as the
// host's tables are: launch.cpp); a level's containers in pieces on the
// pool (as Program::listgen cuts its lists), few on this thread.
struct CpuLevels {
  Program& prog;
  const ListgenFns& f;
  CellTable& table;
  std::vector<int64_t>* lists;
  void* buffer(int which, size_t bytes) {
    if (which == 3) {
      table.resize(bytes / 8);
      return table.data();
    }
    lists[which].resize(bytes / 8);
    return lists[which].data();
  }
  void root(void* list, const int64_t* entry) { std::copy(entry, entry + kListEntryWords, (int64_t*)list); }
  template <class Fn> void run(int64_t n, Fn&& fn) {
    ThreadPool* pool = prog.pool.get();
    if (n < 64 || !pool || pool->size() < 2 || prog.config.debug) return fn((int64_t)0, n);
    pool->parallel_for(n, std::max<int64_t>(1, n / (pool->size() * 4)), [&](int64_t b, int64_t e, int) { fn(b, e); });
  }
  void count(size_t s, void* in, int64_t n, void* counts) {
    run(n, [&](int64_t b, int64_t e) { f.count[s]((const int64_t*)in, b, e, (int64_t*)counts); });
  }
  int64_t scan(void* counts, int64_t n) {
    f.scan((int64_t*)counts, n);
    return ((int64_t*)counts)[n];
  }
  void write(size_t s, void* in, int64_t n, void* counts, void* out) {
    run(n, [&](int64_t b, int64_t e) { f.write[s]((const int64_t*)in, b, e, (const int64_t*)counts, (int64_t*)out); });
  }
};

}  // namespace

void generate_cells(Program& prog, const SNode& t, int nidx, CellTable& out) {
  thread_local std::vector<int64_t> lists[3];
  CpuLevels cpu{prog, listgen_fns(t, nidx), out, lists};
  int64_t elements = 0;
  int64_t rows = run_list_levels(t, nidx, prog.trees.at((size_t)t.tree)->memory, cpu, elements);
  out.resize((size_t)(rows * (nidx + 1)));  // (an empty table's buffer held one row)
  prog.n_listgen_elements.fetch_add(elements, std::memory_order_relaxed);
}

}  // namespace kiln::llvmjit
