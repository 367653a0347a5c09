// Program creation and the compile/launch path shared by every host.
#include "vm/ti/kernels.h"

#include <chrono>
#include <cstdlib>

#include "jit/jit.h"
#include "vm/autodiff/autodiff.h"
#include "vm/interp/interp.h"
#include "vm/ir/passes/passes.h"
#include "vm/ir/simt.h"
#include "vm/runtime/rng.h"
#ifdef KILN_HAVE_VULKAN
#include "gpu/vulkan/vulkan.h"
#endif
#include "jit/llvm_module.h"

namespace kiln::ti {

std::string arch_from_name(const std::string& name) {
  if (name == "vulkan" || name == "cuda") return name;
  // ti.gpu: CUDA where a device is, else a Vulkan GPU, else the CPU, which
  // select_arch warns about. A CPU implementation of Vulkan (lavapipe) is not
  // a GPU: it runs the same kernels 1-20x slower than the JIT, so ti.gpu
  // passes it by (ti.vulkan and KILN_ARCH=vulkan still use it).
  if (name == "gpu") {
#ifdef KILN_HAVE_CUDA
    if (kiln::cuda_available()) return "cuda";
#endif
    if (vulkan_gpu_missing().empty()) return "vulkan";
  }
  return "cpu";
}

namespace {

// Why arch NAME (a name arch_from_name has mapped) cannot run here; empty when it can.
std::string unavailable(const std::string& arch) {
  if (arch == "vulkan") {
#ifdef KILN_HAVE_VULKAN
    try {
      make_vulkan_engine();
      return "";
    } catch (Error& e) {
      return e.message;
    }
#else
    return "this Kiln was built without the Vulkan backend";
#endif
  }
  if (arch == "cuda") {
#ifdef KILN_HAVE_CUDA
    std::string why;
    return kiln::cuda_available(&why) ? "" : why;
#else
    return "this Kiln was built without the CUDA backend";
#endif
  }
  return "";
}

}  // namespace

std::string select_arch(const std::vector<std::string>& names, bool fallback, std::string* warning) {
  if (names.empty()) return "cpu";
  if (const char* a = std::getenv("KILN_ARCH"); a && *a) return arch_from_name(names[0]);
  std::string first_why;
  for (const std::string& n : names) {
    std::string arch = arch_from_name(n);
    std::string why = n == "gpu" && arch == "cpu" ? "no GPU (no CUDA device; " + vulkan_gpu_missing() + ")" : unavailable(arch);
    if (why.empty()) return arch;
    if (first_why.empty()) first_why = "arch=" + n + ": " + why;
  }
  // Without fallback ti.gpu means Vulkan, lavapipe included; its error says why when none is.
  if (!fallback) return names[0] == "gpu" ? "vulkan" : arch_from_name(names[0]);
  bool cpu_vulkan = false;
  if (names[0] == "gpu") vulkan_gpu_missing(&cpu_vulkan);
  if (warning)
    *warning = first_why + "; running on the CPU instead (ti.init(enable_fallback=False) " +
               (cpu_vulkan ? "or arch=ti.vulkan runs on it)" : "makes this an error)");
  return "cpu";
}

bool vulkan_available() { return unavailable("vulkan").empty(); }

std::string vulkan_gpu_missing(bool* cpu_only) {
#ifdef KILN_HAVE_VULKAN
  return kiln::vulkan_gpu_missing(cpu_only);
#else
  return "this Kiln was built without the Vulkan backend";
#endif
}

bool cuda_available() { return unavailable("cuda").empty(); }

void wait_for_background_compiles() {
#ifdef KILN_HAVE_LLVM
  wait_for_tier_compiles();
#endif
}

std::unique_ptr<Program> make_program(Config cfg, const ProgramOptions& o) {
  if (o.force_debug) cfg.debug = true;
  if (o.force_print_ir) cfg.print_ir = true;
  cfg.alloc_hooks = o.alloc_hooks;
  if (o.threads > 0 && cfg.num_threads == 0) cfg.num_threads = o.threads;
  if (o.debugger) cfg.engine = "interp";  // the debugger's engine
  else if (!o.engine.empty()) cfg.engine = o.engine;
  else if (const char* e = std::getenv("KILN_ENGINE"); e && *e) cfg.engine = e;
  // KILN_ARCH (empty means unset) overrides ti.init(arch=...), so that any
  // program runs on a backend unchanged. A requested backend never falls back.
  if (const char* a = std::getenv("KILN_ARCH"); a && *a) cfg.arch = a;
  if (cfg.arch == "x64" || cfg.arch == "arm64") cfg.arch = "cpu";
  std::unique_ptr<Engine> engine;
  if (cfg.arch == "vulkan" && !o.debugger) {
#ifdef KILN_HAVE_VULKAN
    if (cfg.alloc_hooks.set())
      raise("ValueError", "arch=vulkan keeps fields in device memory: it cannot take the embedding application's allocator");
    engine = make_vulkan_engine();
    cfg.alloc_hooks = vulkan_alloc_hooks();
#else
    raise("RuntimeError", "arch=vulkan: this Kiln was built without the Vulkan backend (cmake -DKILN_VULKAN=ON with libvulkan-dev and spirv-tools)");
#endif
  } else if (cfg.arch == "cuda" && !o.debugger) {
#ifdef KILN_HAVE_CUDA
    // `kiln dis --ptx` with KILN_ARCH=cuda on a machine without a GPU: the
    // kernels compile as for CUDA (ti.simt accepted) and print their PTX,
    // then run on the CPU engines with their ti.simt tasks emptied.
    if (ptx_dump_enabled() && !cuda_available()) {
    } else {

    if (cfg.alloc_hooks.set())
      raise("ValueError", "arch=cuda keeps fields in managed memory: it cannot take the embedding application's allocator");
    engine = make_cuda_engine();  // a RuntimeError naming what is missing when there is no device
    cfg.alloc_hooks = cuda_alloc_hooks();
    }
#else
    raise("RuntimeError", "arch=cuda: this Kiln was built without the CUDA backend (cmake -DKILN_LLVM=ON with llvm-19-dev)");
#endif
  } else if (cfg.arch != "cpu" && cfg.arch != "vulkan" && cfg.arch != "cuda") {
    raise("RuntimeError", "arch=" + cfg.arch + ": Kiln has no " + cfg.arch + " backend (backends: cpu, vulkan, cuda)");
  }
  // The CPU engines by name, the JIT by default (it prints exactly what the
  // interpreter prints: tests/lang and kiln-fuzz check that).
  if (engine) {
  } else if (cfg.engine == "interp") engine = make_interp_engine();
#ifdef KILN_HAVE_LLVM
  else if (cfg.engine.empty() || cfg.engine == "jit") engine = make_tiered_engine();
#else
  else if (cfg.engine.empty() || cfg.engine == "jit") engine = make_jit_engine();
#endif
#ifdef KILN_HAVE_LLVM
  else if (cfg.engine == "llvm") engine = make_llvm_engine();
  else raise("ValueError", "unknown engine '" + cfg.engine + "' (engines: interp, jit, llvm)");
#else
  else if (cfg.engine == "llvm")
    raise("RuntimeError", "engine 'llvm': this Kiln was built without LLVM (cmake -DKILN_LLVM=ON with llvm-19-dev)");
  else raise("ValueError", "unknown engine '" + cfg.engine + "' (engines: interp, jit)");
#endif
  auto prog = std::make_unique<Program>(cfg);
  prog->engine = std::move(engine);
  prog->debugger = o.debugger;
  return prog;
}

// The companion a grad/dual/validating kernel reads for what `a` accesses:
// a field's grad, dual or checkbit field (when placed), or an ndarray
// argument's grad/dual argument. None for data ti.stop_grad(x) names: autodiff
// treats it as a constant.
static std::optional<ir::Access> companion_of(const ir::Access& a, frontend::AutodiffMode mode, const ir::Kernel& k,
                                              Program& prog) {
  using M = frontend::AutodiffMode;
  if (a.ext_arg >= 0) {
    if (mode == M::validation) return std::nullopt;
    for (auto [arg, comp] : k.ext_companion)
      if (arg == a.ext_arg) {
        ir::Access r = a;
        r.ext_arg = comp;
        r.field += mode == M::reverse ? ".grad" : ".dual";
        r.snode = "ndarray " + r.field;
        return r;
      }
    return std::nullopt;
  }
  if (a.field_id < 0 || (size_t)a.field_id >= prog.fields.size()) return std::nullopt;
  for (int f : k.stop_grad_fields)
    if (f == a.field_id && mode != M::validation) return std::nullopt;
  const FieldInfo& f = *prog.fields[(size_t)a.field_id];
  const FieldInfo* c = mode == M::reverse ? f.grad : mode == M::forward ? f.dual : f.checkbit;
  if (!c || (!c->place && !c->required)) return std::nullopt;
  return prog.access_of(*c);  // raises for a required companion left unplaced
}

// The autodiff step of a grad (reverse), dual (forward) or validating kernel,
// on the scalarized IR (vm/autodiff).
static void run_autodiff(ir::Kernel& k, frontend::AutodiffMode mode, Program& prog) {
  using M = frontend::AutodiffMode;
  if (!k.funcs.empty() && mode != M::validation) {
    ir::walk(k.root, [&](ir::Stmt* s) {
      if (s->kind == ir::StmtKind::call)
        raise("TypeError", "kernel '" + k.name + "' calls ti.real_func '" + s->rare().text +
                               "', which autodiff cannot differentiate (make it a @ti.func, which is inlined)", s->loc);
    });
  }
  autodiff::CompanionFn companion = [&](const ir::Access& a) { return companion_of(a, mode, k, prog); };
  if (mode == M::validation) return autodiff::add_access_checks(k, companion);
  if (mode == M::forward) return autodiff::make_dual(k, companion);
  // A kernel that reads or writes gradients itself (a hand-written gradient)
  // has no adjoint: Taichi refuses it too.
  ir::walk(k.root, [&](ir::Stmt* s) {
    if (s->kind != ir::StmtKind::global_ptr) return;
    bool comp = s->access->field_id >= 0 && (size_t)s->access->field_id < prog.fields.size() &&
                prog.fields[(size_t)s->access->field_id]->primal;
    for (auto [arg, c] : k.ext_companion) comp |= s->access->ext_arg == c;
    if (comp)
      raise("TypeError", "kernel '" + k.name + "' accesses the gradient " + s->access->field +
                             " itself: it cannot be differentiated (write its gradient with @ti.ad.grad_for)",
            s->loc);
  });
  autodiff::make_adjoint(k, companion, prog.config.ad_stack_size);
}

bool CompiledEntry::plain_return() const {
  if (ret_is_tuple) return false;
  for (auto& t : ret_types)
    if (t.kind != frontend::StaticValue::Kind::dtype || t.rows > 0) return false;
  return rets.size() <= 1;
}

// KILN_JAM=1 or 0 jams parallel reduction nests of every kind
// (vm/ir/passes/jam_outer.cpp) on every engine or on none (the tests run the interpreter with it, which
// must print the same bits); unset, the engine says.
static int jam_outer_loops(const Engine& eng) {
  static const int forced = [] {
    const char* e = std::getenv("KILN_JAM");
    return e && *e ? (*e == '0' ? 0 : ir::kJamAll) : -1;
  }();
  return forced >= 0 ? forced : eng.jams_outer_loops();
}

std::unique_ptr<CompiledEntry> compile_kernel(const frontend::KernelRequest& req, frontend::HostEnv& env, Program& prog,
                                              std::vector<KernelDump>* dumps,
                                              const std::function<void(std::string_view)>& err) {
  // Where compile time goes (ti.statistics(): compile_*_time_ms), per phase.
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  auto phase = [&prog, &t0](const char* key) {
    auto t = Clock::now();
    prog.stat_add(key, std::chrono::duration<double, std::milli>(t - t0).count());
    t0 = t;
  };
  frontend::LoweredKernel lk = frontend::lower_kernel(req, env, prog);
  phase("compile_frontend_time_ms");
  for (auto& w : lk.warnings) err(w.empty() || w.back() == '\n' ? w : w + "\n");
  // The engine computes only in the types it declares (seed 000's table);
  // the others fail here, or map under ti.init(dtype_cast_mode=...).
  Engine* eng = prog.engine.get();
  std::string engine = std::string(eng->name()) + " engine";
#ifdef KILN_HAVE_VULKAN
  // A device's dtypes are its own: the message names it.
  if (std::string(eng->name()) == "vulkan") engine += " on device '" + vulkan_device_name() + "'";
#endif
  ir::legalize_dtypes(*lk.kernel, [eng](Prim p) { return eng->supports(p); }, engine, prog.config.dtype_cast_mode,
                      prog.config.types);
  lk.kernel->keep_names = prog.debugger != nullptr;
  std::function<void(ir::Kernel&)> autodiff;
  if (req.ad_mode != frontend::AutodiffMode::none)
    autodiff = [&prog, mode = req.ad_mode](ir::Kernel& k) { run_autodiff(k, mode, prog); };
  int n_stmts = ir::run_pipeline(*lk.kernel, true, autodiff, prog.config.fast_math, jam_outer_loops(*eng));
  phase("compile_passes_time_ms");
  // Seed 001's statistics: what code generation produced.
  prog.stat_add("codegen_kernels", 1);
  prog.stat_add("codegen_offloaded_tasks", (double)lk.kernel->root.stmts.size());
  prog.stat_add("codegen_statements", (double)n_stmts);
  // The IR's text only for those who read it (printing a kernel of 10^4
  // statements costs as much as a pass over it).
  std::string ir_text;
  if (prog.config.print_ir || dumps) ir_text = ir::print_kernel(*lk.kernel);
  if (prog.config.print_ir) err(ir_text.empty() || ir_text.back() == '\n' ? ir_text : ir_text + "\n");
  auto ce = std::make_unique<CompiledEntry>();
#ifdef KILN_HAVE_CUDA
  if (ptx_dump_enabled()) {  // kiln dis --ptx=DIR
    dump_ptx(*lk.kernel, &prog);
    if (std::string(eng->name()) != "cuda") ir::empty_simt_tasks(*lk.kernel);  // see make_program
  }
#endif
  ce->num_args = (int)lk.kernel->args.size();
  ce->num_global_temps = lk.kernel->num_global_temps;
  t0 = Clock::now();
  ce->code = prog.engine->compile_owned(std::move(lk.kernel), prog);
  phase("compile_codegen_time_ms");
  ce->arg_slot = lk.arg_slot;
  ce->companion_slot = lk.companion_slot;
  ce->rets = lk.rets;
  ce->ret_types = lk.ret_types;
  ce->ret_is_tuple = lk.ret_is_tuple;
  ce->launched = &prog.stats["launched_kernels"];
  if (dumps) dumps->push_back(KernelDump{req.qualified_name, std::move(ir_text), ce->code->disassemble()});
  return ce;
}

static uint64_t width_mask(Prim p) {
  int bits = prim_bits(p);
  return bits >= 64 ? ~0ULL : ((1ULL << bits) - 1);
}

namespace {

// Launch contexts kept per thread, one per nesting depth (a kernel launched
// from a callback during a launch takes the next): a launch reuses their
// vectors' memory instead of allocating four (~10% of a small launch).
// (One thread_local: each is a __tls_get_addr call in a shared library.)
struct KeptContexts {
  std::vector<std::unique_ptr<LaunchContext>> kept;
  size_t depth = 0;
};
thread_local KeptContexts t_contexts;

struct ContextLease {
  KeptContexts& k = t_contexts;
  LaunchContext* ctx;
  ContextLease() {
    if (k.depth == k.kept.size()) k.kept.push_back(std::make_unique<LaunchContext>());
    ctx = k.kept[k.depth++].get();
  }
  ~ContextLease() {
    ctx->print_buffer.clear();  // output with no sink (the launcher leaves it there) goes, as it did with the context
    --k.depth;
  }
};

}  // namespace

void launch_kernel(CompiledEntry& ce, Program& prog, const uint64_t* args, std::vector<uint64_t>& rets) {
  prog.materialize_trees();
  ContextLease lease;
  LaunchContext& ctx = *lease.ctx;
  ctx.program = &prog;
  ctx.args.assign(args, args + ce.num_args);
  ctx.rets.assign(ce.rets.size(), 0);
  prog.tree_bases(ctx.tree_bases);
  ctx.temps.assign((size_t)ce.num_global_temps, 0);
  ctx.rng_key = rng_mix(prog.config.random_seed * kRngGamma + prog.launches++);
  *ce.launched += 1;
  ce.code->launch(ctx);
  rets.resize(ctx.rets.size());
  for (size_t k = 0; k < ctx.rets.size(); k++) rets[k] = ctx.rets[k] & width_mask(ce.rets[k].prim);
}

ConstVal return_value(const CompiledEntry& ce, size_t slot, uint64_t bits) {
  return const_from_bits(ce.rets[slot].prim, bits);
}

}  // namespace kiln::ti
