// The CUDA backend as the LLVM module's entry table (jit/llvm/module.cpp)
// sees it: an Engine, the allocator that puts SNode trees in managed memory,
// and PTX for `kiln dis --ptx`. No CUDA or LLVM header here. The core reaches
// these through jit/llvm_module.h; the driver itself (driver.h) is the core's.
#pragma once
#include <memory>
#include <string>

#include "vm/runtime/engine.h"
#include "vm/support/alloc_hooks.h"

namespace kiln::cuda {

// Throws RuntimeError naming what is missing when no CUDA device can be used.
std::unique_ptr<Engine> make_engine();
// Tree memory the device and the host share (cuMemAllocManaged).
AllocHooks alloc_hooks();
// `kiln dis --ptx=DIR` for one kernel: each task compiled to PTX alone (for
// sm_$KILN_CUDA_SM, default 80) in DIR/<kernel>.<task>.ptx; a task that runs
// on the host gets DIR/<kernel>.<task>.host with the reason. Needs no GPU.
// `prog`: the SNode layout that sparse reads are lowered with.
void dump_ptx(const ir::Kernel& k, Program* prog, const std::string& dir);

}  // namespace kiln::cuda
