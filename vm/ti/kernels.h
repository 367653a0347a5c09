// The `ti` layer's kernels, below both hosts (the CPython binding in python/
// and the built-in module evaluator in vm/host): a Program made from ti.init's
// options, and one kernel instance compiled and launched.
//
// A host decides what a call means (binding Python arguments, classifying
// parameters by annotation, the cache key); from there the path is the same:
//   KernelRequest --compile_kernel--> CompiledEntry --launch_kernel--> return slots
// compile_kernel runs the frontend, seed 000's dtype legalization, the pass
// pipeline and the engine, and records the statistics and the dump that
// `kiln dis` prints. launch_kernel fills a LaunchContext and runs every task.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vm/frontend/frontend.h"
#include "vm/types/value.h"
#include "vm/runtime/program.h"

namespace kiln {

// Every kernel compiled so far, in compilation order (for `kiln dis`).
struct KernelDump {
  std::string name;      // qualified name: "fill", "Sim.step"
  std::string ir;        // ir::print_kernel after the pass pipeline
  std::string bytecode;  // CompiledKernel::disassemble()
};

namespace ti {

// What a host adds to ti.init's own options: the CLI's forced flags and the
// embedding application's choices.
struct ProgramOptions {
  bool force_debug = false;
  bool force_print_ir = false;
  std::string engine;             // "" = KILN_ENGINE, else "jit"
  int threads = 0;                // when ti.init does not say (0 = one per core)
  interp::DebugHook* debugger = nullptr;
  AllocHooks alloc_hooks;
};

// The Config::arch for ti.init(arch=NAME): "vulkan" for ti.vulkan, "cuda"
// for ti.cuda (an error at make_program where no device is), ti.gpu: "cuda"
// where a device is, else "cpu" (Vulkan does not cover the whole language
// yet); "cpu" for ti.cpu/x64/arm64 and Taichi's other backends (metal,
// opengl...), which Kiln does not have. $KILN_ARCH overrides it in make_program.
std::string arch_from_name(const std::string& name);
// The Config::arch for ti.init(arch=NAMES, enable_fallback=FALLBACK), as Taichi
// chooses: the first of NAMES this machine can run (ti.gpu always can: it is
// the CPU where there is no CUDA device). When none can, FALLBACK (Taichi's
// default) runs on the CPU and sets *warning to say why; otherwise the first
// name's backend gives its own error at make_program. With $KILN_ARCH set
// nothing falls back: make_program runs on the backend it names.
std::string select_arch(const std::vector<std::string>& names, bool fallback, std::string* warning);
// Whether arch=vulkan can run here (built with it and a device found).
bool vulkan_available();
// Empty when ti.gpu can run on a Vulkan GPU, else why not (see arch_from_name);
// *cpu_only when Vulkan has only a CPU implementation (lavapipe).
std::string vulkan_gpu_missing(bool* cpu_only = nullptr);
// Whether arch=cuda can run here (built with it, a driver and a device found).
bool cuda_available();

// A Program for `cfg` with its engine ("interp", "jit"; the debugger forces
// the interpreter). Throws ValueError for an unknown engine name.
std::unique_ptr<Program> make_program(Config cfg, const ProgramOptions& o);
// At a host's exit: waits for the compiles the default engine runs in the
// background (jit/llvm/tiered.cpp), which must not outlive LLVM's statics.
void wait_for_background_compiles();

// One compiled instance of a kernel (per template arguments and arg types).
struct CompiledEntry {
  std::unique_ptr<CompiledKernel> code;
  std::vector<int> arg_slot;     // per parameter: its first kernel arg slot, -1 for templates
  std::vector<int> companion_slot;  // per parameter: its grad/dual ndarray's first slot (autodiff), -1 none
  std::vector<Prim> arg_prims;   // per parameter: its scalar type, none otherwise (the host fills it)
  std::vector<Type> rets;        // flattened scalar return slots
  std::vector<frontend::StaticValue> ret_types;  // the returned value's shape (LoweredKernel)
  bool ret_is_tuple = false;
  int num_args = 0;
  int num_global_temps = 0;
  std::vector<std::shared_ptr<void>> keep_alive;  // host objects whose identity is in the cache key (python/core/kernel.cpp: weak references to those that take them)
  double* launched = nullptr;    // the Program's launched_kernels counter (std::map nodes stay put)
  // True when the return is one scalar or nothing (no rebuilding of compounds).
  bool plain_return() const;
};

// Lowers and compiles `req`. Warnings (implicit casts) and, under print_ir,
// the IR go to `err`; the dump is appended to `dumps`. Throws kiln::Error.
std::unique_ptr<CompiledEntry> compile_kernel(const frontend::KernelRequest& req, frontend::HostEnv& env, Program& prog,
                                              std::vector<KernelDump>* dumps,
                                              const std::function<void(std::string_view)>& err);

// Runs every task of `ce` with argument slots `args` (num_args of them: ints
// sign/zero-extended, floats as their bits, f32 in the low 4 bytes). The
// return slots land in `rets`, each masked to its type's width.
void launch_kernel(CompiledEntry& ce, Program& prog, const uint64_t* args, std::vector<uint64_t>& rets);

// A return slot as a constant of its type.
ConstVal return_value(const CompiledEntry& ce, size_t slot, uint64_t bits);

}  // namespace ti
}  // namespace kiln
