// IR kernel -> PTX. One LLVM module per kernel: each task lowered for the GPU
// (jit/llvm's lowering with LowerOptions::gpu: a thread's grid-stride share of
// the iterations), an entry per task that reads its bounds, the device log's
// two functions, and libdevice for math; optimized at O3 by the NVPTX target
// machine (which adds NVVMReflect) and printed as PTX. Floating point stays
// strict as on the CPU: no FMA contraction (AllowFPOpFusion::Strict), no fast
// math flags, f32 division and square root IEEE-rounded (NVPTX's defaults),
// denormals kept (nvvm-reflect-ftz 0).
#include "gpu/cuda/ptx.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <optional>
#include <sstream>
#include <string_view>

#include "jit/llvm/codegen.h"
#include "jit/llvm/listgen.h"
#include "jit/llvm/lower.h"
#include "jit/llvm/orc.h"
#include "vm/ir/simt.h"
#include "vm/runtime/code_cache.h"
#include "vm/runtime/program.h"
#include "vm/support/diag.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

#ifndef KILN_LIBDEVICE
#define KILN_LIBDEVICE "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
#endif

namespace kiln::cuda {

namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";

struct Compiler {
  std::mutex mu;
  std::map<int, std::unique_ptr<llvm::TargetMachine>> tms;  // by sm
  std::string libdevice;                                     // the bitcode's bytes, read once
};

Compiler& compiler() {
  static Compiler c;
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  return c;
}

llvm::TargetMachine& target_machine(Compiler& c, int sm) {
  auto& tm = c.tms[sm];
  if (tm) return *tm;
  std::string err;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(kTriple, err);
  if (!t) raise("RuntimeError", "cuda: this LLVM has no NVPTX target: " + err);
  llvm::TargetOptions opts;
  opts.AllowFPOpFusion = llvm::FPOpFusion::Strict;
  tm.reset(t->createTargetMachine(kTriple, "sm_" + std::to_string(sm), "", opts, std::nullopt, std::nullopt,
                                  llvm::CodeGenOptLevel::Aggressive));
  if (!tm) raise("RuntimeError", "cuda: LLVM cannot generate code for sm_" + std::to_string(sm));
  return *tm;
}

const std::string& libdevice_bytes(Compiler& c) {
  if (!c.libdevice.empty()) return c.libdevice;
  const char* env = std::getenv("KILN_LIBDEVICE");
  std::string path = env && *env ? env : KILN_LIBDEVICE;
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  if (!f || ss.str().empty())
    raise("RuntimeError", "cuda: cannot read libdevice (math on the GPU) at '" + path +
                              "': install the CUDA toolkit or set KILN_LIBDEVICE to libdevice.10.bc");
  c.libdevice = ss.str();
  return c.libdevice;
}

using llvm::Value;

// ptr + byte offset, as a pointer.
Value* at(llvm::IRBuilder<>& b, Value* p, size_t off) { return b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), p, off); }

// kiln_gpu_fail(log, task, check, values, n, key): an iteration's failed
// check. Every failing thread lowers err_key to its key; one that finds its
// key the lowest so far takes a slot for its check and values. The host picks
// the slot with the lowest key: the failure the interpreter, running the
// iterations in order, reports first.
void define_fail(llvm::Module& m) {
  llvm::Function* f = m.getFunction("kiln_gpu_fail");
  if (!f || !f->isDeclaration()) return;
  f->setLinkage(llvm::Function::InternalLinkage);
  // Never inlined: a task whose PTX still calls it after the optimizer can
  // fail (may_fail_entries), one that does not is a launch the host need not
  // wait for.
  f->addFnAttr(llvm::Attribute::NoInline);
  llvm::LLVMContext& C = m.getContext();
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(C, "entry", f));
  Value *log = f->getArg(0), *task = f->getArg(1), *check = f->getArg(2), *vals = f->getArg(3), *n = f->getArg(4),
        *key = f->getArg(5);
  auto seq = llvm::AtomicOrdering::SequentiallyConsistent;
  Value* old = b.CreateAtomicRMW(llvm::AtomicRMWInst::Min, at(b, log, offsetof(DeviceLog, err_key)), key,
                                 llvm::Align(8), seq);
  llvm::BasicBlock* take = llvm::BasicBlock::Create(C, "take", f);
  llvm::BasicBlock* fill = llvm::BasicBlock::Create(C, "fill", f);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(C, "done", f);
  b.CreateCondBr(b.CreateICmpSLE(key, old), take, done);
  b.SetInsertPoint(take);
  Value* slot = b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, at(b, log, offsetof(DeviceLog, err_count)), b.getInt32(1),
                                  llvm::Align(4), seq);
  b.CreateCondBr(b.CreateICmpULT(slot, b.getInt32(kLogSlots)), fill, done);
  b.SetInsertPoint(fill);
  Value* s = b.CreateInBoundsGEP(b.getInt8Ty(), at(b, log, offsetof(DeviceLog, slots)),
                                 b.CreateMul(b.CreateZExt(slot, b.getInt64Ty()), b.getInt64(sizeof(LogSlot))));
  b.CreateStore(key, at(b, s, offsetof(LogSlot, key)));
  b.CreateStore(b.CreateTrunc(task, b.getInt32Ty()), at(b, s, offsetof(LogSlot, task)));
  b.CreateStore(check, at(b, s, offsetof(LogSlot, check)));
  b.CreateStore(n, at(b, s, offsetof(LogSlot, n)));
  for (int i = 0; i < kLogValues; i++) {  // n is small and known at each call: inlining folds the guards
    llvm::BasicBlock* copy = llvm::BasicBlock::Create(C, "copy", f);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(C, "next", f);
    b.CreateCondBr(b.CreateICmpSGT(n, b.getInt32(i)), copy, done);
    b.SetInsertPoint(copy);
    Value* v = b.CreateLoad(b.getInt64Ty(), b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), vals, i));
    b.CreateStore(v, at(b, s, offsetof(LogSlot, values) + 8 * i));
    b.CreateBr(next);
    b.SetInsertPoint(next);
  }
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

// kiln_gpu_print(log, task, site, values, n, key): a record of 2 + n words
// at a place taken with one atomic add; the host sorts the records by task and
// iteration (a thread's own records keep their order) and formats them.
void define_print(llvm::Module& m) {
  llvm::Function* f = m.getFunction("kiln_gpu_print");
  if (!f || !f->isDeclaration()) return;
  f->setLinkage(llvm::Function::InternalLinkage);
  // Never inlined: a task whose PTX still calls it after the optimizer can
  // fail (may_fail_entries), one that does not is a launch the host need not
  // wait for.
  f->addFnAttr(llvm::Attribute::NoInline);
  llvm::LLVMContext& C = m.getContext();
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(C, "entry", f));
  Value *log = f->getArg(0), *task = f->getArg(1), *site = f->getArg(2), *vals = f->getArg(3), *n = f->getArg(4),
        *key = f->getArg(5);
  llvm::Type* i64 = b.getInt64Ty();
  Value* n64 = b.CreateZExt(n, i64);
  Value* words = b.CreateAdd(n64, b.getInt64(2));
  Value* off = b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, at(b, log, offsetof(DeviceLog, print_used)), words,
                                 llvm::Align(8), llvm::AtomicOrdering::Monotonic);
  Value* cap = b.CreateLoad(i64, at(b, log, offsetof(DeviceLog, print_cap)));
  llvm::BasicBlock* fits = llvm::BasicBlock::Create(C, "fits", f);
  llvm::BasicBlock* full = llvm::BasicBlock::Create(C, "full", f);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(C, "done", f);
  b.CreateCondBr(b.CreateICmpULE(b.CreateAdd(off, words), cap), fits, full);
  b.SetInsertPoint(full);
  b.CreateAtomicRMW(llvm::AtomicRMWInst::Or, at(b, log, offsetof(DeviceLog, overflow)), b.getInt32(1), llvm::Align(4),
                    llvm::AtomicOrdering::Monotonic);
  b.CreateBr(done);
  b.SetInsertPoint(fits);
  Value* buf = b.CreateLoad(b.getPtrTy(), at(b, log, offsetof(DeviceLog, print_words)));
  Value* rec = b.CreateInBoundsGEP(i64, buf, off);
  Value* head = b.CreateOr(b.CreateOr(b.CreateAnd(task, b.getInt64(0xffff)),
                                      b.CreateShl(b.CreateZExt(b.CreateAnd(site, b.getInt32(0xffff)), i64), 16)),
                           b.CreateShl(n64, 32));
  b.CreateStore(key, rec);
  b.CreateStore(head, b.CreateConstInBoundsGEP1_64(i64, rec, 1));
  for (int i = 0; i < 64; i++) {  // n is a constant at each (inlined) call
    llvm::BasicBlock* copy = llvm::BasicBlock::Create(C, "copy", f);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(C, "next", f);
    b.CreateCondBr(b.CreateICmpSGT(n, b.getInt32(i)), copy, done);
    b.SetInsertPoint(copy);
    Value* v = b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i64, vals, i));
    b.CreateStore(v, b.CreateConstInBoundsGEP1_64(i64, rec, 2 + i));
    b.CreateBr(next);
    b.SetInsertPoint(next);
  }
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

// A bound read from global temporary `slot` as a store of the index's type
// left it (vm/interp/launch.cpp bound_value).
Value* temp_bound(llvm::IRBuilder<>& b, Value* env, int64_t slot, Prim p) {
  Value* temps = b.CreateLoad(b.getPtrTy(), b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), env, llvmjit::kEnvTemps));
  Value* bits = b.CreateLoad(b.getInt64Ty(), b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), temps, (uint64_t)slot));
  if (p == Prim::i32) return b.CreateSExt(b.CreateTrunc(bits, b.getInt32Ty()), b.getInt64Ty());
  if (p == Prim::u32) return b.CreateZExt(b.CreateTrunc(bits, b.getInt32Ty()), b.getInt64Ty());
  return bits;
}

// The kernel entry of task function `fn`: returns at once after an earlier
// failure in this launch (the interpreter would not have run this task), else
// runs the task with its bounds.
void define_entry(llvm::Module& m, llvm::Function* fn, const ir::Stmt& task, const std::string& name) {
  llvm::LLVMContext& C = m.getContext();
  llvm::IRBuilder<> b(C);
  llvm::Type* ptr = b.getPtrTy();
  llvm::Type* i64 = b.getInt64Ty();
  auto* fty = llvm::FunctionType::get(b.getVoidTy(), {ptr, i64, i64, ptr}, false);
  llvm::Function* e = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, name, m);
  e->addFnAttr(llvm::Attribute::NoUnwind);
  b.SetInsertPoint(llvm::BasicBlock::Create(C, "entry", e));
  Value* env = e->getArg(0);
  Value* log = b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(i64, env, llvmjit::kEnvHost));
  llvm::LoadInst* failed = b.CreateLoad(b.getInt32Ty(), at(b, log, offsetof(DeviceLog, err_count)));
  failed->setVolatile(true);
  llvm::BasicBlock* run = llvm::BasicBlock::Create(C, "run", e);
  llvm::BasicBlock* out = llvm::BasicBlock::Create(C, "out", e);
  b.CreateCondBr(b.CreateICmpNE(failed, b.getInt32(0)), out, run);
  b.SetInsertPoint(run);
  Value* begin = e->getArg(1);
  Value* end = e->getArg(2);
  if (task.task == ir::Task::range_for) {
    // Constant bounds as constants (the host passes the same values): the
    // optimizer then sees the loop index's range and drops the bounds checks
    // it implies, and a launch without checks need not wait for the device.
    Prim p = llvmjit::task_index_prim(task);
    begin = task.rare().begin_const ? (Value*)b.getInt64(task.begin) : temp_bound(b, env, task.begin, p);
    end = task.rare().end_const ? (Value*)b.getInt64(task.end) : temp_bound(b, env, task.end, p);
  }
  b.CreateCall(fn, {env, begin, end, e->getArg(3)});
  b.CreateBr(out);
  b.SetInsertPoint(out);
  b.CreateRetVoid();
  llvm::NamedMDNode* ann = m.getOrInsertNamedMetadata("nvvm.annotations");
  ann->addOperand(llvm::MDNode::get(C, {llvm::ValueAsMetadata::get(e), llvm::MDString::get(C, "kernel"),
                                        llvm::ValueAsMetadata::get(b.getInt32(1))}));
}

bool uses_libdevice(const llvm::Module& m) {
  for (const llvm::Function& f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) return true;
  return false;
}

std::string entry_name(const ir::Kernel& k, size_t n) {
  std::string s = "kiln_" + std::to_string(n) + "_";
  for (char c : k.name) s += (std::isalnum((unsigned char)c) || c == '_') ? c : '_';
  return s;
}

}  // namespace

std::set<std::string> may_fail_entries(const std::string& ptx) {
  struct Fn {
    std::string name;
    bool entry = false;
    std::string_view body;
  };
  std::vector<Fn> fns;
  size_t at = 0, body_at = 0;
  auto close = [&](size_t end) {
    if (!fns.empty()) fns.back().body = std::string_view(ptx).substr(body_at, end - body_at);
  };
  while (at < ptx.size()) {
    size_t nl = ptx.find('\n', at);
    if (nl == std::string::npos) nl = ptx.size();
    std::string_view line(ptx.data() + at, nl - at);
    bool entry = line.find(".entry") != std::string_view::npos;
    if (line.rfind(".func", 0) == 0 || line.find(" .func") != std::string_view::npos || entry) {
      size_t open = line.rfind('(');
      size_t start = open == std::string_view::npos ? open : line.find_last_of(" )", open);
      close(at);
      body_at = nl;
      fns.push_back(Fn{start == std::string_view::npos ? "" : std::string(line.substr(start + 1, open - start - 1)), entry, {}});
    }
    at = nl + 1;
  }
  close(ptx.size());
  auto mentions = [](std::string_view body, const std::string& name) {
    auto ident = [](char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.'; };
    for (size_t i = body.find(name); i != std::string_view::npos; i = body.find(name, i + 1)) {
      size_t e = i + name.size();
      if ((i == 0 || !ident(body[i - 1])) && (e == body.size() || !ident(body[e]))) return true;
    }
    return false;
  };
  std::set<std::string> fails{"kiln_gpu_fail"};
  for (bool grew = true; grew;) {
    grew = false;
    for (const Fn& f : fns)
      if (!f.name.empty() && !fails.count(f.name))
        for (const std::string& g : fails)
          if (mentions(f.body, g)) {
            fails.insert(f.name);
            grew = true;
            break;
          }
  }
  std::set<std::string> out;
  for (const Fn& f : fns)
    if (f.entry && fails.count(f.name)) out.insert(f.name);
  return out;
}

uint64_t recursion_level_bytes(const std::string& ptx) {
  // Frames by function: NAME.rfI (a ti.real_func, lower_func.cpp) and
  // NAME.rfI.tN (its tasks; PTX spells '.' as "_$_"), when not inlined.
  std::map<std::string, uint64_t> frame;
  std::string current;
  size_t at = 0;
  while (at < ptx.size()) {
    size_t nl = ptx.find('\n', at);
    if (nl == std::string::npos) nl = ptx.size();
    std::string_view line(ptx.data() + at, nl - at);
    at = nl + 1;
    if (line.rfind(".func", 0) == 0 || line.find(".entry") != std::string_view::npos) {
      size_t open = line.rfind('(');
      size_t start = line.find_last_of(" )", open);
      current = line.find(".entry") != std::string_view::npos || open == std::string_view::npos || start == std::string_view::npos
                    ? ""
                    : std::string(line.substr(start + 1, open - start - 1));
      continue;
    }
    size_t depot = line.find("__local_depot");
    if (current.empty() || depot == std::string_view::npos || line.find(".local") == std::string_view::npos) continue;
    size_t open = line.find('[', depot);
    if (open != std::string_view::npos) frame[current] = std::strtoull(std::string(line.substr(open + 1)).c_str(), nullptr, 10);
  }
  // One level: a function's frame and its largest task's (ptxas adds up to
  // kCallSaveBytes to each for the registers it saves around calls).
  uint64_t level = 0;
  for (auto& [name, bytes] : frame) {
    size_t rf = name.rfind("_rf");
    if (rf == std::string::npos || name.find("_$_t", rf) != std::string::npos) continue;
    uint64_t tasks = 0;
    for (auto it = frame.lower_bound(name + "_$_t"); it != frame.end() && it->first.rfind(name + "_$_t", 0) == 0; ++it)
      tasks = std::max(tasks, it->second + kCallSaveBytes);
    level = std::max(level, bytes + kCallSaveBytes + tasks);
  }
  return std::max<uint64_t>(level, kCallSaveBytes);
}

int default_sm() {
  const char* e = std::getenv("KILN_CUDA_SM");
  int sm = e && *e ? std::atoi(e) : 80;
  return sm >= 50 ? sm : 80;
}

static void mark_may_fail(PtxKernel& out) {
  std::set<std::string> fails = may_fail_entries(out.ptx);
  for (PtxTask& t : out.tasks) t.may_fail = !t.entry.empty() && fails.count(t.entry);
}

PtxKernel compile_ptx(const ir::Kernel& k, int sm, int only, Program* prog) {
  auto t0 = std::chrono::steady_clock::now();
  Compiler& c = compiler();
  std::lock_guard<std::mutex> lock(c.mu);
  llvm::TargetMachine& tm = target_machine(c, sm);
  llvm::LLVMContext ctx;
  llvm::Module mod("kiln_" + k.name, ctx);
  mod.setTargetTriple(kTriple);
  mod.setDataLayout(tm.createDataLayout());
  PtxKernel out;
  std::vector<std::string> entries;
  for (size_t n = 0; n < k.root.stmts.size(); n++) {
    const ir::Stmt& s = *k.root.stmts[n];
    out.tasks.emplace_back();
    PtxTask& t = out.tasks.back();
    if (s.kind != ir::StmtKind::offloaded) {
      t.why = "not an offloaded task";
      continue;
    }
    if (s.task == ir::Task::clear_list || s.task == ir::Task::listgen) continue;  // the runtime's, on the host
    if (only >= 0 && (int)n != only) {
      t.why = "not compiled (kiln dis --ptx compiles one task at a time)";
      continue;
    }
    // A ti.simt task's blocks are block_dim's threads: more than CUDA's 1024
    // would not be one block. Checked here, where `kiln dis --ptx` also
    // passes without a GPU (tests/cuda/err_simt_block_dim).
    bool simt = ir::uses_simt(s);
    if (simt && s.rare().block_dim > 1024)
      raise("ValueError", "ti.loop_config(block_dim=" + std::to_string(s.rare().block_dim) +
                              "): a CUDA block has at most 1024 threads (the loop uses ti.simt)", s.loc);
    std::string body = entry_name(k, n) + "_body";
    t.why = llvmjit::lower_task(mod, k, s, body, t.meta, llvmjit::LowerOptions{true, prog});
    if (!t.why.empty()) continue;
    for (const llvmjit::Check& ch : t.meta.checks)
      if (ch.prims.size() > (size_t)kLogValues) t.why = "an assert with more than 16 values on the GPU";
    for (const llvmjit::PrintSite& p : t.meta.prints)
      if (p.prims.size() > 64) t.why = "a print of more than 64 values on the GPU";
    if (t.meta.checks.size() > 0xffff || t.meta.prints.size() > 0xffff) t.why = "more than 65535 checks or prints in a task";
    // One thread's recursion runs on the host: the device reserves a thread's
    // stack for every thread it can hold (270k on an H200), so a GPU thread
    // holds a few dozen levels where the host holds the interpreter's 2000,
    // and one host core runs serial code faster than one GPU thread.
    if (t.meta.recursive && (s.task == ir::Task::serial || s.serialize))
      t.why = "a serial task whose ti.real_func calls recurse (the host's stack holds 2000 levels)";
    // The host has no blocks, barriers or warps: a ti.simt task runs on the
    // GPU or not at all.
    if (simt && !t.why.empty()) raise("NotImplementedError", "a task using ti.simt cannot run on the GPU: " + t.why, s.loc);
    if (!t.why.empty()) {
      if (llvm::Function* f = mod.getFunction(body)) f->eraseFromParent();
      continue;
    }
    t.entry = entry_name(k, n);
    define_entry(mod, mod.getFunction(body), s, t.entry);
    entries.push_back(t.entry);
  }
  bool recursive = false;
  for (const PtxTask& t : out.tasks) recursive |= !t.entry.empty() && t.meta.recursive;
  if (!entries.empty()) {
    define_fail(mod);
    define_print(mod);
    // The offline cache's key: the module before libdevice and the optimizer.
    std::string key;
    if (prog && !code_cache_dir(prog->config).empty()) {
      llvm::raw_string_ostream ks(key);
      ks << "kiln " << KILN_CACHE_VERSION << " llvm " << LLVM_VERSION_STRING << " sm_" << sm << "\n";
      ks.flush();
      llvmjit::append_module_key(key, mod);
      if (std::optional<std::string> ptx = code_cache_load(*prog, "ptx", key)) {
        out.ptx = std::move(*ptx);
        mark_may_fail(out);
        if (recursive) out.level_bytes = recursion_level_bytes(out.ptx);
        out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return out;
      }
    }
    if (uses_libdevice(mod)) {
      const std::string& bytes = libdevice_bytes(c);
      auto lib = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bytes, "libdevice.10.bc"), ctx);
      if (!lib) raise("RuntimeError", "cuda: libdevice does not parse: " + llvm::toString(lib.takeError()));
      (*lib)->setTargetTriple(kTriple);
      (*lib)->setDataLayout(mod.getDataLayout());
      if (llvm::Linker::linkModules(mod, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded))
        raise("RuntimeError", "cuda: linking libdevice failed");
    }
    // Only the entries are the module's interface: the rest may be inlined
    // and dropped.
    for (llvm::Function& f : mod)
      if (!f.isDeclaration() && std::find(entries.begin(), entries.end(), f.getName().str()) == entries.end())
        f.setLinkage(llvm::Function::InternalLinkage);
    mod.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", (uint32_t)0);
    std::string err;
    llvm::raw_string_ostream es(err);
    if (llvm::verifyModule(mod, &es))
      raise("InternalError", "cuda: the LLVM verifier rejected kernel '" + k.name + "': " + es.str());
    llvmjit::optimize(mod, tm, false);
    out.ptx = llvmjit::emit_code(mod, tm, true);
    if (!key.empty()) code_cache_store(*prog, "ptx", key, out.ptx);
    mark_may_fail(out);
    if (recursive) out.level_bytes = recursion_level_bytes(out.ptx);
  }
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

std::string compile_listgen_ptx(const SNode& target, int nidx, int sm) {
  Compiler& c = compiler();
  std::lock_guard<std::mutex> lock(c.mu);
  llvm::TargetMachine& tm = target_machine(c, sm);
  llvm::LLVMContext ctx;
  llvm::Module mod("kiln_listgen", ctx);
  mod.setTargetTriple(kTriple);
  mod.setDataLayout(tm.createDataLayout());
  llvmjit::build_listgen(mod, target, nidx, kListgenPrefix, true);
  // Every function is a kernel the host launches (count and write on the
  // grid, scan on one thread).
  llvm::NamedMDNode* ann = mod.getOrInsertNamedMetadata("nvvm.annotations");
  for (llvm::Function& f : mod)
    if (!f.isDeclaration())
      ann->addOperand(llvm::MDNode::get(ctx, {llvm::ValueAsMetadata::get(&f), llvm::MDString::get(ctx, "kernel"),
                                              llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1))}));
  std::string err;
  llvm::raw_string_ostream es(err);
  if (llvm::verifyModule(mod, &es)) raise("InternalError", "cuda: the LLVM verifier rejected list generation: " + es.str());
  llvmjit::optimize(mod, tm, false);
  return llvmjit::emit_code(mod, tm, true);
}

}  // namespace kiln::cuda
