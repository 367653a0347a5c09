// The CUDA backend as the rest of Kiln sees it: an Engine, the allocator that
// puts SNode trees in managed memory, and PTX for `kiln dis --ptx`. No CUDA or
// LLVM header here: vm/ti and tools include this only when Kiln is built with
// it (KILN_HAVE_CUDA; it needs LLVM's NVPTX target).
#pragma once
#include <memory>
#include <string>

#include "vm/runtime/engine.h"
#include "vm/support/alloc_hooks.h"

namespace kiln {

// Whether a CUDA device can run kernels here; else `why` says what is missing.
bool cuda_available(std::string* why = nullptr);
// Throws RuntimeError naming what is missing when no CUDA device can be used.
std::unique_ptr<Engine> make_cuda_engine();
// Tree memory the device and the host share (cuMemAllocManaged).
AllocHooks cuda_alloc_hooks();

// `kiln dis --ptx=DIR`: every task of every kernel compiled from now on is
// also compiled to PTX alone (for sm_$KILN_CUDA_SM, default 80) and written
// to DIR/<kernel>.<task>.ptx; a task that runs on the host gets
// DIR/<kernel>.<task>.host with the reason. Needs no GPU.
void set_ptx_dump_dir(const std::string& dir);
// Called by the compile path for each compiled kernel when a dump dir is set
// (`prog`: the SNode layout that sparse reads are lowered with).
void dump_ptx(const ir::Kernel& k, Program* prog);
bool ptx_dump_enabled();

}  // namespace kiln
