// The jit Engine: bytecode + one LoopHook per task function. A hook owns the
// per-loop state (hot count backoff, blacklist, the compiled trace); traces
// run on whichever pool thread reaches the loop, recording is serialized.
#include <asmjit/x86.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>

#include "jit/backend.h"
#include "jit/jit.h"
#include "jit/rtcall.h"
#include "jit/params.h"
#include "jit/recorder.h"
#include "vm/interp/interp.h"
#include "vm/runtime/program.h"

namespace kiln::jit {

namespace {

// Code lives as long as the process: a kernel cache entry may be dropped
// while another thread still runs its trace, and traces are small.
asmjit::JitRuntime& runtime() {
  static asmjit::JitRuntime rt;
  return rt;
}

std::mutex report_mu;
std::string report_text;
std::atomic<bool> keep{false};

void report(const std::string& s) {
  std::lock_guard<std::mutex> lock(report_mu);
  report_text += s;
}

struct LoopSlot {
  std::atomic<TraceFn> fn{nullptr};
  std::atomic<int64_t> hits{0};  // back edges seen while the function's threshold is 1
  uint16_t counter = 0;
  int attempts = 0;
  std::atomic<bool> blacklisted{false};
};

class FunctionJit : public interp::LoopHook {
 public:
  FunctionJit(const bc::Function& fn, const Params& p) : fn_(fn), p_(p), slots_(fn.code.size()) {
    hotloop = p.hotloop;
    for (const bc::LoopInfo& li : fn.loops) {
      uint32_t head = li.counted ? (uint32_t)fn.code[li.head].d() : li.head + 1;
      if (head >= slots_.size()) continue;
      slots_[head] = std::make_unique<LoopSlot>();
      slots_[head]->counter = li.counter;
    }
  }

  uint32_t hot(const bc::Function& fn, uint32_t pc, uint64_t* R, LaunchContext& ctx) override {
    LoopSlot* s = pc < slots_.size() ? slots_[pc].get() : nullptr;
    if (!s) return pc;
    TraceEnv env{ctx.args.data(), ctx.tree_bases.data(), ctx.tree_bases.size(), ctx.temps.data(),
                 ctx.program ? &ctx.program->interrupt_requested : &kNoInterrupt, ctx.program};
    if (TraceFn f = s->fn.load(std::memory_order_acquire)) return run(f, R, env);
    if (s->blacklisted.load(std::memory_order_relaxed)) {
      R[s->counter] = (uint64_t)(INT64_MIN / 2);
      return pc;
    }
    // Once the function has a trace every back edge reaches here: count this
    // loop's back edges across its instances until it is hot itself.
    if (hotloop.load(std::memory_order_relaxed) == 1 && s->hits.fetch_add(1) + 1 < p_.hotloop) return pc;
    std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
    if (!lock.owns_lock()) {  // another thread is recording: keep interpreting a while
      R[s->counter] = (uint64_t)(p_.hotloop - p_.backoff);
      return pc;
    }
    if (TraceFn f = s->fn.load(std::memory_order_acquire)) return run(f, R, env);
    auto t0 = std::chrono::steady_clock::now();
    if (!live_) live_ = std::make_unique<Liveness>(fn);
    Recording rec = record(fn, pc, R, env, p_, live_.get(), [this](uint32_t head) -> TraceFn {
      LoopSlot* inner = head < slots_.size() ? slots_[head].get() : nullptr;
      return inner ? inner->fn.load(std::memory_order_acquire) : nullptr;
    });
    if (!rec.ok) {
      s->attempts++;
      if (s->attempts >= p_.tryagain) s->blacklisted = true;
      int64_t wait = p_.backoff << (s->attempts < 20 ? s->attempts : 20);
      R[s->counter] = (uint64_t)(p_.hotloop - wait);
      note("abort " + fn.name + " @" + std::to_string(pc) + " at pc " + std::to_string(rec.resume_pc) + ": " +
           rec.why + (s->blacklisted ? " (blacklisted)" : "") + "\n");
      return rec.resume_pc;
    }
    auto t1 = std::chrono::steady_clock::now();
    Compiled c;
    std::string why = compile_trace(rec.trace, runtime(), c, keep.load() || p_.verbose > 2);
    auto t2 = std::chrono::steady_clock::now();
    if (!why.empty()) {
      s->blacklisted = true;
      note("abort " + fn.name + " @" + std::to_string(pc) + ": " + why + " (blacklisted)\n");
      return rec.resume_pc;
    }
    double rec_us = std::chrono::duration<double, std::micro>(t1 - t0).count();
    double asm_us = std::chrono::duration<double, std::micro>(t2 - t1).count();
    char buf[160];
    std::snprintf(buf, sizeof buf, "trace %s @%u: %zu IR, %zu snapshots, %zu bytes; record %.1f us, assemble %.1f us\n",
                  fn.name.c_str(), pc, rec.trace.ins.size(), rec.trace.snaps.size(), c.code_size, rec_us, asm_us);
    note(buf);
    if (keep.load()) report(dump_trace(rec.trace) + "---- machine code\n" + c.listing);
    if (p_.verbose > 1) std::fprintf(stderr, "%s%s", dump_trace(rec.trace).c_str(), c.listing.c_str());
    s->fn.store(c.fn, std::memory_order_release);
    hotloop.store(1, std::memory_order_relaxed);
    return run(c.fn, R, env);
  }

 private:
  // A trace run; an error a runtime call raised inside it surfaces here.
  static uint32_t run(TraceFn f, uint64_t* R, TraceEnv& env) {
    uint32_t pc = f(R, &env);
    rethrow_pending();
    return pc;
  }

  void note(const std::string& s) {
    if (keep.load()) report(s);
    if (p_.verbose) std::fprintf(stderr, "jit: %s", s.c_str());
  }

  const bc::Function& fn_;
  const Params& p_;
  std::vector<std::unique_ptr<LoopSlot>> slots_;
  std::unique_ptr<Liveness> live_;  // computed when the first loop gets hot (under mu_)
  std::mutex mu_;
};

struct JitKernel : interp::InterpKernel {
  Params params;
  std::vector<std::unique_ptr<FunctionJit>> jits;
  std::vector<interp::LoopHook*> hooks;

  JitKernel(bc::Kernel k, const Params& p) : InterpKernel(std::move(k)), params(p) {
    for (auto& t : code.tasks) {
      jits.push_back(std::make_unique<FunctionJit>(t.fn, params));
      hooks.push_back(params.enable ? jits.back().get() : nullptr);
    }
  }
  void launch(LaunchContext& ctx) override { interp::launch(code, ctx, hooks.data()); }
};

struct JitEngine : Engine {
  Params params = params_from_env();
  const char* name() const override { return "jit"; }
  bool supports(Prim) const override { return true; }
  std::unique_ptr<CompiledKernel> compile(const ir::Kernel& k, Program&) override {
    return std::make_unique<JitKernel>(bc::lower_kernel(k), params);
  }
};

}  // namespace

void keep_traces(bool on) { keep = on; }

std::string trace_report() {
  std::lock_guard<std::mutex> lock(report_mu);
  return report_text;
}

}  // namespace kiln::jit

namespace kiln {
std::unique_ptr<Engine> make_jit_engine() { return std::make_unique<jit::JitEngine>(); }
}  // namespace kiln
