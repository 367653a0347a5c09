#include "vm/host/evaluator.h"
#include "vm/host/ti_state.h"

namespace kiln::host {
void install_module_ti(Evaluator& ev) { ev.ti = std::make_unique<TiState>(); }
void configure_ti(Evaluator& ev, const HostOptions& options) { ev.ti->options = options; }
const std::vector<KernelDump>& ti_kernel_dumps(const Evaluator& ev) { return ev.ti->dumps; }
}  // namespace kiln::host
