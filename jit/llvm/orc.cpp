// LLJIT at O3 for the host CPU. The TargetMachine keeps strict floating
// point: no FMA contraction (AllowFPOpFusion = Strict) and, the IR carrying no
// fast-math flags, no reassociation, so results are the interpreter's bit for
// bit; the vectorizers still run where that allows.
#include "jit/llvm/orc.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Vectorize/SLPVectorizer.h>

#include <chrono>
#include <ctime>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "jit/llvm/codegen.h"
#include "jit/llvm/lower.h"
#include "jit/llvm/prefetch.h"
#include "vm/runtime/code_cache.h"
#include "vm/runtime/program.h"
#include "vm/support/diag.h"

namespace kiln::llvmjit {

namespace {

struct Jit {
  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::unique_ptr<llvm::TargetMachine> tm;  // for the optimizer's cost model
  std::string error;                        // why LLVM could not start
  uint64_t modules = 0;
  std::mutex mu;
};

std::string text(llvm::Error e) { return llvm::toString(std::move(e)); }

Jit& jit() {
  // Never destroyed: a tier-up compile may still run on its thread while the
  // process exits (jit/tiered.cpp waits for it in an atexit handler, which
  // runs after the destructors of statics made later than it, as this one is),
  // and code it made may be called until the very end.
  static Jit& j = *new Jit;
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // KILN_LLVM_OPTS: LLVM's own command-line options for these compiles
    // (`-disable-lsr`, `-vectorizer-min-trip-count=8`, ...), to try a change
    // of LLVM's pipeline without a build. The offline cache's key holds them.
    if (const char* o = std::getenv("KILN_LLVM_OPTS"); o && *o) {
      const char* argv[] = {"kiln"};
      llvm::cl::ParseCommandLineOptions(1, argv, "", &llvm::errs(), "KILN_LLVM_OPTS");
    }
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();  // CPU name and features of this host
    if (!jtmb) {
      j.error = text(jtmb.takeError());
      return;
    }
    jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    jtmb->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Strict;
    auto tm = jtmb->createTargetMachine();
    if (!tm) {
      j.error = text(tm.takeError());
      return;
    }
    j.tm = std::move(*tm);
    auto lj = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*jtmb).create();
    if (!lj) {
      j.error = text(lj.takeError());
      return;
    }
    j.lljit = std::move(*lj);
    llvm::orc::JITDylib& jd = j.lljit->getMainJITDylib();
    llvm::orc::SymbolMap syms;
    for (const RuntimeSymbol& r : runtime_symbols())
      syms[j.lljit->mangleAndIntern(r.name)] = llvm::orc::ExecutorSymbolDef(
          llvm::orc::ExecutorAddr::fromPtr(r.addr), llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
    if (llvm::Error e = jd.define(llvm::orc::absoluteSymbols(std::move(syms)))) {
      j.error = text(std::move(e));
      j.lljit.reset();
      return;
    }
    // What LLVM's own lowering calls (fmod for frem, memset, ...): this process's libraries.
    auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(j.lljit->getDataLayout().getGlobalPrefix());
    if (!gen) {
      j.error = text(gen.takeError());
      j.lljit.reset();
      return;
    }
    jd.addGenerator(std::move(*gen));
  });
  return j;
}

// The vectors the loop vectorizer may use, as the "prefer-vector-width"
// attribute ("" for the target's default): 512 bits on AVX-512 hosts. LLVM's
// tuning for most of them prefers 256, where g++ -march=native (the bench's
// baselines) uses 512-bit registers when its tuning does not know the CPU;
// a streaming loop that is memory-bound (bench/reduction's sums, jacobi)
// keeps twice the bytes in flight with 64-byte loads. Not on the Skylake-SP
// generation, whose 512-bit instructions lower the clock. Results do not
// depend on it: no reassociation is allowed. KILN_LLVM_VECTOR_WIDTH=128, 256
// or 512 overrides.
const std::string& vector_width(llvm::TargetMachine& tm) {
  static const std::string w = [&]() -> std::string {
    if (const char* e = std::getenv("KILN_LLVM_VECTOR_WIDTH"); e && *e) {
      std::string v = e;
      if (v == "128" || v == "256" || v == "512") return v;
      std::fprintf(stderr, "kiln: KILN_LLVM_VECTOR_WIDTH=%s ignored (128, 256 or 512)\n", e);
    }
    std::string cpu = tm.getTargetCPU().str();
    bool avx512 = tm.getTargetFeatureString().contains("+avx512f");
    if (!avx512 || cpu == "skylake-avx512" || cpu == "cascadelake" || cpu == "cooperlake") return "";
    return "512";
  }();
  return w;
}

}  // namespace

void optimize(llvm::Module& m, llvm::TargetMachine& tm, bool vectorize) {
  llvm::PipelineTuningOptions pto;
  pto.LoopVectorization = vectorize;
  pto.SLPVectorization = vectorize;
  pto.LoopUnrolling = true;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm, pto);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  // The SLP vectorizer runs before the late loop unroller, so it never sees
  // the copies of a loop unrolled by its split sums' width (lower_stmt.cpp
  // range_loop): a second SLP pass after the pipeline packs them into lanes.
  if (vectorize && m.getModuleFlag("kiln.unrolled_sums"))
    pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager& mpm, llvm::OptimizationLevel) {
      llvm::FunctionPassManager fpm;
      fpm.addPass(llvm::SLPVectorizerPass());
      fpm.addPass(llvm::InstCombinePass());
      mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
    });
  // Streaming loops prefetch ahead (prefetch.h), once the vectorizers and
  // the unroller have made them what codegen sees. Not on AMD's Zen hosts:
  // on this project's EPYC its hardware prefetcher follows the streams alone,
  // and the prefetches cost (CPU time, alternating, 9 rounds, 2 MiB pages;
  // docs/perf/memory.md): without them bench/saxpy ran 0.73x, reduction's sums
  // 0.92x, jacobi 0.80-0.83x, jacobi_grouped 0.82x the time; on 4 KiB pages
  // saxpy 0.69-0.75x, jacobi_grouped 0.91-0.95x, jacobi and reduction
  // within noise. The measurement that put them in was a Sapphire Rapids'.
  if (vectorize && !tm.getTargetCPU().starts_with("znver"))
    pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager& mpm, llvm::OptimizationLevel) {
      mpm.addPass(llvm::createModuleToFunctionPassAdaptor(StreamPrefetchPass()));
    });
  // KILN_LLVM_DUMP=before: the module as lowered (to run LLVM's `opt` on it).
  const char* dump = std::getenv("KILN_LLVM_DUMP");
  bool before = dump && std::string(dump) == "before";
  if (before) {
    std::string s;
    llvm::raw_string_ostream os(s);
    m.print(os, nullptr);
    std::fprintf(stderr, "%s", os.str().c_str());
  }
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
  if (dump && *dump && !before && std::string(dump) != "asm") {
    std::string s;
    llvm::raw_string_ostream os(s);
    m.print(os, nullptr);
    std::fprintf(stderr, "%s", os.str().c_str());
  }
}

void append_module_key(std::string& key, const llvm::Module& m) {
  llvm::raw_string_ostream os(key);
  llvm::WriteBitcodeToFile(m, os);
}

// Code generation for the host CPU runs without loop strength reduction, the
// most expensive pass of a small module's code generation (bench/jacobi's
// row loops: llc 154M -> 97M instructions). Over the bench programs
// (KILN_LLVM_VERBOSE CPU, best of two runs a kernel, load 7-10) the ORC
// compiles took 0.89x the CPU (jacobi's and jacobi_grouped's kernels
// 0.73-0.80x), and no program's kernels ran slower (CPU time, 5-9 runs
// alternating: the lane blocks and vectorized loops step their pointers by
// themselves). LLVM reads the option when it builds the pipeline, so the
// pipeline is built under a lock; NVPTX keeps LSR (not measured on a GPU), as
// does an explicit KILN_LLVM_OPTS=-disable-lsr=false.
std::string emit_code(llvm::Module& m, llvm::TargetMachine& tm, bool assembly) {
  static std::mutex pipeline_mu;
  llvm::SmallString<0> buf;
  {
    llvm::raw_svector_ostream os(buf);
    llvm::legacy::PassManager pm;  // destroyed before the buffer is read
    auto kind = assembly ? llvm::CodeGenFileType::AssemblyFile : llvm::CodeGenFileType::ObjectFile;
    bool failed;
    {
      std::lock_guard<std::mutex> lock(pipeline_mu);
      auto* lsr = static_cast<llvm::cl::opt<bool>*>(llvm::cl::getRegisteredOptions().lookup("disable-lsr"));
      bool set = lsr && tm.getTargetTriple().isX86() && lsr->getNumOccurrences() == 0;
      if (set) lsr->setValue(true);
      failed = tm.addPassesToEmitFile(pm, os, nullptr, kind);
      if (set) lsr->setValue(false);
    }
    if (failed)
      raise("RuntimeError", std::string("LLVM cannot emit ") + (assembly ? "assembly" : "object code") + " for " +
                                tm.getTargetTriple().str() + " " + tm.getTargetCPU().str());
    pm.run(m);
  }
  return std::string(buf.begin(), buf.end());
}


static double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Remarks are dropped: the lane blocks ask the loop vectorizer for a width
// (lower_lanes.cpp), and LLVM prints every refusal of a requested width on
// stderr ("loop not vectorized: call instruction cannot be vectorized"),
// which would be in the program's output. Warnings and errors print as before.
struct NoRemarks : llvm::DiagnosticHandler {
  bool handleDiagnostics(const llvm::DiagnosticInfo& d) override { return d.getSeverity() == llvm::DS_Remark; }
};

// A kernel's module between its lowering and its code generation.
struct LoweredTasks {
  std::unique_ptr<llvm::LLVMContext> ctx;
  std::unique_ptr<llvm::Module> mod;
  std::string kernel;              // its name (the object file's)
  CompiledTasks out;               // why and metas filled; fns by finish_kernel_tasks
  std::vector<std::string> names;  // per task: its function, empty where it has none
  std::string key;                 // the offline cache's key; empty: no cache
  std::chrono::steady_clock::time_point t0;
};

void LoweredTasksDeleter::operator()(LoweredTasks* l) const { delete l; }

// The process's LLJIT, started; raises when LLVM cannot run here.
static Jit& started_jit() {
  Jit& j = jit();
  if (!j.lljit) raise("RuntimeError", "the LLVM engine could not start on this machine: " + j.error);
  return j;
}

void start_llvm() { started_jit(); }

// A module for the host's target, in a context of its own.
static std::unique_ptr<llvm::Module> host_module(Jit& j, const std::string& name, llvm::LLVMContext& ctx) {
  auto mod = std::make_unique<llvm::Module>(name, ctx);
  mod->setDataLayout(j.tm->createDataLayout());
  mod->setTargetTriple(j.tm->getTargetTriple().str());
  return mod;
}

// Links object file `obj` into a JITDylib of its own (module number `id`),
// which sees the runtime calls and the C library; null and `why` on failure.
// Under j.mu.
static llvm::orc::JITDylib* link_object(Jit& j, uint64_t id, const std::string& obj, const std::string& name, std::string& why) {
  auto jd = j.lljit->createJITDylib("kiln_m" + std::to_string(id));
  if (!jd) {
    why = "LLVM could not make a JITDylib: " + text(jd.takeError());
    return nullptr;
  }
  jd->addToLinkOrder(j.lljit->getMainJITDylib());
  if (llvm::Error e = j.lljit->addObjectFile(*jd, llvm::MemoryBuffer::getMemBufferCopy(obj, name))) {
    why = "LLVM could not add the module: " + text(std::move(e));
    return nullptr;
  }
  return &*jd;
}

LoweredPtr lower_kernel_tasks(const ir::Kernel& k, Program* prog, bool cache) {
  LoweredPtr l(new LoweredTasks);
  l->t0 = std::chrono::steady_clock::now();
  double cpu0 = thread_cpu_ms();
  Jit& j = started_jit();
  l->kernel = k.name;
  l->ctx = std::make_unique<llvm::LLVMContext>();
  l->ctx->setDiagnosticHandler(std::make_unique<NoRemarks>());
  l->mod = host_module(j, "kiln_" + k.name, *l->ctx);
  llvm::Module& mod = *l->mod;
  CompiledTasks& out = l->out;
  std::vector<std::string>& names = l->names;
  for (auto& s : k.root.stmts) {
    size_t n = out.fns.size();
    out.fns.push_back(nullptr);
    out.why.emplace_back();
    out.metas.emplace_back();
    names.emplace_back();
    if (s->kind != ir::StmtKind::offloaded) {
      out.why[n] = "not an offloaded task";
      continue;
    }
    if (s->task == ir::Task::clear_list || s->task == ir::Task::listgen) continue;  // the runtime's, no code
    // Names by position: the module's text (the cache key) is the same in
    // every run; each module gets a JITDylib of its own.
    names[n] = "kiln_task" + std::to_string(n);
    out.why[n] = lower_task(mod, k, *s, names[n], out.metas[n], LowerOptions{false, prog});
    if (!out.why[n].empty()) names[n].clear();
  }
  bool any = false;
  for (auto& n : names) any |= !n.empty();
  if (any) {
    // Before the key: a module's vector width is part of its text.
    if (const std::string& w = vector_width(*j.tm); !w.empty())
      for (llvm::Function& f : mod)
        if (!f.isDeclaration()) f.addFnAttr("prefer-vector-width", w);
    // The offline cache's key: everything the code depends on.
    if (cache && prog && !code_cache_dir(prog->config).empty()) {
      llvm::raw_string_ostream ks(l->key);
      // (" no-lsr": entries from before emit_code dropped LSR are not this build's code)
      const char* opts = std::getenv("KILN_LLVM_OPTS");
      ks << "kiln " << KILN_CACHE_VERSION << " llvm " << LLVM_VERSION_STRING << " " << j.tm->getTargetTriple().str()
         << " " << j.tm->getTargetCPU() << " " << j.tm->getTargetFeatureString() << " no-lsr " << (opts ? opts : "")
         << "\n";
      ks.flush();
      append_module_key(l->key, mod);
    }
  }
  out.lower_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - l->t0).count();
  out.cpu_ms = thread_cpu_ms() - cpu0;
  return l;
}

CompiledTasks finish_kernel_tasks(LoweredPtr l, Program* prog) {
  auto t1 = std::chrono::steady_clock::now();
  double cpu0 = thread_cpu_ms();
  Jit& j = jit();
  std::lock_guard<std::mutex> lock(j.mu);
  uint64_t id = j.modules++;
  CompiledTasks out = std::move(l->out);
  double lower_ms = out.lower_ms;
  const std::vector<std::string>& names = l->names;
  auto lap = [last = t1](double& ms) mutable {
    auto now = std::chrono::steady_clock::now();
    ms += std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
  };
  bool any = false;
  for (auto& n : names) any |= !n.empty();
  if (any) {
    llvm::Module& mod = *l->mod;
    std::optional<std::string> obj = l->key.empty() || !prog ? std::nullopt : code_cache_load(*prog, "llvm", l->key);
    out.cached = obj.has_value();
    lap(out.lower_ms);
    if (!obj) {
      optimize(mod, *j.tm, true);
      lap(out.optimize_ms);
      // KILN_LLVM_DUMP=asm: the host assembly the module becomes (from a
      // copy: code generation changes the module it runs on).
      if (const char* d = std::getenv("KILN_LLVM_DUMP"); d && std::string(d) == "asm") {
        std::unique_ptr<llvm::Module> copy = llvm::CloneModule(mod);
        std::fprintf(stderr, "; kernel %s\n%s", l->kernel.c_str(), emit_code(*copy, *j.tm, true).c_str());
      }
      obj = emit_code(mod, *j.tm, false);
      if (!l->key.empty() && prog) code_cache_store(*prog, "llvm", l->key, *obj);
      lap(out.codegen_ms);
    }
    std::string why;
    llvm::orc::JITDylib* jd = link_object(j, id, *obj, "kiln_" + l->kernel, why);
    for (size_t n = 0; n < names.size(); n++) {
      if (names[n].empty()) continue;
      if (!why.empty()) {
        out.why[n] = why;
        continue;
      }
      auto sym = j.lljit->lookup(*jd, names[n]);
      if (!sym) {
        out.why[n] = "LLVM could not compile the task: " + text(sym.takeError());
        continue;
      }
      out.fns[n] = sym->toPtr<TaskFn>();
    }
    lap(out.link_ms);
  }
  // Lowering's time and CPU, then this thread's.
  out.ms = lower_ms + std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
  out.cpu_ms += thread_cpu_ms() - cpu0;
  return out;
}

CompiledTasks compile_kernel(const ir::Kernel& k, Program* prog) {
  return finish_kernel_tasks(lower_kernel_tasks(k, prog, true), prog);
}

std::vector<void*> compile_functions(const std::function<void(llvm::Module&)>& build,
                                     const std::vector<std::string>& names) {
  Jit& j = started_jit();
  std::lock_guard<std::mutex> lock(j.mu);
  uint64_t id = j.modules++;
  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto mod = host_module(j, "kiln_fns" + std::to_string(id), *ctx);
  build(*mod);
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(*mod, &os)) raise("InternalError", "the LLVM verifier rejected generated code: " + os.str());
  optimize(*mod, *j.tm, false);
  std::string obj = emit_code(*mod, *j.tm, false);
  std::string why;
  llvm::orc::JITDylib* jd = link_object(j, id, obj, "kiln_fns", why);
  if (!jd) raise("RuntimeError", why);
  std::vector<void*> out;
  for (const std::string& n : names) {
    auto sym = j.lljit->lookup(*jd, n);
    if (!sym) raise("RuntimeError", "LLVM could not compile " + n + ": " + text(sym.takeError()));
    out.push_back(sym->toPtr<void*>());
  }
  return out;
}

}  // namespace kiln::llvmjit
