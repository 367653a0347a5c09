// The `ti` module's state: the current Program, the compiled-kernel cache,
// and what `kiln dis` lists.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "vm/frontend/frontend.h"
#include "vm/host/host.h"
#include "vm/host/value.h"
#include "vm/runtime/program.h"

namespace kiln::host {

class Evaluator;

// One compiled instance of a kernel (per template arguments and arg types).
struct CompiledEntry {
  std::unique_ptr<CompiledKernel> code;
  std::vector<int> arg_slot;     // per parameter: kernel arg index, -1 for templates
  std::vector<Prim> arg_prims;   // per parameter: scalar type (none for templates)
  std::vector<Type> rets;
  std::vector<frontend::StaticValue> ret_types;  // the returned value's shape (LoweredKernel)
  bool ret_is_tuple = false;
  int num_args = 0;
  int num_global_temps = 0;
  std::vector<Value> keep_alive; // template arguments (their identity is in the key)
  double* launched = nullptr;    // the Program's launched_kernels counter (std::map nodes stay put)
};

struct TiState {
  HostOptions options;
  std::vector<KernelDump> dumps;
  std::unique_ptr<Program> program;  // null until ti.init or first use
  int generation = 0;                // bumped by every ti.init
  std::map<std::string, std::unique_ptr<CompiledEntry>> cache;  // cleared by ti.init
  uint64_t cache_epoch = 0;          // bumped whenever `cache` is cleared (entries die)
  std::unique_ptr<frontend::HostEnv> host_env;
  Value module;                      // the `ti` module object
};

// The current Program, created with default options if ti.init never ran.
Program& ti_program(Evaluator& ev);
// (Re)creates the Program with `cfg` (ti.init).
void ti_reset(Evaluator& ev, Config cfg);

// Applies the CLI's options (forced debug/print_ir, engine) to the ti module.
void configure_ti(Evaluator& ev, const HostOptions& options);
const std::vector<KernelDump>& ti_kernel_dumps(const Evaluator& ev);

// The HostEnv the frontend resolves kernel names through (host_env.cpp).
std::unique_ptr<frontend::HostEnv> make_host_env(Evaluator& ev);
frontend::StaticValue to_static(Evaluator& ev, const Value& v);

}  // namespace kiln::host
