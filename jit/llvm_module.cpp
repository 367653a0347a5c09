// Loading Kiln's LLVM module (libkiln_llvm.so; jit/llvm/module_abi.h) at its
// first use, and the core's entry points into it (jit/llvm_module.h).
#include "jit/llvm_module.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "jit/llvm/module_abi.h"
#include "vm/support/diag.h"
#ifdef KILN_HAVE_CUDA
#include "gpu/cuda/driver.h"
#endif

namespace kiln {

namespace {

struct Loaded {
  const KilnLlvmModuleTable* table = nullptr;
  std::string error;  // why table is null
};

#ifdef KILN_HAVE_LLVM

std::string dir_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::string real(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

// The folder of the object that holds the core: a shared library (the Python
// extension; `library` gets the name it was loaded by) or the executable.
std::string core_dir(std::string& library) {
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(&core_dir), &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) && map &&
      map->l_name && map->l_name[0]) {  // the executable's name is empty
    library = map->l_name;
    return dir_of(real(library));
  }
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? dir_of(std::string(buf, (size_t)n)) : "";
}

Loaded load() {
  std::string library;
  std::string dir = core_dir(library);
  // The module's references to the core bind through the global scope: an
  // executable exports its symbols (linked with --export-dynamic), a library
  // loaded RTLD_LOCAL (CPython's extensions) is made global first.
  if (!library.empty()) dlopen(library.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
  std::vector<std::string> candidates;
  if (const char* e = std::getenv("KILN_LLVM_MODULE"); e && *e) {
    candidates.push_back(e);
  } else {
    if (!dir.empty()) candidates.push_back(dir + "/" KILN_LLVM_MODULE_FILE);
#ifdef KILN_LLVM_MODULE_BUILD_DIR
    std::string built = KILN_LLVM_MODULE_BUILD_DIR "/" KILN_LLVM_MODULE_FILE;
    if (candidates.empty() || real(built) != real(candidates[0])) candidates.push_back(built);
#endif
  }
  std::string tried;
  for (const std::string& path : candidates) {
    if (access(path.c_str(), F_OK) != 0) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* why = dlerror();
      return {nullptr, "cannot load Kiln's LLVM module " + path + ": " + (why ? why : "dlopen failed")};
    }
    auto entry = reinterpret_cast<KilnLlvmModuleEntry>(dlsym(h, KILN_LLVM_MODULE_ENTRY));
    if (!entry) return {nullptr, path + " is not Kiln's LLVM module (it has no " KILN_LLVM_MODULE_ENTRY ")"};
    const KilnLlvmModuleTable* t = entry();
    if (!t || t->abi != KILN_LLVM_MODULE_ABI || t->layout != kiln_llvm_module_layout())
      return {nullptr, "Kiln's LLVM module " + path + " was built from another Kiln (its entry table or type layout "
                       "differs from this one's): rebuild it with this Kiln"};
    // Registered after the module's own static destructors (and LLVM's), so
    // that at exit it runs before them: no compile is left running under them.
    std::atexit([] { wait_for_tier_compiles(); });
    const char* v = std::getenv("KILN_LLVM_VERBOSE");
    if (v && *v && *v != '0') std::fprintf(stderr, "llvm: module %s\n", real(path).c_str());
    return {t, ""};
  }
  return {nullptr, "Kiln's LLVM module " KILN_LLVM_MODULE_FILE " was not found (looked for " + tried +
                       "; KILN_LLVM_MODULE may name its path)"};
}

#else

Loaded load() { return {nullptr, "this Kiln was built without LLVM (cmake -DKILN_LLVM=ON with llvm-19-dev)"}; }

#endif

const Loaded& loaded() {
  static const Loaded l = load();  // once per process, whichever thread asks first
  return l;
}

std::string& ptx_dir() {
  static std::string d;
  return d;
}

}  // namespace

const KilnLlvmModuleTable* try_llvm_module(std::string* why) {
  const Loaded& l = loaded();
  if (!l.table && why) *why = l.error;
  return l.table;
}

const KilnLlvmModuleTable& llvm_module(const std::string& who) {
  const Loaded& l = loaded();
  if (!l.table) raise("RuntimeError", who + ": " + l.error);
  return *l.table;
}

std::unique_ptr<Engine> make_llvm_engine() {
  return std::unique_ptr<Engine>(llvm_module("engine 'llvm'").make_llvm_engine());
}

namespace {
std::atomic<bool> tier_started{false};
}

void start_llvm_tier() {
  llvm_module("LLVM tier-up").start();
  tier_started.store(true, std::memory_order_release);
}

bool llvm_tier_started() { return tier_started.load(std::memory_order_acquire); }

LoweredLlvmKernel& LoweredLlvmKernel::operator=(LoweredLlvmKernel&& o) noexcept {
  if (this != &o) {
    LoweredLlvmKernel old(std::exchange(p, std::exchange(o.p, nullptr)));
  }
  return *this;
}

LoweredLlvmKernel::~LoweredLlvmKernel() {
  if (p) llvm_module("LLVM tier-up").drop_lowered(p);
}

LoweredLlvmKernel lower_llvm_kernel(const ir::Kernel& k, Program* prog) {
  return LoweredLlvmKernel(llvm_module("LLVM tier-up").lower_kernel(&k, prog));
}

std::unique_ptr<CompiledKernel> finish_llvm_kernel(LoweredLlvmKernel l, const ir::Kernel& k) {
  void* p = std::exchange(l.p, nullptr);
  return std::unique_ptr<CompiledKernel>(llvm_module("LLVM tier-up").finish_kernel(p, &k));
}

bool cuda_available(std::string* why) {
#ifdef KILN_HAVE_CUDA
  cuda::Device& d = cuda::device();
  if (why) *why = d.unavailable;
  return d.unavailable.empty();
#else
  if (why) *why = "this Kiln was built without the CUDA backend";
  return false;
#endif
}

static const KilnLlvmModuleTable& cuda_module() {
  const KilnLlvmModuleTable& m = llvm_module("arch=cuda");
  if (!m.make_cuda_engine) raise("RuntimeError", "arch=cuda: this Kiln's LLVM module has no NVPTX target");
  return m;
}

std::unique_ptr<Engine> make_cuda_engine() {
  std::string why;
  if (!cuda_available(&why)) raise("RuntimeError", "arch=cuda: " + why);
  return std::unique_ptr<Engine>(cuda_module().make_cuda_engine());
}

AllocHooks cuda_alloc_hooks() {
  AllocHooks h;
  cuda_module().cuda_alloc_hooks(&h);
  return h;
}

void set_ptx_dump_dir(const std::string& dir) { ptx_dir() = dir; }
bool ptx_dump_enabled() { return !ptx_dir().empty(); }

void dump_ptx(const ir::Kernel& k, Program* prog) {
  if (ptx_dir().empty()) return;
  const KilnLlvmModuleTable& m = llvm_module("kiln dis --ptx");
  if (!m.dump_ptx) raise("RuntimeError", "kiln dis --ptx: this Kiln's LLVM module has no NVPTX target");
  m.dump_ptx(&k, prog, ptx_dir().c_str());
}

}  // namespace kiln
