// The jit Engine: bytecode + one LoopHook per task function. A hook owns the
// per-loop state (hot count backoff, blacklist, the compiled trace); traces
// run on whichever pool thread reaches the loop, recording is serialized.
#include <asmjit/x86.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>

#include "jit/backend.h"
#include "jit/jit.h"
#include "vm/ir/clone.h"
#include "vm/ir/passes/passes.h"
#include "jit/rtcall.h"
#include "jit/params.h"
#include "jit/perf_map.h"
#include "jit/recompile.h"
#include "jit/recorder.h"
#include "vm/bytecode/flat_rows.h"
#include "vm/interp/interp.h"
#include "vm/runtime/program.h"
#include "vm/runtime/word_rows.h"

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

// Transient aborts allowed per real one before a loop is blacklisted.
constexpr int kTransientTries = 8;

struct LoopSlot {
  std::atomic<TraceFn> fn{nullptr};
  std::atomic<const void*> warm{nullptr};  // fn's entry after its prologue (side traces jump there)
  std::atomic<int64_t> hits{0};  // back edges seen while the function's threshold is 1
  uint16_t counter = 0;
  int attempts = 0;
  int transient_attempts = 0;  // aborts that say nothing against the loop (Recording::transient)
  std::atomic<bool> blacklisted{false};
  bool no_hoist = false;  // a hoisted bounds check kept failing: record without hoisting (under the lock)
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

  static TraceEnv env_of(LaunchContext& ctx) {
    return TraceEnv{ctx.args.data(), ctx.tree_bases.data(), ctx.tree_bases.size(), ctx.temps.data(),
                    ctx.program ? &ctx.program->interrupt_requested : &kNoInterrupt, ctx.program};
  }

  LoopSlot* slot_at(uint32_t pc) const { return pc < slots_.size() ? slots_[pc].get() : nullptr; }

  // The task loop's first iteration of a launch: straight into its trace.
  uint32_t enter(const bc::Function&, uint32_t pc, uint64_t* R, LaunchContext& ctx) override {
    LoopSlot* s = slot_at(pc);
    TraceFn f = s ? s->fn.load(std::memory_order_acquire) : nullptr;
    if (!f) return pc;
    TraceEnv env = env_of(ctx);
    return run(f, R, env);
  }

  uint32_t hot(const bc::Function& fn, uint32_t pc, uint64_t* R, LaunchContext& ctx) override {
    LoopSlot* s = slot_at(pc);
    if (!s) return pc;
    TraceEnv env = env_of(ctx);
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
    if (TraceFn f = s->fn.load(std::memory_order_acquire)) {
      lock.unlock();
      return run(f, R, env);
    }
    auto t0 = std::chrono::steady_clock::now();
    RecordArgs ra = args();
    ra.hoist = !s->no_hoist;
    Recording rec = record(fn, pc, R, env, p_, ra);
    if (!rec.ok) {
      // A transient abort (the iteration left the loop, an inner loop is
      // not compiled yet) is tried again after a back-off, many more times
      // than a real failure.
      int tries = rec.transient ? ++s->transient_attempts : ++s->attempts;
      if (tries >= (rec.transient ? kTransientTries * p_.tryagain : p_.tryagain)) s->blacklisted = true;
      int64_t wait = p_.backoff << (tries < 20 ? tries : 20);
      // Back off, in the loop's counter, unless the recording left the loop
      // (the register may hold another variable there), and in the count of
      // back edges across the loop's instances.
      if (live_->live(rec.resume_pc, s->counter)) R[s->counter] = (uint64_t)(p_.hotloop - wait);
      s->hits = p_.hotloop - wait;
      // An inner loop that runs too long to record inline but never long
      // enough in one instance to get hot: count its back edges across
      // instances (as once the function has a trace), so it gets a trace
      // that the outer loop's next recording calls.
      if (rec.inner_cold) hotloop.store(1, std::memory_order_relaxed);
      note("abort " + fn.name + " @" + std::to_string(pc) + " at pc " + std::to_string(rec.resume_pc) + ": " +
           rec.why + (s->blacklisted ? " (blacklisted)" : "") + "\n");
      return rec.resume_pc;
    }
    Compiled c = install(rec, pc, "trace", t0);
    TraceFn f = c.fn;
    if (!f) {
      s->blacklisted = true;
      return rec.resume_pc;
    }
    s->warm.store(c.warm, std::memory_order_release);
    s->fn.store(f, std::memory_order_release);
    hotloop.store(1, std::memory_order_relaxed);
    lock.unlock();
    if (rec.resume_pc != pc) return rec.resume_pc;  // the recorded iteration was the loop's last
    return run(f, R, env);
  }

 private:
  RecordArgs args() {
    RecordArgs a;
    if (!live_) live_ = std::make_unique<Liveness>(fn_);
    a.live = live_.get();
    a.inner = [this](uint32_t head) -> TraceFn {
      LoopSlot* inner = slot_at(head);
      return inner ? inner->fn.load(std::memory_order_acquire) : nullptr;
    };
    a.inner_warm = [this](uint32_t head) -> const void* {
      LoopSlot* inner = slot_at(head);
      return inner ? inner->warm.load(std::memory_order_acquire) : nullptr;
    };
    return a;
  }

  // Compiles a recorded trace with its exits (kept as long as the code) and
  // notes it. Null when it cannot be compiled (the note says why).
  Compiled install(Recording& rec, uint32_t root_head, const char* what,
                   std::chrono::steady_clock::time_point t0) {
    auto t1 = std::chrono::steady_clock::now();
    rec.trace.allow_lanes = p_.vector && host_has_avx2();
    rec.trace.allow_zmm = p_.zmm && host_has_avx512();  // (16 lanes only where allow_lanes)
    rec.trace.hi_ymm = rec.trace.allow_zmm ? (int8_t)p_.hiymm : 0;
    rec.trace.late_fold = p_.latefold != 0;
    rec.trace.lane_exit = p_.laneexit != 0;
    rec.trace.rotate = p_.rotate != 0;
    ExitInfo* exits = new_exits(rec.trace.snaps.size(), root_head);
    // An exit past the loop's extent, or at a jump out of it (its test
    // failing: the loop is done), starts no side trace of this loop. Where
    // a loop encloses this one and the exit stays in it, its side trace
    // goes on there until it enters this loop again (ExitInfo::outer_head);
    // else the exit is the interpreter's.
    // (The extents are found once: each is a scan of the function.)
    uint32_t outer = enclosing_loop(fn_, root_head);
    Extent own = extent(root_head), around = outer != UINT32_MAX ? extent(outer) : Extent{};
    for (size_t i = 0; i < rec.trace.snaps.size(); i++) {
      const Snapshot& sn = rec.trace.snaps[i];
      exits[i].hoisted = sn.hoisted;
      if (sn.pc_ref >= 0 || !leaves(own, sn.pc)) continue;
      if (outer != UINT32_MAX && !sn.hoisted && !leaves(around, sn.pc)) exits[i].outer_head = outer;
      else exits[i].blacklisted = true;
    }
    Compiled c;
    std::string why;
    try {
      why = compile_trace(rec.trace, runtime(), c, keep.load() || p_.verbose > 2, exits);
    } catch (const std::exception& e) {
      // An exception out of the compiler (a lookup the plan did not provide
      // for) is the JIT's own bug, as an assembler error is: never the
      // program's error (it reached users as "IndexError: map::at").
      c = Compiled{};
      c.assembler_error = true;
      why = std::string("internal: ") + e.what();
    }
    auto t2 = std::chrono::steady_clock::now();
    if (!why.empty()) {
      // An assembler error is the JIT's own bug (asm_check.cpp's refusals):
      // the loop runs on the interpreter, unless the tests asked to hear of it.
      if (p_.strict && c.assembler_error) {
        std::fprintf(stderr, "kiln: internal JIT error in %s @%u: %s\n", fn_.name.c_str(), root_head, why.c_str());
        std::_Exit(3);
      }
      note(std::string("abort ") + fn_.name + " @" + std::to_string(root_head) + ": " + why + " (blacklisted)\n");
      return Compiled{};
    }
    double rec_us = std::chrono::duration<double, std::micro>(t1 - t0).count();
    double asm_us = std::chrono::duration<double, std::micro>(t2 - t1).count();
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s %s @%u: %zu IR, %zu snapshots, %zu bytes; record %.1f us, assemble %.1f us%s%s\n",
                  what, fn_.name.c_str(), root_head, rec.trace.ins.size(), rec.trace.snaps.size(), c.code_size,
                  rec_us, asm_us, c.lanes.empty() ? "" : "; ", c.lanes.c_str());
    note(buf);
    if (p_.perfmap)
      perf_map_note(reinterpret_cast<const void*>(c.fn), c.code_size,
                    std::string("kiln ") + what + " " + fn_.name + " @" + std::to_string(root_head));
    if (p_.recompile > 0 && std::strcmp(what, "trace") == 0)  // (a measurement: jit/recompile.h)
      std::fprintf(stderr, "jit: recompile %s @%u: %zu IR, %s\n", fn_.name.c_str(), root_head, rec.trace.ins.size(),
                   recompile_report(rec.trace, runtime(), exits, (int)p_.recompile).c_str());
    if (keep.load()) report(dump_trace(rec.trace) + "---- machine code\n" + c.listing);
    if (p_.verbose > 1) std::fprintf(stderr, "%s%s", dump_trace(rec.trace).c_str(), c.listing.c_str());
    c.listing.clear();
    return c;
  }

  // A trace run, and the side traces it grows: when it left through an exit
  // that has now been taken `hotexit` times, record from there to the loop
  // head (executing, as recording does), link the result to that exit, and
  // go on in the root trace. An error a runtime call raised surfaces here.
  uint32_t run(TraceFn f, uint64_t* R, TraceEnv& env) {
    for (;;) {
      env.exit = nullptr;
      uint32_t pc = f(R, &env);
      rethrow_pending();
      ExitInfo* x = env.exit;
      if (!x || x->link.load(std::memory_order_relaxed) || x->blacklisted.load(std::memory_order_relaxed) ||
          x->count.fetch_add(1, std::memory_order_relaxed) + 1 < (uint32_t)p_.hotexit)
        return pc;
      std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
      if (!lock.owns_lock() || x->link.load()) return pc;
      LoopSlot* root = slot_at(x->root_head);
      TraceFn root_fn = root ? root->fn.load(std::memory_order_acquire) : nullptr;
      if (!root_fn) return pc;
      if (x->hoisted) {
        // The loop's range is wider than a bound although its iterations
        // stay within it (a break or a branch keeps them in): checking the
        // bound once per entry fails every time. Record the loop again
        // with its bounds checks in the loop; the old code stays (it may
        // be running) but is no longer entered.
        x->blacklisted = true;
        root->no_hoist = true;
        root->fn.store(nullptr, std::memory_order_release);
        root->warm.store(nullptr, std::memory_order_release);
        root->hits = 0;
        note("retrace " + fn_.name + " @" + std::to_string(x->root_head) +
             ": a hoisted bounds check keeps failing; bounds checks stay in the loop\n");
        return pc;
      }
      RecordArgs a = args();
      a.start = pc;
      a.outer = x->outer_head;
      a.link_to = root->warm.load(std::memory_order_acquire);
      auto t0 = std::chrono::steady_clock::now();
      Recording rec = record(fn_, x->root_head, R, env, p_, a);
      const char* what = x->outer_head != UINT32_MAX ? "stitched side trace" : "side trace";
      const void* side = rec.ok ? install(rec, x->root_head, what, t0).warm : nullptr;
      if (!side) {
        if (!rec.ok)
          note("abort side trace " + fn_.name + " @" + std::to_string(x->root_head) + " from pc " +
               std::to_string(pc) + ": " + rec.why + "\n");
        if (++x->attempts >= p_.tryagain || rec.ok) x->blacklisted = true;
        x->count = 0;
        return rec.resume_pc;
      }
      x->link_pc.store(pc, std::memory_order_relaxed);  // (read after link, which is stored after it)
      x->link.store(side, std::memory_order_release);
      x->jump.store(side, std::memory_order_release);  // the exit stub's jump (its last read)
      // The recording ended at the loop head, or past the loop (the side
      // trace ends at one of its exits, or ran its last iteration).
      if (rec.resume_pc != x->root_head) return rec.resume_pc;
      f = root_fn;
    }
  }

  // The pcs of the loop whose body starts at `body`.
  struct Extent {
    uint32_t lo = 0, hi = 0;
  };
  Extent extent(uint32_t body) const { return {loop_first(fn_, body), loop_last(fn_, body)}; }
  // Does resuming at pc leave loop `e`: a pc past its extent, or a jump out
  // of it (its test failing: the loop is done)?
  bool leaves(Extent e, uint32_t pc) const {
    auto outside = [&](uint32_t q) { return q < e.lo || q > e.hi; };
    return outside(pc) || (pc < fn_.code.size() && fn_.code[pc].op == bc::Op::jmp && outside((uint32_t)fn_.code[pc].d()));
  }

  static ExitInfo* new_exits(size_t n, uint32_t root_head) {
    static std::mutex mu;
    static std::deque<std::unique_ptr<ExitInfo[]>> all;  // as long as the code: never freed
    auto block = std::make_unique<ExitInfo[]>(n ? n : 1);
    for (size_t i = 0; i < n; i++) block[i].root_head = root_head;
    std::lock_guard<std::mutex> lock(mu);
    all.push_back(std::move(block));
    return all.back().get();
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

  std::vector<int> jams;  // jam_factors (jit.h)
  JitKernel(bc::Kernel k, const Params& p, std::vector<int> jam = {})
      : InterpKernel(std::move(k)), params(p), jams(std::move(jam)) {
    for (auto& t : code.tasks) {
      jits.push_back(std::make_unique<FunctionJit>(t.fn, params));
      hooks.push_back(params.enable ? jits.back().get() : nullptr);
    }
  }
  void launch(LaunchContext& ctx) override { interp::launch(code, ctx, hooks.data()); }
};

struct JitEngine : Engine {
  Params params = params_from_env();
  // The process-wide setup the first trace would otherwise pay inside its
  // compile: asmjit's CPU detection (cpuid, each one a VM exit under a
  // hypervisor: 50-100 us here) and the code allocator's first block (an
  // mmap; the allocator keeps its last block when it empties).
  // KILN_JAM=0: no jam on any engine (the tests' unjammed runs).
  static bool jams_forced_off() {
    static const bool off = [] {
      const char* e = std::getenv("KILN_JAM");
      return e && *e == '0';
    }();
    return off;
  }
  JitEngine() {
    host_has_avx2();
    host_has_fma3();
    void *rx = nullptr, *rw = nullptr;
    if (runtime().allocator()->alloc(&rx, &rw, 64) == asmjit::kErrorOk) runtime().allocator()->release(rx);
  }
  const char* name() const override { return "jit"; }
  bool supports(Prim) const override { return true; }
  // Two copies of a reduction nest's inner loop fit a 16-lane loop's zmm0-23
  // (jit/vector_regs.cpp); in ymm lanes (16 registers) nbody's did not. Nests
  // of in-order sums (kJamOrdered: Taichi's n-body example's `force[i] += f`)
  // run in 8 lanes whose ordered steps fold lane by lane, a chain of dependent
  // adds per sum and pass (asm_lane_fold.cpp ordered_run): two i give each
  // pass two independent chains a sum, and their lanes fit ymm0-31.
  int jams_outer_loops() const override {
    return params.enable && params.vector && params.zmm && host_has_avx512() ? ir::kJamDividers | ir::kJamOrdered : 0;
  }
  std::unique_ptr<CompiledKernel> compile(const ir::Kernel& k, Program& prog) override {
    auto word_rows = [&prog](int snode, int nidx, bc::WordRowLayout& out) {
      const SNode* t = snode >= 0 ? prog.snode(snode) : nullptr;
      return t && word_row_layout(*t, nidx, out.cell_size, out.col);
    };
    // The JIT's own jam (jit/while_lanes.h): a parallel loop's pure while
    // loop, one copy a vector lane, on a copy of the kernel (the pipeline's
    // IR is the LLVM tier's too, whose lockstep copies are four).
    if (params.enable && params.vector && host_has_avx2() && !jams_forced_off() && ir::jam_while_lanes_wanted(k)) {
      std::unique_ptr<ir::Kernel> own = ir::clone_kernel(k);
      std::vector<int> factors;
      if (ir::jam_outer(*own, ir::kJamWhileLanes, true, &factors)) {
        ir::verify(*own);
        return std::make_unique<JitKernel>(bc::lower_kernel_flat_rows(*own, word_rows), params, std::move(factors));
      }
    }
    return std::make_unique<JitKernel>(bc::lower_kernel_flat_rows(k, word_rows), params);
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

const std::vector<int>& jit::jam_factors(const CompiledKernel& k) {
  static const std::vector<int> none;
  auto* j = dynamic_cast<const jit::JitKernel*>(&k);
  return j ? j->jams : none;
}
}  // namespace kiln
