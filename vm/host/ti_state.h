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
#include "vm/ti/kernels.h"

namespace kiln::host {

class Evaluator;

struct TiState {
  HostOptions options;
  std::vector<KernelDump> dumps;
  std::unique_ptr<Program> program;  // null until ti.init or first use
  int generation = 0;                // bumped by every ti.init
  std::map<std::string, std::unique_ptr<ti::CompiledEntry>> cache;  // cleared by ti.init
  uint64_t cache_epoch = 0;          // bumped whenever `cache` is cleared (entries die)
  // Kernels are named in cache keys by a serial number, never by address, so
  // a dying kernel can take its entries with it (KernelObj's destructor),
  // through this token, which dies with the state.
  uint64_t next_kernel_id = 0;
  std::shared_ptr<TiState*> alive = std::make_shared<TiState*>(this);
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
