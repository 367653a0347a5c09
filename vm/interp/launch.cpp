// Launching a bytecode kernel: tasks in order, range_for tasks in chunks on
// the Program's thread pool; and the interpreter as an Engine.
#include <algorithm>
#include <chrono>
#include <utility>

#include "vm/interp/interp.h"
#include "vm/interp/launch_mode.h"
#include "vm/interp/mid_launch.h"
#include "vm/runtime/chunks.h"
#include "vm/runtime/program.h"
#include "vm/runtime/word_rows.h"

namespace kiln::interp {

namespace {

int64_t bound_value(const LaunchContext& ctx, bool is_const, int64_t v, Prim p) {
  if (is_const) return v;
  if (v < 0 || (size_t)v >= ctx.temps.size())
    raise("InternalError", "range bound reads global temporary " + std::to_string(v) + ", which does not exist");
  uint64_t bits = ctx.temps[v];
  // A temp holds what a store of the bound's type wrote: only its low bytes
  // when the type is narrower than the slot.
  switch (p) {
    case Prim::i32: return (int32_t)bits;
    case Prim::u32: return (uint32_t)bits;
    default: return (int64_t)bits;
  }
}

// A struct_for: the active cells of the containers in the target's list
// (listgen made it just before). The work comes in units: several whole
// containers of the list, or a range of one big container's cells (so that
// one bitmasked(ti.i, 10**6) still spreads over the threads). Each unit
// gathers its cells' table (it stays in cache) and runs the task's loop over
// it; threads take whole units. A parallel unit is about kCellBatch cells of
// work; a serial one about kCellBatch table rows (fewer calls).
constexpr int64_t kCellBatch = 2048;

// List generation's wall time since t0 into the program's statistics
// (listgen_time_ms): the list tasks', or an engine's own cell table's.
void add_listgen_time(Program& prog, std::chrono::steady_clock::time_point t0) {
  prog.listgen_ns.fetch_add(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count(),
      std::memory_order_relaxed);
}

// The cells of a unit's work one cell of `target` stands for: a cell that
// holds blocks (the frontend runs a dense block's cells as a loop inside its
// parent's cell) counts as a block.
int64_t cell_weight(const SNode* target) {
  int64_t w = 1;
  for (auto& ch : target->children)
    if (ch->is_container()) w = std::max(w, ch->num_cells());
  return w;
}

// The cell table of every unit of a struct-for, kept across launches
// (CachedCells) when the rows stand for blocks of cells (`weight` > 1: the
// table is small beside the work, and a sweep over few active blocks costs
// little more than finding them) and at most kMaxCachedCells int64s. Null
// when not kept; else rebuilt when a cell's activity, the list or the units
// changed since it was built.
constexpr int64_t kMaxCachedCells = 1 << 20;

bool keeps_table(const bc::TaskCode& t, Program* prog, const SNode* target, int64_t weight, int64_t n, int64_t cells,
                 int nidx) {
  return !t.word_rows && weight > 1 && !(n && cells > kMaxCachedCells / (nidx + 1) / n) &&
         prog->cell_table_cacheable(target);
}

template <class Fill>
CachedCells* cached_table(Program* prog, const SNode* target, int64_t n, int nidx, int64_t per, int64_t span,
                          int64_t ranges, int64_t units, Fill&& fill) {
  CachedCells& c = prog->cell_cache[target];
  const CellTableKey key{prog->activity_generation.load(std::memory_order_relaxed), nidx, per, span, ranges, units,
                         (size_t)n, n ? prog->list_of(target)[0].container : nullptr};
  if (c.valid && c.key == key) return &c;
  c.rows.clear();
  c.unit_row.resize((size_t)units + 1);
  for (int64_t u = 0; u < units; u++) {
    c.unit_row[u] = (int64_t)(c.rows.size() / (size_t)(nidx + 1));
    fill(u, c.rows);
  }
  c.unit_row[units] = (int64_t)(c.rows.size() / (size_t)(nidx + 1));
  c.key = key;
  c.valid = true;
  return &c;
}

// One launch of a struct_for over `n` containers of `cells` cells, serially
// or on the pool (its chunks timed through `chunks` when given). With
// `given` (NativeTask::cell_table), the n rows there stand for n containers
// of one cell each: a unit is `per` of them.
void struct_for_launch(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, NativeTask* native,
                       const SNode* target, int64_t n, int64_t cells, int64_t weight, bool serial,
                       CallerChunks* chunks, const int64_t* given) {
  Program* prog = ctx.program;
  int nidx = std::max(t.num_indices, 1);
  // Units: `per` containers each, or `ranges` ranges of `span` cells of each container.
  // A word row stands for 64 cells (vm/runtime/word_rows.h): a serial unit
  // is kCellBatch rows of them, a parallel one 8 * kCellBatch cells (with
  // kCellBatch cells, sparse_particles' step entered the task's code, and
  // word_rows, for every ~1000 live cells: ~11% of its CPU time).
  auto plan = [&](int64_t w, int64_t& per, int64_t& span, int64_t& ranges) {
    int64_t batch = !t.word_rows ? kCellBatch : serial ? kCellBatch * 64 : kCellBatch * 8;
    span = std::max<int64_t>(1, batch / w);
    per = std::max<int64_t>(1, span / cells);
    ranges = (cells + span - 1) / span;
    return ranges > 1 ? n * ranges : (n + per - 1) / per;
  };
  // A kept table (its rows stand for blocks) is cut into the parallel way's
  // units however this launch runs, so that serial and parallel launches
  // share it, and its units are taken in groups by their rows: a parallel
  // group is about kCellBatch cells of listed blocks, a serial one kCellBatch
  // rows, and the task's code is entered once a group. (Cut by all of the
  // level's cells, a tenth-full grid of 8x8 blocks entered the code 128 times
  // a parallel launch for 400 blocks, and a serial launch after a parallel
  // one rebuilt the table for its own units.)
  const bool keep = !given && keeps_table(t, prog, target, weight, n, cells, nidx);
  int64_t per, span, ranges;
  int64_t units = plan(serial && !keep ? 1 : weight, per, span, ranges);
  if (units < 2 && !serial && !keep) {
    serial = true;
    units = plan(1, per, span, ranges);
  }
  // Unit u's rows, appended to `table`: `per` whole containers, or range
  // u % ranges of container u / ranges.
  // (A row per cell, or with TaskCode::word_rows a row per 64-cell word:
  // vm/runtime/word_rows.h.)
  auto rows_of = [&](size_t b, size_t e, CellTable& table, int64_t lo, int64_t hi) {
    if (t.word_rows) word_rows(*prog, target, b, e, nidx, table, lo, hi);
    else prog->active_cells(target, b, e, nidx, table, lo, hi);
  };
  auto fill = [&](int64_t u, CellTable& table) {
    if (ranges > 1) {
      int64_t lo = u % ranges * span;
      rows_of((size_t)(u / ranges), (size_t)(u / ranges + 1), table, lo, lo + span);
    } else {
      rows_of((size_t)(u * per), (size_t)std::min(n, (u + 1) * per), table, 0, INT64_MAX);
    }
  };
  const size_t w = (size_t)nidx + (t.word_rows ? 2 : 1);
  CachedCells* cache = keep ? cached_table(prog, target, n, nidx, per, span, ranges, units, fill) : nullptr;
  // Group g is units [first[g], first[g + 1]); without a kept table, unit g.
  // (Kept per thread: no allocation per launch. A reference, which the
  // workers' lambda captures, not the worker's own thread_local.)
  thread_local std::vector<int64_t> first_tl;
  std::vector<int64_t>& first = first_tl;
  int64_t groups = units;
  auto group_by_rows = [&](int64_t rows) {
    first.assign(1, 0);
    for (int64_t u = 1; u <= units; u++)
      if (u == units || cache->unit_row[u] - cache->unit_row[first.back()] >= rows) first.push_back(u);
    groups = (int64_t)first.size() - 1;
  };
  if (cache) {
    group_by_rows(serial ? kCellBatch : std::max<int64_t>(1, kCellBatch / weight));
    if (groups < 2 && !serial) {
      serial = true;
      group_by_rows(kCellBatch);
    }
  }
  auto run_groups = [&](int64_t b, int64_t e) {
    // Kept per thread across launches: a fresh table each launch costs page
    // faults (freed big blocks go back to the system) on every sweep.
    thread_local CellTable table;
    for (int64_t g = b; g < e; g++) {
      int64_t u0 = cache ? first[g] : g, u1 = cache ? first[g + 1] : g + 1;
      // The kept rows (a group's units' rows are consecutive) while no cell
      // changed; once this launch's own work activates or deactivates one,
      // the later units scan their containers again (as without a kept
      // table: each unit's table is built as it starts).
      if (cache && prog->activity_generation.load(std::memory_order_relaxed) == cache->key.generation) {
        int64_t count = cache->unit_row[u1] - cache->unit_row[u0];
        if (count) run_code(t, ctx, 0, count, hook, native, cache->rows.data() + (size_t)cache->unit_row[u0] * w);
        continue;
      }
      for (int64_t u = u0; u < u1; u++) {
        if (given) {
          int64_t count = std::min(n, (u + 1) * per) - u * per;
          if (count > 0) run_code(t, ctx, 0, count, hook, native, given + (size_t)(u * per) * w);
          continue;
        }
        table.clear();
        fill(u, table);
        int64_t count = (int64_t)(table.size() / w);
        if (count) run_code(t, ctx, 0, count, hook, native, table.data());
      }
    }
  };
  if (serial) {
    run_groups(0, groups);
    return;
  }
  if (chunks) chunks->total = groups;
  prog->pool->parallel_for(groups, t.block_dim > 0 ? std::max<int64_t>(1, t.block_dim / std::min(cells * weight, kCellBatch)) : 0,
                           [&](int64_t b, int64_t e, int worker) {
                             if (chunks) chunks->time(worker, b, e, [&] { run_groups(b, e); });
                             else run_groups(b, e);
                           });
}

void run_struct_for(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, NativeTask* native) {
  Program* prog = ctx.program;
  if (!prog) raise("InternalError", "struct_for task launched without a program");
  const SNode* target = prog->snode(t.snode);
  int64_t n = 0, cells = 1;
  const int64_t* given = nullptr;
  if (native) {  // the engine's own list generation (timed as the list tasks are)
    auto t0 = std::chrono::steady_clock::now();
    given = native->cell_table(ctx, target, std::max(t.num_indices, 1), n);
    if (given) add_listgen_time(*prog, t0);
  }
  if (!given) {
    n = (int64_t)prog->list_of(target).size();
    cells = std::max<int64_t>(1, target->num_cells());
  }
  int64_t weight = cell_weight(target);
  // Few cells run serially, as a short range_for does: it costs less, and the
  // prints of a small struct-for come out in the list's order on any number
  // of cores.
  bool few = n * cells * weight < kMinParallel;
  if (t.serialize || few || one_chunk_always(prog)) {
    struct_for_launch(t, ctx, hook, native, target, n, cells, weight, true, nullptr, given);
    return;
  }
  run_measured(t, n * cells * weight, prog->pool->size(), [&](bool parallel, CallerChunks& chunks) {
    struct_for_launch(t, ctx, hook, native, target, n, cells, weight, !parallel, &chunks, given);
  });
}

// A range_for's iterations [begin, end) by run(b, e): in one call, or in
// chunks on the pool when the launch runs in parallel (launch_mode.h).
template <class Run>
void run_range(const bc::TaskCode& t, Program* prog, int64_t begin, int64_t end, bool serial, Run&& run) {
  if (serial) {
    run(begin, end);
    return;
  }
  int64_t n = end - begin, chunk = t.block_dim > 0 ? t.block_dim : 0;
  run_measured(t, n, prog->pool->size(), [&](bool parallel, CallerChunks& chunks) {
    if (!parallel) {
      run(begin, end);
      return;
    }
    chunks.total = n;
    prog->pool->parallel_for(n, chunk, [&](int64_t b, int64_t e, int worker) {
      chunks.time(worker, b, e, [&] { run(begin + b, begin + e); });
    });
  });
}

// One task; `mid`, when given, the launch's other code (mid_launch.h) that
// this task may switch to.
void run_task_in(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, NativeTask* native, MidLaunch* mid,
                 size_t i) {
  MidLaunchTask* m = mid && i < mid->num_tasks && mid->tasks[i].may_switch ? &mid->tasks[i] : nullptr;
  if (t.kind == ir::Task::serial) {
    if (m) run_serial(t, ctx, hook, *m);
    else run_code(t, ctx, 0, 0, hook, native);
    return;
  }
  if (t.kind == ir::Task::clear_list || t.kind == ir::Task::listgen) {
    if (native) return;  // its struct_for makes its own cells (NativeTask::cell_table)
    Program* prog = ctx.program;
    if (!prog) raise("InternalError", "list task launched without a program");
    const SNode* target = prog->snode(t.snode);
    auto t0 = std::chrono::steady_clock::now();
    if (t.kind == ir::Task::clear_list) prog->clear_list(target, t.level);
    else prog->listgen(target, t.level);
    add_listgen_time(*prog, t0);
    return;
  }
  if (t.kind == ir::Task::struct_for) {
    run_struct_for(t, ctx, hook, native);
    return;
  }
  int64_t begin = bound_value(ctx, t.begin_const, t.begin, t.index_prim);
  int64_t end = bound_value(ctx, t.end_const, t.end, t.index_prim);
  if (end <= begin) return;
  int64_t n = end - begin;
  Program* prog = ctx.program;
  bool serial = t.serialize || n < kMinParallel || one_chunk_always(prog) ||
                prog->debugger;  // parallel prints in iteration order; stepping
  if (!m) {
    run_range(t, prog, begin, end, serial, [&](int64_t b, int64_t e) { run_code(t, ctx, b, e, hook, native); });
    return;
  }
  m->done.store(0, std::memory_order_relaxed);
  m->cpu_ns.store(0, std::memory_order_relaxed);
  m->settle_at_start();
  const Switch sw{mid, i, m, begin, end};
  run_range(t, prog, begin, end, serial, [&](int64_t b, int64_t e) { run_slices(t, ctx, hook, sw, b, e); });
}

}  // namespace

void run_task(const bc::TaskCode& t, LaunchContext& ctx, LoopHook* hook, NativeTask* native) {
  run_task_in(t, ctx, hook, native, nullptr, 0);
}

void flush_prints(LaunchContext& ctx) {
  // The launch's threads are done (they wrote under the lock, and the pool's
  // join orders that before this): nothing printed, nothing to lock.
  if (ctx.print_buffer.empty()) return;
  std::string out;
  {
    std::lock_guard<std::mutex> lock(ctx.print_mu);
    out.swap(ctx.print_buffer);
  }
  if (!out.empty() && ctx.program && ctx.program->out) ctx.program->print(out);
  else if (!out.empty()) ctx.print_buffer = std::move(out);  // no sink: leave it for the caller
}

void launch(const bc::Kernel& k, LaunchContext& ctx, LoopHook* const* hooks, NativeTask* const* natives) {
  if ((int)ctx.args.size() < k.num_args)
    raise("InternalError", "kernel '" + k.name + "' launched with " + std::to_string(ctx.args.size()) +
                               " arguments, it takes " + std::to_string(k.num_args));
  if ((int)ctx.rets.size() < k.num_rets) ctx.rets.resize(k.num_rets);
  if ((int)ctx.temps.size() < k.num_global_temps) ctx.temps.resize(k.num_global_temps);
  MidLaunch* mid = ctx.mid;
  try {
    for (size_t i = 0; i < k.tasks.size(); i++)
      run_task_in(k.tasks[i], ctx, hooks ? hooks[i] : nullptr, natives ? natives[i] : nullptr, mid, i);
  } catch (...) {
    flush_prints(ctx);
    throw;
  }
  flush_prints(ctx);
}

namespace {

struct InterpEngine : Engine {
  const char* name() const override { return "interp"; }
  bool supports(Prim) const override { return true; }
  std::unique_ptr<CompiledKernel> compile(const ir::Kernel& k, Program& prog) override {
    return std::make_unique<InterpKernel>(bc::lower_kernel(k, prog.debugger != nullptr));
  }
};

}  // namespace
}  // namespace kiln::interp

namespace kiln {
std::unique_ptr<Engine> make_interp_engine() { return std::make_unique<interp::InterpEngine>(); }
}  // namespace kiln
