// The `ti` module's state: the current Program, compiled kernels, options.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "vm/host/host.h"

namespace kiln::host {

class Evaluator;

struct TiState {
  HostOptions options;
  std::vector<KernelDump> dumps;
};

// Applies the CLI's options (forced debug/print_ir, engine) to the ti module.
void configure_ti(Evaluator& ev, const HostOptions& options);
const std::vector<KernelDump>& ti_kernel_dumps(const Evaluator& ev);

}  // namespace kiln::host
