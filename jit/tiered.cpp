// Tiering: the default engine. A kernel starts on the tracing JIT (compiled
// in microseconds); once its launches have run for KILN_TIER_MS milliseconds
// in all (default 300), it is lowered to LLVM IR on the launching thread and
// compiled with LLVM ORC at O3 on a background thread (jit/llvm, in the LLVM
// module that the first tier-up loads: jit/llvm_module.h), and the next
// launch after that compile finishes runs the LLVM code, on trial: a kernel
// whose first LLVM launches are slower than its last JIT launches goes back
// to the JIT. Both engines print exactly what the interpreter prints, so
// the swaps change nothing but speed. KILN_TIER_MS=off keeps every kernel on
// the JIT; KILN_TIER_SYNC=1 compiles on the launching thread (tests: the
// second launch of a kernel and every later one run LLVM's code, with no
// trial); KILN_TIER_TRIAL=back puts every tier-up on a trial that sends the
// kernel back (tests). Granularity is the kernel: its
// tasks are compiled together, as the llvm engine compiles them.
//
// A long launch tiers up while it runs (vm/interp/mid_launch.h): a launch
// of a kernel whose launches are long runs its range_for tasks in slices;
// between them the kernel's threshold is checked (its launches' JIT time,
// this one's so far included), and so is a launch's own: a task that has
// run a tenth of the threshold (30 ms) and has at least as long left at its
// rate starts the tier-up then (a compile takes 10-35 ms on another core).
// Once LLVM's code is ready, each range_for and serial task of the launch
// duels (mid_launch.h): a few short slices on each code, timed, then the
// faster code runs the rest (LLVM's is not always the faster: the JIT's
// vector lanes beat it on an f32 escape loop). A kernel whose duels all
// chose LLVM tiers up whole at the launch's end; one where a duel chose the
// JIT goes on a task at a time. (A kernel launched once or twice for long
// never reached the next launch, where it used to switch.) Kernels of
// more than KILN_TIER_MAX_STMTS IR statements (default 40000) stay on the
// JIT (LLVM's code generation is superlinear in a kernel's size).
//
// A program can end while a compile is running: the hosts wait for it
// (tier_compiles.cpp).
#include <algorithm>
#include <cstdarg>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "jit/jit.h"
#include "jit/llvm_module.h"
#include "jit/tier_compiles.h"
#include "vm/interp/mid_launch.h"
#include "vm/ir/clone.h"
#include "vm/ir/ir.h"
#include "vm/ir/passes/passes.h"
#include "vm/runtime/chunks.h"
#include "vm/runtime/program.h"
#include "vm/support/diag.h"

namespace kiln::tiering {

namespace {

struct TierParams {
  double threshold_ms = 300;  // < 0: never
  bool sync = false;
  // Kernels of more IR statements stay on the JIT: LLVM's code generation is
  // superlinear in a block's length (its machine scheduler scans a block per
  // instruction): a kernel unrolled by ti.static to 10^4 statements takes it
  // seconds, to 10^5 over an hour, on a thread the program waits for at exit.
  size_t max_stmts = 40000;
  // KILN_TIER_TRIAL=back (tests): every trial ends with the kernel back on
  // the JIT, whatever the times.
  bool trial_back = false;
  // KILN_TIER_IN_LAUNCH=0: kernels tier up between launches only (as before
  // session 31; for measurements).
  bool in_launch = true;
  // Whether a task whose LLVM code becomes ready part-way through a launch
  // duels (mid_launch.h: slices on either code, timed, then the faster) or
  // runs LLVM's at once: duels unless KILN_TIER_SYNC=1 (the tests' mode,
  // LLVM's code at once) without KILN_TIER_TRIAL=back (duels that end on
  // the JIT); KILN_TIER_DUEL=0/1 says so outright (measurements).
  bool duel = true;
  // KILN_TIER_LOG=1: each kernel's tier-up, its duels' choices and trials on
  // stderr, with the figures they were made on (whether they repeat from
  // run to run, on a loaded machine).
  bool log = false;
};

TierParams tier_params() {
  TierParams p;
  if (const char* e = std::getenv("KILN_TIER_MS"); e && *e)
    p.threshold_ms = std::strcmp(e, "off") == 0 ? -1 : std::atof(e);
  const char* s = std::getenv("KILN_TIER_SYNC");
  p.sync = s && *s && *s != '0';
  if (const char* m = std::getenv("KILN_TIER_MAX_STMTS"); m && *m) p.max_stmts = (size_t)std::strtoull(m, nullptr, 10);
  const char* t = std::getenv("KILN_TIER_TRIAL");
  p.trial_back = t && std::strcmp(t, "back") == 0;
  const char* l = std::getenv("KILN_TIER_IN_LAUNCH");
  p.in_launch = !(l && *l == '0');
  p.duel = !p.sync || p.trial_back;
  if (const char* d = std::getenv("KILN_TIER_DUEL"); d && *d) p.duel = *d != '0';
  const char* g = std::getenv("KILN_TIER_LOG");
  p.log = g && *g && *g != '0';
  return p;
}

// Says once that LLVM cannot run here (every kernel then stays on the JIT).
void say_no_llvm() {
  std::string why;
  if (!try_llvm_module(&why)) {
    static std::once_flag said;
    std::call_once(said, [&] { std::fprintf(stderr, "kiln: kernels stay on the JIT: %s\n", why.c_str()); });
  }
}

// A kernel's way up, one launch at a time (launches come from one thread at
// a time: the program's). Past the threshold: if LLVM has not started in
// this process, a background thread loads the module and starts it
// (`loading`); the first launch after that lowers the kernel on the
// launching thread, where the program's SNode layout can be read safely
// (new fields may be laid out between launches, never during one), and a
// background thread optimizes and compiles the module (`compiling`); the
// first launch after that runs LLVM's code, on trial: if its first launches
// take longer than the JIT's last ones, the kernel goes back to the JIT
// (--stats: tier_downs). A kernel that cannot be compiled stays on the JIT.
enum class Phase { jit, loading, ready, compiling, done };

struct TieredKernel : CompiledKernel, interp::MidLaunch {
  std::unique_ptr<CompiledKernel> jit;
  std::unique_ptr<ir::Kernel> ir;  // a copy, for the compile
  TierParams params;
  double spent_ms = 0;
  Phase phase = Phase::jit;  // the launching thread's
  std::thread worker;
  std::mutex mu;      // guards finished and compiled
  bool finished = false;  // the worker's step is over
  std::unique_ptr<CompiledKernel> compiled;  // LLVM's, once done (null if it failed)
  std::atomic<CompiledKernel*> active{nullptr};
  // The trial: LLVM's code is not always the faster (a struct-for over a
  // sparse tree ran over a table of its active cells that the runtime wrote
  // at each launch, 2.5-4x the JIT's time on bench/sparse_* until session 23;
  // the JIT's vector lanes run an f32 escape loop in 36 ms, LLVM's four
  // scalar copies in 46). The JIT's last launch times, and LLVM's first as
  // many (at most kTrial): the kernel goes back to the JIT for good when
  // LLVM's median is over kSlower times the JIT's: the faster code, within
  // the medians' noise (1.15 until session 32 kept LLVM's code up to 15%
  // slower).
  static constexpr int kTrial = 5;
  static constexpr double kSlower = 1.02;
  double jit_ms[kTrial] = {};
  int jit_n = 0;  // launches timed on the JIT (the ring holds the last kTrial)
  double llvm_ms[kTrial] = {};
  int llvm_n = 0;
  bool on_trial = false;
  // Short JIT launches are timed one in a stride that doubles up to
  // kMaxStride while they stay under kShortMs, each timed launch counting
  // for the untimed ones before it: two clock reads a launch were ~10% of a
  // small kernel's launch. (A launch past kShortMs puts the stride back to 1.)
  static constexpr double kShortMs = 0.05;
  static constexpr int kMaxStride = 16;
  int stride = 1;   // the launches the next timed one stands for
  int untimed = 0;  // launches left before the next timed one
  // Tier-up during a launch (mid_launch.h): lent to launches while the last
  // timed one took kLendMs or more (or none was timed yet: the first); the
  // in-launch rule's share of the threshold, and the part of that share a
  // task runs before its rate is taken as its own; the lent launch's start,
  // its program, and whether LLVM's code took over part of it.
  static constexpr double kLendMs = 1, kLaunchShare = 0.1, kRateShare = 0.125;
  double last_ms = 0;
  int64_t launch_ns = 0;
  Program* launch_prog = nullptr;
  bool lent = false, mixed = false;
  std::mutex boundary_mu;  // the kernel's state during a lent launch
  bool ups_pending = false;  // a tier-up for --stats (Program::stats is the launching thread's)
  std::vector<int> jam_factors;  // per task: ir::jam_outer's, in the copy LLVM compiles
  // A launch that LLVM's code became ready in ran its tasks' duels
  // (mid_launch.h). When one of them found the JIT's code the faster (or a
  // task has yet to duel), the kernel goes on a task at a time: every launch
  // is lent, each range_for and serial task runs the code its duel chose
  // (one that has not decided duels on), struct-fors the JIT's. Otherwise
  // the whole kernel tiers up (the trial above, against that launch when the
  // JIT has no figure).
  bool per_task = false, downs_counted = false;
  std::vector<char> duel_counted;  // per task: its duel's end is in --stats
  std::string name;                // for KILN_TIER_LOG
  int launches = 0;                // every launch so far (KILN_TIER_LOG)
  std::vector<char> said;          // per task: the choice KILN_TIER_LOG last said

  void say(const char* fmt, ...) const __attribute__((format(printf, 2, 3))) {
    if (!params.log) return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "kiln tier: %s: %s\n", name.c_str(), line);
  }

  ~TieredKernel() override {
    if (worker.joinable()) worker.join();
  }

  // Runs `step` on a background thread that the exit handler waits for.
  template <class F>
  void in_background(F step) {
    compile_started();
    finished = false;
    worker = std::thread([this, step] {
      step();
      {
        std::lock_guard<std::mutex> l(mu);
        finished = true;
      }
      compile_ended();
    });
  }

  static void start_now() {
    try {
      start_llvm_tier();
    } catch (const Error&) {
      say_no_llvm();
    }
  }

  // Lowers on this thread, then compiles here (sync) or in the background.
  void lower_and_compile(Program* prog) {
    LoweredLlvmKernel lowered;
    try {
      // The LLVM tier's own jam: pure float while loops of four iterations
      // in lockstep (vm/ir/passes/jam_while.cpp: ORC ran bench/mandelbrot
      // 0.42x of the C++ so). The JIT does not ask for it (its lockstep
      // loops measured no faster: docs/perf/lanes.md), so the pipeline left
      // this copy unjammed. No value changes.
      // (A jammed task's range is of passes: a launch that switches to it
      // part-way maps its iterations, mid_launch.h.)
      if (ir::jam_outer(*ir, ir::kJamWhile, true, &jam_factors)) ir::verify(*ir);
      lowered = lower_llvm_kernel(*ir, prog);
    } catch (const Error&) {
      say_no_llvm();
      phase = Phase::done;  // stays on the JIT
      return;
    }
    auto finish = [this, l = std::make_shared<LoweredLlvmKernel>(std::move(lowered))] {
      std::unique_ptr<CompiledKernel> c;
      try {
        c = finish_llvm_kernel(std::move(*l), *ir);
      } catch (const Error&) {
        say_no_llvm();
      }
      std::lock_guard<std::mutex> lock(mu);
      compiled = std::move(c);
    };
    phase = Phase::compiling;
    if (params.sync) {
      finish();
      finished = true;
    } else {
      in_background(finish);
    }
  }

  // The background step's end, seen from the launching thread.
  bool step_finished() {
    std::lock_guard<std::mutex> lock(mu);
    if (!finished) return false;
    if (worker.joinable()) worker.join();
    return true;
  }

  void advance(Program* prog) {
    if (phase == Phase::loading && step_finished()) phase = llvm_tier_started() ? Phase::ready : Phase::done;
    if (phase == Phase::ready) lower_and_compile(prog);

    if (phase == Phase::compiling && step_finished()) {
      phase = Phase::done;
      ir.reset();
      std::lock_guard<std::mutex> lock(mu);
      if (compiled) {
        publish_natives();
        ups_pending = true;  // (--stats: counted by the launching thread)
        if (lent) say("LLVM's code ready %.1f ms into launch %d", (double)(interp::steady_ns() - launch_ns) * 1e-6, launches);
        else say("LLVM's code ready before launch %d", launches + 1);
        // During a lent launch its tasks duel (or, not dueling, go on with
        // LLVM's code), and its end decides (settle_mixed); between launches
        // the kernel tiers up whole. (KILN_TIER_SYNC=1, the tests' mode,
        // keeps LLVM's code: every later launch runs it, unless
        // KILN_TIER_TRIAL=back.)
        mixed = lent;
        if (!lent) {
          active.store(compiled.get(), std::memory_order_release);
          on_trial = (!params.sync || params.trial_back) && jit_n > 0;
        }
      }
    }
  }

  // LLVM's code of each task that may switch, for a launch under way:
  // finish_llvm_kernel's kernel is an interp::InterpKernel whose bytecode
  // is lowered from the same kernel, task for task (MidLaunchTask::offer:
  // a task the JIT jammed for its lanes may stay on the JIT's code).
  void publish_natives() {
    auto* k = static_cast<interp::InterpKernel*>(compiled.get());
    if (k->code.tasks.size() != num_tasks) return;
    for (size_t i = 0; i < num_tasks; i++) {
      interp::NativeTask* nt = tasks[i].may_switch ? k->native_task(i) : nullptr;
      if (nt) tasks[i].offer(nt, i < jam_factors.size() ? jam_factors[i] : 1, params.duel, params.trial_back);
    }
  }

  // The duels that ended since the last look, into --stats (tier_duels_jit,
  // tier_duels_llvm: the code each chose).
  interp::DuelTally count_duels(Program* prog) {
    interp::DuelTally t = interp::tally_duels(*this, duel_counted);
    said.resize(num_tasks);
    for (size_t i = 0; i < num_tasks && params.log; i++) {
      const interp::MidLaunchTask& m = tasks[i];
      const int c = m.choice.load(std::memory_order_acquire);
      if (!m.native.load(std::memory_order_acquire) || c == interp::kUndecided || c == said[i]) continue;
      said[i] = (char)c;
      auto per = [&](int k) { return (double)m.duel_ns[k].load() / (double)std::max<int64_t>(m.duel_units[k].load(), 1); };
      say("task %zu on %s after launch %d: JIT %.1f, LLVM %.1f ns a unit (CPU) over %lld slices%s", i,
          c == interp::kOwn ? "the JIT" : "LLVM", launches, per(0), per(1), (long long)m.duel_runs.load(),
          m.settled.load() ? ", settled" : "");
    }
    if (prog && t.ended_own) prog->stat_add("tier_duels_jit", t.ended_own);
    if (prog && t.ended_other) prog->stat_add("tier_duels_llvm", t.ended_other);
    return t;
  }

  // The end of a launch that LLVM's code became ready in, `ms` long: a task
  // at a time from now on when a duel chose the JIT's code (--stats counts
  // it as a tier-down) or a sliced task has not duelled (it ended before
  // LLVM's code was ready: its duel is in the next launch, not the whole
  // kernel's trial, which times launches in wall time, and at load 11 kept
  // a kernel 1.75x slower on LLVM), else the whole kernel on LLVM's, on trial.
  void settle_mixed(Program* prog, double ms) {
    interp::DuelTally t = count_duels(prog);
    if (t.own || t.open) {
      per_task = true;
      count_down(prog, t.own);
      return;
    }
    // No figure for either engine, but the trial's reference when the JIT
    // has none (the kernel's first launch tiered up): LLVM's next launches,
    // whole, are on trial against it, and go back to the JIT only when
    // slower than a launch that was partly LLVM's.
    if (jit_n == 0) jit_ms[jit_n++] = ms;
    on_trial = !params.sync || params.trial_back;
    active.store(compiled.get(), std::memory_order_release);
  }

  // A kernel a task of which chose the JIT's code counts once in --stats'
  // tier_downs.
  void count_down(Program* prog, bool own) {
    if (!own || downs_counted) return;
    downs_counted = true;
    if (prog) prog->stat_add("tier_downs", 1);
  }

  // The JIT's launch with this kernel lent to it (LaunchContext::mid: the
  // launcher's slices report to it), taken back however the launch ends.
  void launch_lent(LaunchContext& ctx) {
    struct Lend {
      LaunchContext& c;
      ~Lend() { c.mid = nullptr; }
    } lend{ctx};
    ctx.mid = this;
    jit->launch(ctx);
  }

  // A launch of a kernel that goes on a task at a time.
  void launch_per_task(LaunchContext& ctx) {
    launch_lent(ctx);
    count_down(ctx.program, count_duels(ctx.program).own);
  }

  // Past the threshold: loads LLVM (in the background unless sync), lowers
  // the kernel and compiles it.
  void start_tier(Program* prog) {
    if (params.sync) {
      start_now();
      phase = llvm_tier_started() ? Phase::ready : Phase::done;
      advance(prog);  // lowered and compiled: the next launch runs LLVM's code
    } else if (llvm_tier_started()) {
      phase = Phase::ready;
      advance(prog);
    } else {
      phase = Phase::loading;
      in_background(&TieredKernel::start_now);
    }
  }

  // Whether the tier-up starts part-way through a launch that has run
  // `launch_ms` on the JIT, its current task `m` `done` of its `total`
  // iterations: once the kernel's JIT time passes the threshold, or once the
  // iterations left of the task would take kLaunchShare of it (30 ms) of CPU
  // time at the task's rate (MidLaunchTask::left_cpu_ns: the launch's so far
  // or its latest window's of kRateShare of the share, the greater), taken
  // after kRateShare of that (~4 ms) past the launch's first slice (whose
  // rate is the JIT's trace compile's) (a compile of 10-35 ms of CPU that pays
  // for itself in this launch; a task about to end does not start one that
  // the program would wait for at exit). Until session 32 the task had to
  // run the whole share first, in wall time: a two-launch program's compile
  // then ended in its second launch, not its first, and on a loaded machine
  // a short task (bench/nbody_example's 12 ms launches, 40 ms of wall at
  // load 12) started a compile it never used.
  bool tier_now(double launch_ms, interp::MidLaunchTask& m, int64_t done, int64_t total, double& left_ns) const {
    const double share_ns = params.threshold_ms * kLaunchShare * 1e6, window_ns = share_ns * kRateShare;
    const int64_t cpu = m.cpu_ns.load(std::memory_order_relaxed);
    left_ns = m.left_cpu_ns(done, total, cpu, (int64_t)window_ns);
    if (spent_ms + launch_ms >= params.threshold_ms) return true;
    return left_ns >= share_ns;
  }

  // A slice's end in a lent launch, on any of its threads: one at a time
  // moves the kernel on (the others go on with their slices). Lowering
  // here, off the program's thread, is safe: the SNode layout changes only
  // between launches, and this launch is not over.
  void boundary(size_t task, int64_t done, int64_t total, int64_t now_ns) override {
    std::unique_lock<std::mutex> lock(boundary_mu, std::try_to_lock);
    if (!lock.owns_lock()) return;
    if (phase == Phase::jit) {
      interp::MidLaunchTask& m = tasks[task];
      double left = 0;
      if (tier_now((double)(now_ns - launch_ns) * 1e-6, m, done, total, left)) {
        say("tier-up starts %.1f ms into launch %d: task %zu at %.0f%%, %.1f ms of CPU, %.1f ms left at its rate",
            (double)(now_ns - launch_ns) * 1e-6, launches, task, 100.0 * (double)done / (double)total,
            (double)m.cpu_ns.load(std::memory_order_relaxed) * 1e-6, left * 1e-6);
        start_tier(launch_prog);
      }
    } else if (phase != Phase::done) {
      advance(launch_prog);
    }
  }

  static double median(double* v, int n) {
    std::sort(v, v + n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  }

  void trial_launch(CompiledKernel& a, LaunchContext& ctx) {
    auto t0 = std::chrono::steady_clock::now();
    a.launch(ctx);
    llvm_ms[llvm_n++] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    int want = std::min(jit_n, kTrial);
    if (llvm_n < want) return;
    on_trial = false;
    const double l = median(llvm_ms, llvm_n), j = median(jit_ms, want);
    say("trial after launch %d: LLVM %.2f ms, the JIT %.2f (medians of %d, wall): %s", launches, l, j, want,
        params.trial_back || l > kSlower * j ? "back to the JIT" : "LLVM stays");
    if (params.trial_back || l > kSlower * j) {
      active.store(nullptr, std::memory_order_release);  // back to the JIT, for good (phase is done)
      if (ctx.program) ctx.program->stat_add("tier_downs", 1);
    }
  }

  void launch(LaunchContext& ctx) override {
    launches++;
    CompiledKernel* a = active.load(std::memory_order_acquire);
    if (a && !on_trial) return a->launch(ctx);
    if (a) return trial_launch(*a, ctx);
    if (phase != Phase::jit && phase != Phase::done) advance(ctx.program);
    if (ups_pending) count_tier_up(ctx.program);
    if (CompiledKernel* b = active.load(std::memory_order_acquire)) return on_trial ? trial_launch(*b, ctx) : b->launch(ctx);
    if (per_task) return launch_per_task(ctx);
    // Nothing left to decide (no tiering, or the kernel stays on the JIT):
    // no timing at all.
    if (phase == Phase::done || params.threshold_ms < 0) return jit->launch(ctx);
    // (An untimed launch follows a short one: never lent.)
    if (phase == Phase::jit && untimed > 0) {
      untimed--;
      return jit->launch(ctx);
    }
    // Lent while launches are long: a short one pays no slices.
    bool lend = num_tasks && params.in_launch && (jit_n == 0 || last_ms >= kLendMs);
    auto t0 = std::chrono::steady_clock::now();
    if (lend) {
      launch_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t0.time_since_epoch()).count();
      launch_prog = ctx.program;
      for (size_t i = 0; i < num_tasks; i++) tasks[i].reset_rate();
      lent = true;
      mixed = false;
    }
    auto since = [&t0] {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    try {
      if (lend) launch_lent(ctx);
      else jit->launch(ctx);
    } catch (...) {
      lent = false;
      if (mixed) settle_mixed(ctx.program, since());
      throw;
    }
    lent = false;
    double ms = since();
    last_ms = ms;
    if (ups_pending) count_tier_up(ctx.program);
    if (mixed) {
      settle_mixed(ctx.program, ms);  // (part of it ran LLVM's code: no figure for either engine)
      return;
    }
    spent_ms += ms * stride;
    jit_ms[jit_n++ % kTrial] = ms;
    stride = ms < kShortMs ? std::min(2 * stride, kMaxStride) : 1;
    untimed = stride - 1;
    if (phase == Phase::jit && spent_ms >= params.threshold_ms) {  // (threshold_ms >= 0: above)
      say("tier-up starts after launch %d: %.1f ms on the JIT in all", launches, spent_ms);
      start_tier(ctx.program);
      if (ups_pending) count_tier_up(ctx.program);
    }
  }

  void count_tier_up(Program* prog) {
    ups_pending = false;
    if (!prog) return;
    prog->stat_add("tier_ups", 1);
    if (mixed) prog->stat_add("tier_ups_in_launch", 1);
  }

  // Which tasks may go on with LLVM's code part-way through a launch
  // (mid_launch.h plan_switches).
  void plan_switches(const ir::Kernel& k) { interp::plan_switches(*this, k, jit::jam_factors(*this->jit)); }

  std::string disassemble() const override {
    CompiledKernel* a = active.load(std::memory_order_acquire);
    return a ? "; tiered up to LLVM\n" + a->disassemble() : jit->disassemble();
  }
};

struct TieredEngine : Engine {
  std::unique_ptr<Engine> jit = make_jit_engine();
  TierParams params = tier_params();
  const char* name() const override { return "jit"; }
  bool supports(Prim p) const override { return jit->supports(p); }
  int jams_outer_loops() const override { return jit->jams_outer_loops(); }
  std::unique_ptr<CompiledKernel> compile(const ir::Kernel& k, Program& prog) override {
    return compile_owned(ir::clone_kernel(k), prog);
  }
  std::unique_ptr<CompiledKernel> compile_owned(std::unique_ptr<ir::Kernel> k, Program& prog) override {
    auto t = std::make_unique<TieredKernel>();
    t->jit = jit->compile(*k, prog);
    t->params = params;
    t->name = k->name;
    // Under the debugger (its engine is the interpreter anyway) nothing tiers.
    if (params.threshold_ms >= 0 && !prog.debugger && ir::count_stmts(k->root) <= params.max_stmts) {
      t->plan_switches(*k);
      t->ir = std::move(k);
    } else {
      t->params.threshold_ms = -1;
    }
    return t;
  }
};

}  // namespace

}  // namespace kiln::tiering

namespace kiln {
std::unique_ptr<Engine> make_tiered_engine() { return std::make_unique<tiering::TieredEngine>(); }
}  // namespace kiln
