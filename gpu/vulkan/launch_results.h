// After a launch: the device's print records and error record become the
// kernel's output and exception, as the interpreter would have produced them.
#pragma once
#include <cstdint>

#include "gpu/vulkan/codegen.h"
#include "vm/runtime/engine.h"

namespace kiln::vk {

// Formats the print records (ordered by task, iteration and sequence, as a
// serial run prints them; those after a failed check are dropped, as that run
// would have stopped there), flushes them, then raises the recorded failure.
void finish_launch(const KernelShaders& ks, const uint32_t* err, const uint32_t* prints, LaunchContext& ctx);

}  // namespace kiln::vk
