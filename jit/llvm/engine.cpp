// The llvm Engine: bytecode for every task (the fallback, and what `kiln dis`
// shows), native code from orc.cpp for each task that lowers, run by the
// interpreter's launcher (chunks, thread pool, list tasks) through
// interp::NativeTask. The runtime calls of generated code live here too: a
// failed check becomes the interpreter's own error, located at its statement.
#include "jit/llvm/llvm.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "jit/llvm/listgen.h"
#include "jit/llvm/orc.h"
#include "vm/bytecode/function.h"
#include "vm/interp/interp.h"
#include "vm/interp/interp_ops.h"
#include "vm/interp/recursion_message.h"
#include "vm/ir/passes/passes.h"
#include "vm/runtime/append.h"
#include "vm/runtime/ndarray_bounds.h"
#include "vm/runtime/program.h"
#include "vm/runtime/rng.h"
#include "vm/types/value.h"

namespace kiln::llvmjit {

namespace {

// One task run: what the runtime calls need, and the error one recorded.
struct RunState {
  LaunchContext* ctx;
  const TaskMeta* meta;
  std::unique_ptr<Error> error;
};

}  // namespace

std::string check_message(const Check& c, const uint64_t* v, const LaunchContext& ctx, const char*& kind) {
  switch (c.kind) {
    case Check::bounds: {
      kind = "IndexError";
      std::string field = !c.text.empty() ? c.text : c.field.empty() ? "field" : "field '" + c.field + "'";
      // The checked index is from 0; the user wrote it with the field's offset.
      int64_t user = (int64_t)v[0] + ((size_t)c.axis < c.offset.size() ? c.offset[(size_t)c.axis] : 0);
      return bounds_message(field, c.axis, user, c.shape, c.offset);
    }
    case Check::ext_bounds: {
      kind = "IndexError";
      std::vector<int64_t> shape;
      for (int k = 0; k < c.ndim; k++)
        shape.push_back((int64_t)(int32_t)(c.shape_in_values ? v[1 + k] : ctx.args[(size_t)(c.ext_arg + 1 + k)]));
      return ndarray_bounds_message(c.field, c.axis, (int64_t)v[0], shape);
    }
    case Check::assertion: {
      kind = "AssertionError";
      std::vector<ConstVal> args;
      for (size_t k = 0; k < c.prims.size(); k++) args.push_back(interp::sem::reg_to_val(v[k], c.prims[k]));
      return assert_text(c.text, args);
    }
    case Check::div_zero: kind = "ZeroDivisionError"; return "integer division by zero";
    case Check::pow_zero: kind = "ZeroDivisionError"; return "0 cannot be raised to a negative power";
    case Check::interrupt: kind = "KeyboardInterrupt"; return "interrupted (Ctrl-C)";
    case Check::tape_full: kind = "RuntimeError"; return bc::stack_overflow_message((uint64_t)c.axis);
    case Check::tape_empty: kind = "InternalError"; return "autodiff stack read while empty";
    case Check::pool_full: {
      // A pool that can fill up had its share of the budget (device_pools.h).
      kind = "MemoryError";
      std::string budget;
      if (ctx.program) {
        char gb[32];
        snprintf(gb, sizeof gb, "%g", ctx.program->config.device_memory_gb);
        budget = ": its share of what a tree's device pools may take, ti.init(device_memory_GB=" + std::string(gb) + ")";
      }
      return "out of memory: the device pool of sparse SNode " + c.field + " is full (" +
             std::to_string((uint32_t)c.axis) + " blocks" + budget + ")";
    }
    case Check::snode_bounds:
      kind = "IndexError";
      return bounds_message("SNode " + c.field, c.axis, (int64_t)v[0], c.shape, {});
    case Check::recursion: {  // the interpreter's limit and words (vm/interp/interp.cpp call_real_func)
      kind = "RecursionError";
      uint64_t limit = c.axis == 1 ? v[0] : (uint64_t)interp::kMaxCallDepth;
      return interp::recursion_message(c.text, limit, "its thread stack");
    }
  }
  kind = "InternalError";
  return "unknown check";
}

std::string print_text(const PrintSite& p, const uint64_t* values) {
  std::string line;
  for (const ir::PrintPart& part : p.parts) {
    if (!part.is_value) {
      line += part.text;
      continue;
    }
    ConstVal v = interp::sem::reg_to_val(values[part.op], p.prims[(size_t)part.op]);
    line += kernel_print_scalar(v, part.text.empty() ? std::string_view{} : std::string_view(part.text));
  }
  return line;
}

namespace {

struct LlvmTask : interp::NativeTask {
  TaskFn fn;
  TaskMeta meta;
  uint32_t task_no;  // its position in the kernel (ti.random's streams)
  // A struct_for over a device-pool tree: its cells come from the generated
  // list functions (listgen.h: what the device runs), not the host's lists.
  bool generates_cells = false;
  LlvmTask(TaskFn f, TaskMeta m, uint32_t n) : fn(f), meta(std::move(m)), task_no(n) {}

  void run(LaunchContext& ctx, int64_t begin, int64_t end, const int64_t* cells) override {
    static const std::atomic<bool> kNever{false};
    for (auto& [tree, loc] : meta.trees)
      if ((size_t)tree >= ctx.tree_bases.size() || !ctx.tree_bases[(size_t)tree])
        raise("RuntimeError", "kernel accesses SNode tree " + std::to_string(tree) + ", which has no memory", loc);
    RunState st{&ctx, &meta, nullptr};
    Env env{ctx.args.data(), ctx.rets.data(), ctx.tree_bases.data(), ctx.temps.data(),
            ctx.program ? &ctx.program->interrupt_requested : &kNever, &st, ctx.tree_bases.size(),
            rng_task_key(ctx.rng_key, task_no), task_no};
    if (fn(&env, begin, end, cells) == 0) return;
    if (st.error) throw *st.error;
    raise("InternalError", "an LLVM-compiled task failed without saying why");
  }
  const int64_t* cell_table(LaunchContext& ctx, const SNode* target, int nidx, int64_t& rows) override {
    if (!generates_cells || !ctx.program) return nullptr;
    thread_local CellTable table;  // kept: a fresh one each launch costs page faults
    generate_cells(*ctx.program, *target, nidx, table);
    rows = (int64_t)(table.size() / (size_t)(nidx + 1));
    return table.data();
  }
};

// What the launcher finds at a list task whose struct_for makes its own
// cells: it skips the task (interp::launch), never runs it.
struct GeneratedList : interp::NativeTask {
  void run(LaunchContext&, int64_t, int64_t, const int64_t*) override {
    raise("InternalError", "a list task that generated code stands in for was run");
  }
};

struct LlvmKernel : interp::InterpKernel {
  std::vector<std::unique_ptr<LlvmTask>> tasks;
  std::vector<interp::NativeTask*> natives;
  std::vector<std::string> why;
  std::once_flag marked;
  explicit LlvmKernel(bc::Kernel k) : InterpKernel(std::move(k)) {}
  void launch(LaunchContext& ctx) override {
    if (ctx.program) std::call_once(marked, [&] { mark_generated(*ctx.program); });
    interp::launch(code, ctx, nullptr, natives.data());
  }
  // Once, at the first launch (the program's trees are laid out by then):
  // the native struct_fors over device-pool trees generate their cells, and
  // the list tasks before each (of its SNode) are skipped. KILN_HOST_LISTGEN=1
  // keeps the host's lists.
  void mark_generated(Program& prog) {
    static const bool host = [] {
      const char* v = std::getenv("KILN_HOST_LISTGEN");
      return v && *v && *v != '0';
    }();
    if (host) return;
    static GeneratedList stand_in;
    for (size_t i = 0; i < code.tasks.size(); i++) {
      const bc::TaskCode& t = code.tasks[i];
      if (t.kind != ir::Task::struct_for || !natives[i]) continue;
      const SNode* s = prog.snode(t.snode);
      if (!prog.trees.at((size_t)s->tree)->device_counters) continue;
      static_cast<LlvmTask*>(natives[i])->generates_cells = true;
      for (size_t j = i; j-- > 0 && code.tasks[j].kind != ir::Task::struct_for;)
        if ((code.tasks[j].kind == ir::Task::clear_list || code.tasks[j].kind == ir::Task::listgen) &&
            code.tasks[j].snode == t.snode)
          natives[j] = &stand_in;
    }
  }
  interp::NativeTask* native_task(size_t i) const override { return i < natives.size() ? natives[i] : nullptr; }
  std::string disassemble() const override {
    std::string s;
    for (size_t i = 0; i < natives.size(); i++)
      if (i < code.tasks.size() && code.tasks[i].kind != ir::Task::clear_list && code.tasks[i].kind != ir::Task::listgen)
        s += "; " + code.tasks[i].fn.name + ": " + (natives[i] ? "LLVM native code" : "bytecode (" + why[i] + ")") + "\n";
    return s + bc::disassemble(code);
  }
};

struct LlvmEngine : Engine {
  bool verbose = [] {
    const char* v = std::getenv("KILN_LLVM_VERBOSE");
    return v && *v && *v != '0';
  }();
  const char* name() const override { return "llvm"; }
  bool supports(Prim) const override { return true; }
  // Nests whose sums keep program order, two i a pass: each block folds its
  // terms into a sum one lane at a time (lower_ordered.cpp), a chain of
  // dependent adds (or fmas) that bounds the loop by their latency; two i's
  // chains run side by side (Taichi's n-body example: see docs/llvm_tier.md).
  // And tasks around a pure while loop, four iterations' loops in lockstep
  // (vm/ir/passes/jam_while.cpp): each is a chain of dependent float
  // operations (an escape-time loop's x * x - y * y + cx) that the other
  // copies' independent chains overlap.
  int jams_outer_loops() const override { return ir::kJamOrdered | ir::kJamWhile; }
  std::unique_ptr<CompiledKernel> compile(const ir::Kernel& k, Program& prog) override {
    return compile_llvm_kernel(k, &prog, verbose);
  }
};

}  // namespace

std::unique_ptr<CompiledKernel> compile_llvm_kernel(const ir::Kernel& k, Program* prog, bool verbose) {
  return finish_llvm_kernel(lower_kernel_tasks(k, prog, true), k, prog, prog && prog->debugger != nullptr, verbose);
}

std::unique_ptr<CompiledKernel> finish_llvm_kernel(LoweredPtr l, const ir::Kernel& k, Program* prog, bool debugger,
                                                   bool verbose) {
  auto kern = std::make_unique<LlvmKernel>(bc::lower_kernel(k, debugger));
  CompiledTasks ct = finish_kernel_tasks(std::move(l), prog);
  int native = 0, fallback = 0;
  for (size_t i = 0; i < ct.fns.size(); i++) {
    if (ct.fns[i]) {
      // Its code reads word rows: the launcher writes them (the bytecode,
      // which does not, never runs in its place).
      if (ct.metas[i].word_rows && i < kern->code.tasks.size()) kern->code.tasks[i].word_rows = true;
      kern->tasks.push_back(std::make_unique<LlvmTask>(ct.fns[i], std::move(ct.metas[i]), (uint32_t)i));
      kern->natives.push_back(kern->tasks.back().get());
      native++;
    } else {
      kern->natives.push_back(nullptr);
      if (!ct.why[i].empty()) fallback++;
    }
    std::string task = i < kern->code.tasks.size() ? kern->code.tasks[i].fn.name : k.name;
    if (verbose && !ct.why[i].empty()) std::fprintf(stderr, "llvm: %s runs as bytecode: %s\n", task.c_str(), ct.why[i].c_str());
    kern->why.push_back(ct.why[i]);
  }
  if (kern->natives.size() < kern->code.tasks.size()) kern->natives.resize(kern->code.tasks.size(), nullptr);
  if (verbose) {
    std::fprintf(stderr, "llvm: %s: %d native, %d bytecode, %.1f ms\n", k.name.c_str(), native, fallback, ct.ms);
    std::fprintf(stderr, "llvm: %s: lower %.1f ms, optimize %.1f ms, codegen %.1f ms, link %.1f ms; cpu %.1f ms%s\n",
                 k.name.c_str(), ct.lower_ms, ct.optimize_ms, ct.codegen_ms, ct.link_ms, ct.cpu_ms,
                 ct.cached ? " (offline cache)" : "");
  }
  if (prog) {
    prog->stat_add("llvm_tasks_native", native);
    prog->stat_add("llvm_tasks_fallback", fallback);
    prog->stat_add("llvm_compile_time_ms", ct.ms);
  }
  return kern;
}

namespace {

// The interpreter's library math (std:: functions of the operand's type),
// under names LLVM does not know, so that it neither folds nor rewrites them.
#define KILN_LLVM_MATH1(X) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(tanh) X(exp) X(log)
#define KILN_LLVM_MATH2(X) X(atan2) X(pow)

}  // namespace

extern "C" {
void kiln_llvm_fail(void* host, int32_t check, const uint64_t* values) {
  RunState& st = *static_cast<RunState*>(host);
  const Check& c = st.meta->checks.at((size_t)check);
  const char* kind = "InternalError";
  std::string msg = check_message(c, values, *st.ctx, kind);
  st.error = std::make_unique<Error>(kind, msg, c.loc);
}

int32_t kiln_llvm_print(void* host, int32_t site, const uint64_t* values) {
  RunState& st = *static_cast<RunState*>(host);
  const PrintSite& p = st.meta->prints.at((size_t)site);
  std::string line;
  try {
    line = print_text(p, values);
  } catch (const Error& e) {
    st.error = std::make_unique<Error>(e);
    if (!st.error->loc.known()) st.error->loc = p.loc;
    return 1;
  }
  std::lock_guard<std::mutex> lock(st.ctx->print_mu);
  st.ctx->print_buffer += line;
  return 0;
}

void* kiln_llvm_sparse(void* host, int32_t place, int32_t activate, int32_t n, const int64_t* idx) {
  RunState& st = *static_cast<RunState*>(host);
  try {
    if (!st.ctx->program) raise("RuntimeError", "sparse field access without a program");
    int64_t full[kMaxIndices] = {};
    for (int k = 0; k < n && k < kMaxIndices; k++) full[k] = idx[k];
    return st.ctx->program->sparse_element(place, full, activate != 0);
  } catch (const Error& e) {
    st.error = std::make_unique<Error>(e);
    return nullptr;
  }
}

int32_t kiln_llvm_snode_op(void* host, int32_t site, int32_t n, const int64_t* idx, int64_t* out) {
  RunState& st = *static_cast<RunState*>(host);
  const SNodeOpSite& s = st.meta->snode_ops.at((size_t)site);
  try {
    if (!st.ctx->program) raise("RuntimeError", "SNode operation without a program");
    int64_t full[kMaxIndices] = {};
    for (int k = 0; k < n && k < kMaxIndices; k++) full[k] = idx[k];
    *out = st.ctx->program->snode_op((Program::SNodeOp)s.op, s.snode, full);
    return 0;
  } catch (const Error& e) {
    st.error = std::make_unique<Error>(e);
    if (!st.error->loc.known()) st.error->loc = s.loc;  // the runtime's errors are located at the statement
    return 1;
  }
}

int32_t kiln_llvm_append_chunk(void* host, int32_t site, void* container, int64_t cell) {
  RunState& st = *static_cast<RunState*>(host);
  const SNodeOpSite& s = st.meta->snode_ops.at((size_t)site);
  try {
    if (!st.ctx->program) raise("RuntimeError", "SNode operation without a program");
    append_chunk(*st.ctx->program, *st.ctx->program->snode(s.snode), static_cast<uint8_t*>(container), cell);
    return 0;
  } catch (const Error& e) {
    st.error = std::make_unique<Error>(e);
    if (!st.error->loc.known()) st.error->loc = s.loc;
    return 1;
  }
}

#define KILN_LLVM_DEF1(f)                                    \
  float kiln_llvm_##f##f(float x) { return std::f(x); }     \
  double kiln_llvm_##f(double x) { return std::f(x); }
#define KILN_LLVM_DEF2(f)                                              \
  float kiln_llvm_##f##f(float x, float y) { return std::f(x, y); }   \
  double kiln_llvm_##f(double x, double y) { return std::f(x, y); }
KILN_LLVM_MATH1(KILN_LLVM_DEF1)
KILN_LLVM_MATH2(KILN_LLVM_DEF2)
}

std::vector<RuntimeSymbol> runtime_symbols() {
  std::vector<RuntimeSymbol> s{{"kiln_llvm_fail", (void*)&kiln_llvm_fail},
                               {"kiln_llvm_print", (void*)&kiln_llvm_print},
                               {"kiln_llvm_sparse", (void*)&kiln_llvm_sparse},
                               {"kiln_llvm_snode_op", (void*)&kiln_llvm_snode_op},
                               {"kiln_llvm_append_chunk", (void*)&kiln_llvm_append_chunk}};
#define KILN_LLVM_SYM(f)                                   \
  s.push_back({"kiln_llvm_" #f "f", (void*)&kiln_llvm_##f##f}); \
  s.push_back({"kiln_llvm_" #f, (void*)&kiln_llvm_##f});
  KILN_LLVM_MATH1(KILN_LLVM_SYM)
  KILN_LLVM_MATH2(KILN_LLVM_SYM)
  return s;
}

}  // namespace kiln::llvmjit

namespace kiln {
std::unique_ptr<Engine> llvmjit::make_engine() { return std::make_unique<llvmjit::LlvmEngine>(); }
}  // namespace kiln
