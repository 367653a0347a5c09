// The CUDA Engine. Fields live in managed memory (the alloc hooks below), so
// the device and the host address them with the same pointers (pointer and
// dynamic SNodes' blocks too: device pools in the trees' memory, see
// jit/llvm/lower_pools.cpp): a task that lowered to PTX runs on the GPU, and
// so does a struct-for's list generation (jit/llvm/listgen.h: the same
// generated code the LLVM tier runs on the CPU); every other task runs on the
// host's interpreter over the same memory after the device is idle. A launch runs its tasks in
// order; before each host task and at its end the engine waits for the
// device, reads the device log (failed checks, prints) and raises the
// earliest failure as the interpreter would have.
#include "gpu/cuda/cuda.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <mutex>

#include "gpu/cuda/driver.h"
#include "gpu/cuda/ptx.h"
#include "jit/llvm/listgen.h"
#include "vm/bytecode/function.h"
#include "vm/interp/interp.h"
#include "vm/ir/clone.h"
#include "vm/ir/simt.h"
#include "vm/ir/ndarray_uses.h"
#include "vm/runtime/program.h"
#include "vm/runtime/rng.h"

namespace kiln::cuda {

namespace {

constexpr uint64_t kPrintWords = 1u << 20;  // 8 MiB of print records per launch between host syncs

// Managed memory, refused beyond what the device has free: asking for more
// managed memory than the card holds can hang it.
void* managed(size_t bytes) {
  Device& d = device();
  size_t free_b = 0, total = 0;
  check(d.api.cuMemGetInfo(&free_b, &total), "cuMemGetInfo");
  if (bytes > free_b)
    raise("MemoryError", "cuda: cannot allocate " + std::to_string(bytes) + " bytes on '" + d.name + "': " +
                             std::to_string(free_b) + " bytes free of " + std::to_string(total));
  CUdeviceptr p = 0;
  check(d.api.cuMemAllocManaged(&p, std::max<size_t>(bytes, 16), kMemAttachGlobal), "cuMemAllocManaged");
  return reinterpret_cast<void*>(p);
}

void release(void* p) {
  if (p) device().api.cuMemFree(reinterpret_cast<CUdeviceptr>(p));
}

// A managed buffer that grows (its old contents are not kept).
struct Buffer {
  void* p = nullptr;
  size_t size = 0;
  void* reserve(size_t bytes) {
    if (bytes > size) {
      release(p);
      p = nullptr;
      size = 0;
      p = managed(bytes);
      size = bytes;
    }
    return p;
  }
};

// Device memory for a launch's slots, filled and read with explicit copies:
// cheaper per launch than managed pages migrating back and forth.
struct DeviceBlock {
  CUdeviceptr p = 0;
  size_t size = 0;
  CUdeviceptr reserve(size_t bytes) {
    if (bytes > size) {
      Device& d = device();
      if (p) check(d.api.cuCtxSynchronize(), "a kernel on the device");  // a queued launch may still read it
      if (p) d.api.cuMemFree(p);
      p = 0;
      size = 0;
      check(d.api.cuMemAlloc(&p, bytes), "cuMemAlloc");
      size = bytes;
    }
    return p;
  }
};

// A launch's slots as the host writes them, in page-locked memory, so that
// their copy to the device queues behind the launches before it: a copy from
// pageable memory waits for the stream to drain first (the driver API's
// synchronization rules), which would make a deferred launch (one the host
// does not wait for: CudaKernel::deferrable) wait for the one before it.
// (Measured alone on an H200, before launches were deferred, it changed
// nothing: each launch then waited for its own end anyway.) A ring: a slot is
// written again once its copy has run (its event).
struct StagingRing {
  static constexpr int kSlots = 8;
  struct Slot {
    uint8_t* p = nullptr;
    size_t size = 0;
    CUevent copied = nullptr;
    bool pending = false;
  };
  Slot slots[kSlots];
  int next = 0;
  // The next slot, at least `bytes` long and zeroed.
  Slot& take(size_t bytes) {
    Device& d = device();
    Slot& s = slots[next];
    next = (next + 1) % kSlots;
    if (s.pending) check(d.api.cuEventSynchronize(s.copied), "cuEventSynchronize");
    s.pending = false;
    if (!s.copied) check(d.api.cuEventCreate(&s.copied, kEventDisableTiming), "cuEventCreate");
    if (bytes > s.size) {
      if (s.p) d.api.cuMemFreeHost(s.p);
      s.p = nullptr;
      s.size = 0;
      void* p = nullptr;
      check(d.api.cuMemAllocHost(&p, bytes), "cuMemAllocHost");
      s.p = static_cast<uint8_t*>(p);
      s.size = bytes;
    }
    std::memset(s.p, 0, bytes);
    return s;
  }
  // Queues the copy of the slot's first `bytes` to `to`.
  void send(Slot& s, CUdeviceptr to, size_t bytes) {
    Device& d = device();
    check(d.api.cuMemcpyHtoDAsync(to, s.p, bytes, nullptr), "cuMemcpyHtoDAsync");
    check(d.api.cuEventRecord(s.copied, nullptr), "cuEventRecord");
    s.pending = true;
  }
  ~StagingRing() {
    Device& d = device();
    for (Slot& s : slots) {
      if (s.pending) d.api.cuEventSynchronize(s.copied);
      if (s.p) d.api.cuMemFreeHost(s.p);
      if (s.copied) d.api.cuEventDestroy(s.copied);
    }
  }
};

// What one launch gives the device: an Env per task, the argument, return,
// tree and temporary slots they point to, and the log (in `block`); the
// print records (managed) and a struct-for's cells (device memory: written
// once by the host, read by the device alone, so no page faults).
struct Area {
  DeviceBlock block;
  StagingRing staging;  // the block's contents as the host writes them
  Buffer print;
  DeviceBlock cells;
  DeviceBlock lists[3];  // list generation's scratch: two levels' lists and the counts (listgen.h)
  std::vector<Buffer> nds;  // ndarray arguments' copies, by position in Ndarray list
};

struct CudaEngine;

// A struct-for's list generation on the device (jit/llvm/listgen.h): its
// count / scan / write kernels, loaded from their own module.
struct ListKernels {
  CUmodule module = nullptr;
  std::vector<CUfunction> count, write;
  CUfunction scan = nullptr;
};

// run_list_levels' side on the device: the same level loop as the CPU's,
// the generated functions launched as kernels, scratch in the Area. The
// scan's total comes back to size the next level (a wait per level).
struct DeviceLevels {
  Device& d;
  Area& area;
  const ListKernels& k;
  unsigned threads, blocks;
  void* buffer(int which, size_t bytes) {
    DeviceBlock& b = which == 3 ? area.cells : area.lists[which];
    return reinterpret_cast<void*>(b.reserve(bytes));
  }
  void root(void* list, const int64_t* entry) {
    check(d.api.cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(list), entry, llvmjit::kListEntryWords * 8), "cuMemcpyHtoD");
  }
  void grid(CUfunction f, int64_t n, void** params) {
    unsigned b = (unsigned)std::max<int64_t>(1, std::min<int64_t>(blocks, (n + threads - 1) / threads));
    check(d.api.cuLaunchKernel(f, b, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr), "cuLaunchKernel (list generation)");
  }
  void count(size_t s, void* in, int64_t n, void* counts) {
    int64_t b = 0, e = n;
    void* params[] = {&in, &b, &e, &counts};
    grid(k.count.at(s), n, params);
  }
  int64_t scan(void* counts, int64_t n) {
    void* params[] = {&counts, &n};
    check(d.api.cuLaunchKernel(k.scan, 1, 1, 1, llvmjit::kListScanThreads, 1, 1, 0, nullptr, params, nullptr),
          "cuLaunchKernel (list generation)");
    int64_t total = 0;
    check(d.api.cuMemcpyDtoH(&total, reinterpret_cast<CUdeviceptr>(counts) + (CUdeviceptr)n * 8, 8), "cuMemcpyDtoH");
    return total;
  }
  void write(size_t s, void* in, int64_t n, void* counts, void* out) {
    int64_t b = 0, e = n;
    void* params[] = {&in, &b, &e, &counts, &out};
    grid(k.write.at(s), n, params);
  }
};

struct CudaKernel : CompiledKernel {
  CudaEngine& eng;
  std::string name;
  bc::Kernel code;  // every task's bytecode: the host runs those without PTX
  PtxKernel ptx;
  CUmodule module = nullptr;
  std::vector<CUfunction> fns;  // per task, null: on the host
  std::vector<ListKernels> lists;  // per task: a struct_for's list generation (else empty)
  std::vector<ir::NdarrayUse> nds;
  // Nothing to read back (every task on the device, no check that can fail,
  // no print, return value or ndarray): the launch returns once queued, as
  // on a GPU; Engine::sync (before any host access to fields) waits.
  bool deferrable = false;
  CudaKernel(CudaEngine& e, std::string n, bc::Kernel c) : eng(e), name(std::move(n)), code(std::move(c)) {}
  ~CudaKernel() override;
  void launch(LaunchContext& ctx) override;
  // Per task: a list task of a struct-for whose lists the device makes
  // (set once the list kernels are loaded; the launches skip them).
  std::vector<char> on_device_lists;
  bool device_lists(size_t i) const { return i < on_device_lists.size() && on_device_lists[i]; }
  void mark_device_lists() {
    on_device_lists.assign(code.tasks.size(), 0);
    for (size_t i = 0; i < code.tasks.size(); i++) {
      if (code.tasks[i].kind != ir::Task::clear_list && code.tasks[i].kind != ir::Task::listgen) continue;
      for (size_t j = i + 1; j < code.tasks.size(); j++)
        if (code.tasks[j].kind == ir::Task::struct_for) {
          on_device_lists[i] = j < lists.size() && lists[j].scan;
          break;
        }
    }
  }
  std::string disassemble() const override {
    std::string s;
    for (size_t i = 0; i < ptx.tasks.size() && i < code.tasks.size(); i++) {
      auto kind = code.tasks[i].kind;
      if (kind == ir::Task::clear_list || kind == ir::Task::listgen) continue;
      s += "; " + code.tasks[i].fn.name + ": " +
           (ptx.tasks[i].entry.empty() ? "host bytecode (" + ptx.tasks[i].why + ")" : "PTX " + ptx.tasks[i].entry) + "\n";
    }
    return s + ptx.ptx + bc::disassemble(code);
  }
};

struct CudaEngine : Engine {
  Device& d;
  // One launch at a time: they share the Area. Recursive: a host task of a
  // launch may reach Program::materialize, which syncs.
  std::recursive_mutex mu;
  Area area;
  explicit CudaEngine(Device& dev) : d(dev) {}
  ~CudaEngine() override {
    try {
      sync();
    } catch (Error&) {
    }
  }
  const char* name() const override { return "cuda"; }
  bool supports(Prim) const override { return true; }  // the lowering computes f16/bf16 in f32, as on the CPU
  void sync() override {
    std::lock_guard<std::recursive_mutex> lock(mu);
    check(d.api.cuCtxSetCurrent(d.ctx), "cuCtxSetCurrent");
    check(d.api.cuCtxSynchronize(), "a kernel on the device");
  }
  // A module whose tasks recurse through ti.real_func calls: the context's
  // thread stack is raised to what kMaxCallDepth levels take, within a
  // budget (the driver reserves the stack for every thread the device can
  // hold resident: an eighth of the free memory, at most 4 GiB, and CUDA's
  // 512 KiB a thread), and the module's depth limit lowered to the levels
  // that stack holds, so that deeper recursion is a RecursionError naming
  // that limit instead of a stack overflow, which would end the context.
  void size_stack(CUmodule module, uint64_t level_bytes, const ir::Kernel& k) {
    constexpr uint64_t kBase = 4096;  // the entry's and the task's own frames
    constexpr uint64_t kMaxStack = 512 * 1024;
    uint64_t resident = (uint64_t)std::max(1, d.multiprocessors) * (uint64_t)std::max(1, d.threads_per_multiprocessor);
    size_t free = 0, total = 0;
    check(d.api.cuMemGetInfo(&free, &total), "cuMemGetInfo");
    uint64_t budget = std::min<uint64_t>(free / 8, 4ull << 30) / resident;
    uint64_t want = kBase + level_bytes * (uint64_t)interp::kMaxCallDepth;
    uint64_t stack = std::min({want, budget, kMaxStack}) & ~uint64_t(15);
    size_t current = 0;
    check(d.api.cuCtxGetLimit(&current, kLimitStackSize), "cuCtxGetLimit");
    if (stack > current) {
      check(d.api.cuCtxSynchronize(), "a kernel on the device");  // deferred launches finish on the old stack
      check(d.api.cuCtxSetLimit(kLimitStackSize, stack), "cuCtxSetLimit (the thread stack)");
    }
    else stack = current;  // an earlier kernel's stack, at least as large
    uint64_t levels = stack > kBase ? (stack - kBase) / level_bytes : 0;
    int64_t limit = (int64_t)std::min<uint64_t>(levels, (uint64_t)interp::kMaxCallDepth);
    CUdeviceptr at = 0;
    size_t bytes = 0;
    check(d.api.cuModuleGetGlobal(&at, &bytes, module, llvmjit::kDepthLimitSymbol), "cuModuleGetGlobal");
    if (bytes != sizeof limit)
      raise("InternalError", "cuda: kernel '" + k.name + "': the depth limit is " + std::to_string(bytes) + " bytes", k.loc);
    check(d.api.cuMemcpyHtoD(at, &limit, sizeof limit), "setting the call depth limit");
  }

  std::unique_ptr<CompiledKernel> compile(const ir::Kernel& k, Program& prog) override {
    // A task using ti.simt runs on the GPU or not at all: the bytecode (the
    // host's copy of every task) gets it with an empty body.
    std::unique_ptr<ir::Kernel> host_copy;
    if (ir::uses_simt(k)) {
      host_copy = ir::clone_kernel(k);
      ir::empty_simt_tasks(*host_copy);
    }
    auto kern = std::make_unique<CudaKernel>(*this, k.name, bc::lower_kernel(host_copy ? *host_copy : k, false));
    kern->ptx = compile_ptx(k, std::min(d.sm, 90), -1, &prog);
    kern->nds = ir::ndarray_uses(k);
    int device_tasks = 0, host_tasks = 0;
    kern->fns.assign(kern->code.tasks.size(), nullptr);
    if (!kern->ptx.ptx.empty()) {
      std::lock_guard<std::recursive_mutex> lock(mu);
      check(d.api.cuCtxSetCurrent(d.ctx), "cuCtxSetCurrent");
      char log[8192] = {};
      int opts[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize};
      void* vals[] = {log, reinterpret_cast<void*>((uintptr_t)sizeof log)};
      CUresult r = d.api.cuModuleLoadDataEx(&kern->module, kern->ptx.ptx.c_str(), 2, opts, vals);
      if (r != 0)
        raise("InternalError", "cuda: the driver refused the PTX of kernel '" + k.name + "': " + log, k.loc);
      if (kern->ptx.level_bytes) size_stack(kern->module, kern->ptx.level_bytes, k);
      for (size_t i = 0; i < kern->ptx.tasks.size() && i < kern->fns.size(); i++) {
        if (kern->ptx.tasks[i].entry.empty()) continue;
        check(d.api.cuModuleGetFunction(&kern->fns[i], kern->module, kern->ptx.tasks[i].entry.c_str()),
              "cuModuleGetFunction");
      }
      // A struct-for on the device takes its cells from list generation there.
      kern->lists.resize(kern->fns.size());
      for (size_t i = 0; i < kern->fns.size(); i++) {
        const bc::TaskCode& t = kern->code.tasks[i];
        if (t.kind != ir::Task::struct_for || !kern->fns[i]) continue;
        const SNode* target = prog.snode(t.snode);
        std::string lptx = compile_listgen_ptx(*target, std::max(t.num_indices, 1), std::min(d.sm, 90));
        ListKernels& l = kern->lists[i];
        CUresult r = d.api.cuModuleLoadDataEx(&l.module, lptx.c_str(), 2, opts, vals);
        if (r != 0) raise("InternalError", "cuda: the driver refused the list generation PTX of kernel '" + k.name + "': " + log, k.loc);
        auto fn = [&](const std::string& name) {
          CUfunction f = nullptr;
          check(d.api.cuModuleGetFunction(&f, l.module, (kListgenPrefix + name).c_str()), "cuModuleGetFunction");
          return f;
        };
        for (size_t lv = 0; lv < target->path.size(); lv++) {
          l.count.push_back(fn("count" + std::to_string(lv)));
          l.write.push_back(fn("write" + std::to_string(lv)));
        }
        l.scan = fn("scan");
      }
      kern->mark_device_lists();
    }
    bool quiet = kern->code.num_rets == 0 && kern->nds.empty();
    for (size_t i = 0; i < kern->fns.size(); i++) {
      auto kind = kern->code.tasks[i].kind;
      if (kern->device_lists(i)) continue;  // made on the device: nothing for the host to wait for
      quiet = quiet && kern->fns[i] && i < kern->ptx.tasks.size() && !kern->ptx.tasks[i].may_fail &&
              kern->ptx.tasks[i].meta.prints.empty();
      if (kind == ir::Task::clear_list || kind == ir::Task::listgen) continue;
      (kern->fns[i] ? device_tasks : host_tasks)++;
    }
    kern->deferrable = quiet;
    prog.stat_add("cuda_tasks_device", device_tasks);
    prog.stat_add("cuda_tasks_host", host_tasks);
    prog.stat_add("cuda_compile_time_ms", kern->ptx.ms);
    return kern;
  }
};

CudaKernel::~CudaKernel() {
  std::lock_guard<std::recursive_mutex> lock(eng.mu);
  if (module) {
    eng.d.api.cuCtxSynchronize();
    eng.d.api.cuModuleUnload(module);
  }
  for (ListKernels& l : lists)
    if (l.module) eng.d.api.cuModuleUnload(l.module);
}

size_t words(size_t n) { return std::max<size_t>(n, 1) * 8; }

// Reads the log after the device went idle: prints in task and iteration
// order (up to the first failure), then the earliest failure as an error.
void drain(DeviceLog& log, const PtxKernel& ptx, LaunchContext& ctx) {
  std::unique_ptr<Error> err;
  int err_task = std::numeric_limits<int>::max();
  int64_t err_key = std::numeric_limits<int64_t>::max();
  if (log.err_count) {
    const LogSlot* best = nullptr;
    for (uint32_t i = 0; i < std::min<uint32_t>(log.err_count, kLogSlots); i++)
      if (!best || log.slots[i].key < best->key) best = &log.slots[i];
    if (best && (size_t)best->task < ptx.tasks.size() &&
        (size_t)best->check < ptx.tasks[(size_t)best->task].meta.checks.size()) {
      const llvmjit::Check& c = ptx.tasks[(size_t)best->task].meta.checks[(size_t)best->check];
      const char* kind = "InternalError";
      std::string msg = llvmjit::check_message(c, best->values, ctx, kind);
      err = std::make_unique<Error>(kind, msg, c.loc);
      err_task = best->task;
      err_key = best->key;
    } else {
      err = std::make_unique<Error>("InternalError", "cuda: a device task failed without a readable record");
    }
  }
  struct Rec {
    int task;
    int64_t key;
    size_t at;
  };
  std::vector<Rec> recs;
  const uint64_t* w = log.print_words;
  uint64_t used = std::min(log.print_used, log.print_cap);
  for (uint64_t at = 0; w && at + 2 <= used;) {
    uint64_t head = w[at + 1];
    uint64_t n = head >> 32;
    if (at + 2 + n > used) break;
    recs.push_back(Rec{(int)(head & 0xffff), (int64_t)w[at], (size_t)at});
    at += 2 + n;
  }
  std::stable_sort(recs.begin(), recs.end(),
                   [](const Rec& a, const Rec& b) { return a.task != b.task ? a.task < b.task : a.key < b.key; });
  std::string out;
  for (const Rec& r : recs) {
    if (err && (r.task > err_task || (r.task == err_task && r.key > err_key))) continue;
    uint64_t head = w[r.at + 1];
    size_t site = (size_t)((head >> 16) & 0xffff);
    if ((size_t)r.task >= ptx.tasks.size() || site >= ptx.tasks[(size_t)r.task].meta.prints.size()) continue;
    try {
      out += llvmjit::print_text(ptx.tasks[(size_t)r.task].meta.prints[site], w + r.at + 2);
    } catch (const Error& e) {
      if (!err) err = std::make_unique<Error>(e);
      break;
    }
  }
  bool overflow = log.overflow != 0;
  log.print_used = 0;
  log.overflow = 0;
  {
    std::lock_guard<std::mutex> lock(ctx.print_mu);
    ctx.print_buffer += out;
  }
  if (overflow && !err)
    err = std::make_unique<Error>("RuntimeError", "cuda: kernel prints overflowed the device's print buffer (" +
                                                      std::to_string(kPrintWords * 8) + " bytes per launch)");
  if (err) throw *err;
}

void CudaKernel::launch(LaunchContext& ctx) {
  std::lock_guard<std::recursive_mutex> lock(eng.mu);
  Device& d = eng.d;
  check(d.api.cuCtxSetCurrent(d.ctx), "cuCtxSetCurrent");
  if ((int)ctx.args.size() < code.num_args)
    raise("InternalError", "kernel '" + name + "' launched with " + std::to_string(ctx.args.size()) + " arguments");
  if ((int)ctx.rets.size() < code.num_rets) ctx.rets.resize((size_t)code.num_rets);
  if ((int)ctx.temps.size() < code.num_global_temps) ctx.temps.resize((size_t)code.num_global_temps);
  size_t ntasks = code.tasks.size();
  size_t nargs = ctx.args.size(), nrets = ctx.rets.size(), ntemps = ctx.temps.size(), ntrees = ctx.tree_bases.size();
  size_t o_args = ntasks * sizeof(llvmjit::Env), o_rets = o_args + words(nargs), o_temps = o_rets + words(nrets),
         o_trees = o_temps + words(ntemps), o_log = o_trees + words(ntrees), total = o_log + sizeof(DeviceLog);
  CUdeviceptr dev = eng.area.block.reserve(total);
  StagingRing::Slot& slot = eng.area.staging.take(total);
  uint8_t* st = slot.p;
  auto dptr = [&](size_t off) { return reinterpret_cast<uint64_t*>(dev + off); };
  DeviceLog log{};
  log.err_key = std::numeric_limits<int64_t>::max();
  bool prints = false;
  for (auto& t : ptx.tasks) prints |= !t.meta.prints.empty();
  if (prints) {
    log.print_words = static_cast<uint64_t*>(eng.area.print.reserve(kPrintWords * 8));
    log.print_cap = kPrintWords;
  }
  // Ndarray arguments: host memory, copied into managed buffers for the
  // launch (device and host tasks both use the copies) and back after it.
  std::vector<uint64_t> args = ctx.args;
  std::vector<std::pair<size_t, void*>> copies;  // (bytes, host data) per ndarray
  if (eng.area.nds.size() < nds.size()) eng.area.nds.resize(nds.size());
  for (size_t a = 0; a < nds.size(); a++) {
    uint64_t elems = 1;
    for (int k = 0; k < nds[a].ndim; k++) elems *= (uint64_t)(uint32_t)(int32_t)ctx.args.at((size_t)(nds[a].arg + 1 + k));
    size_t bytes = (size_t)(elems * (uint64_t)nds[a].elem_bytes);
    void* host = reinterpret_cast<void*>(ctx.args.at((size_t)nds[a].arg));
    void* copy = eng.area.nds[a].reserve(bytes);
    if (bytes && host) std::memcpy(copy, host, bytes);
    args[(size_t)nds[a].arg] = reinterpret_cast<uint64_t>(copy);
    copies.push_back({bytes, host});
  }
  std::memcpy(st + o_args, args.data(), nargs * 8);
  std::memcpy(st + o_temps, ctx.temps.data(), ntemps * 8);
  std::memcpy(st + o_trees, ctx.tree_bases.data(), ntrees * 8);
  std::memcpy(st + o_log, &log, sizeof log);
  for (size_t i = 0; i < ntasks; i++) {
    llvmjit::Env e{dptr(o_args), dptr(o_rets), reinterpret_cast<uint8_t* const*>(dptr(o_trees)), dptr(o_temps),
                   nullptr, reinterpret_cast<void*>(dev + o_log), ntrees, rng_task_key(ctx.rng_key, (uint32_t)i), i};
    std::memcpy(st + i * sizeof e, &e, sizeof e);
  }
  eng.area.staging.send(slot, dev, total);
  // Host work needs the device idle, its log read, and the slots it changed.
  auto to_host = [&] {
    check(d.api.cuCtxSynchronize(), "a kernel on the device");
    check(d.api.cuMemcpyDtoH(&log, dev + o_log, sizeof log), "cuMemcpyDtoH");
    if (ntemps) check(d.api.cuMemcpyDtoH(ctx.temps.data(), dev + o_temps, ntemps * 8), "cuMemcpyDtoH");
    if (nrets) check(d.api.cuMemcpyDtoH(ctx.rets.data(), dev + o_rets, nrets * 8), "cuMemcpyDtoH");
    if (log.err_count || log.print_used || log.overflow) {
      drain(log, ptx, ctx);  // throws the earliest failure
      check(d.api.cuMemcpyHtoD(dev + o_log, &log, sizeof log), "cuMemcpyHtoD");  // records read: start afresh
    }
  };
  auto from_host = [&] {  // what a host task changed
    if (ntemps) check(d.api.cuMemcpyHtoD(dev + o_temps, ctx.temps.data(), ntemps * 8), "cuMemcpyHtoD");
    if (nrets) check(d.api.cuMemcpyHtoD(dev + o_rets, ctx.rets.data(), nrets * 8), "cuMemcpyHtoD");
  };
  auto finish = [&] {
    for (size_t a = 0; a < copies.size(); a++)
      if (nds[a].written && copies[a].first && copies[a].second) std::memcpy(copies[a].second, eng.area.nds[a].p, copies[a].first);
  };
  try {
    for (size_t i = 0; i < ntasks; i++) {
      const bc::TaskCode& t = code.tasks[i];
      if (device_lists(i)) continue;  // the list tasks of a struct-for whose lists the device makes
      if (!fns[i]) {
        to_host();
        std::swap(ctx.args, args);  // the ndarrays' managed copies
        try {
          interp::run_task(t, ctx, nullptr, nullptr);
        } catch (...) {
          std::swap(ctx.args, args);
          throw;
        }
        std::swap(ctx.args, args);
        from_host();
        continue;
      }
      int64_t begin = 0, end = 1;
      unsigned threads = t.block_dim > 0 ? (unsigned)std::min(t.block_dim, 1024) : 128u;
      unsigned blocks = (unsigned)std::max(d.multiprocessors, 1) * 32u;
      void* cells = nullptr;
      if (t.kind == ir::Task::serial || t.serialize) {
        threads = blocks = 1;
        if (t.kind == ir::Task::range_for) {
          begin = t.begin;
          end = t.end;
        }
      }
      if (t.kind == ir::Task::serial) {
        begin = end = 0;
      } else if (t.kind == ir::Task::struct_for) {
        // The cell table from list generation on the device (listgen.h):
        // each cell its indices, then its address, in the host's order.
        Program* prog = ctx.program;
        if (!prog) raise("InternalError", "struct_for task launched without a program");
        const SNode* target = prog->snode(t.snode);
        int nidx = std::max(t.num_indices, 1);
        DeviceLevels levels{d, eng.area, lists.at(i), 128u, (unsigned)std::max(d.multiprocessors, 1) * 32u};
        int64_t elements = 0;
        end = llvmjit::run_list_levels(*target, nidx, prog->trees.at((size_t)target->tree)->memory, levels, elements);
        prog->n_listgen_elements.fetch_add(elements, std::memory_order_relaxed);
        if (end == 0) continue;
        cells = reinterpret_cast<void*>(eng.area.cells.p);
        if (!t.serialize) blocks = (unsigned)std::min<int64_t>(blocks, (end + threads - 1) / threads);
      } else if (t.kind == ir::Task::range_for) {
        begin = t.begin;
        end = t.end;
        if (t.begin_const && t.end_const) {
          if (end <= begin) continue;
          if (!t.serialize) blocks = (unsigned)std::min<int64_t>(blocks, (end - begin + threads - 1) / threads);
        }
      }
      CUdeviceptr env = dev + i * sizeof(llvmjit::Env);
      void* params[] = {&env, &begin, &end, &cells};
      check(d.api.cuLaunchKernel(fns[i], std::max(blocks, 1u), 1, 1, threads, 1, 1, 0, nullptr, params, nullptr),
            "cuLaunchKernel");
    }
    if (!deferrable) to_host();
  } catch (...) {
    finish();
    interp::flush_prints(ctx);
    throw;
  }
  finish();
  interp::flush_prints(ctx);
}

}  // namespace

}  // namespace kiln::cuda

namespace kiln {

std::unique_ptr<Engine> cuda::make_engine() {
  cuda::Device& d = cuda::device();
  if (!d.unavailable.empty()) raise("RuntimeError", "arch=cuda: " + d.unavailable);
  return std::make_unique<cuda::CudaEngine>(d);
}

AllocHooks cuda::alloc_hooks() {
  AllocHooks h;
  h.alloc = [](void*, size_t size, size_t) -> void* {
    cuda::Device& d = cuda::device();
    cuda::check(d.api.cuCtxSetCurrent(d.ctx), "cuCtxSetCurrent");
    return cuda::managed(size);
  };
  h.dealloc = [](void*, void* p, size_t) {
    cuda::Device& d = cuda::device();
    d.api.cuCtxSetCurrent(d.ctx);
    d.api.cuCtxSynchronize();  // no launch still uses it
    cuda::release(p);
  };
  return h;
}

}  // namespace kiln
