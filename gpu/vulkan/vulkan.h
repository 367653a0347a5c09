// The Vulkan backend as the rest of Kiln sees it: an Engine and the
// allocator that puts SNode trees in device-visible memory. No Vulkan
// header here: vm/ti includes this only when Kiln is built with Vulkan
// (KILN_HAVE_VULKAN; CMake option KILN_VULKAN).
#pragma once
#include <memory>
#include <string>

#include "vm/runtime/engine.h"
#include "vm/support/alloc_hooks.h"

namespace kiln {

// Throws RuntimeError when no Vulkan device can be used (never falls back).
std::unique_ptr<Engine> make_vulkan_engine();
// The device make_vulkan_engine uses ("llvmpipe (LLVM 15.0.6, 256 bits)").
std::string vulkan_device_name();
// Empty when Vulkan has a GPU (discrete, integrated or virtual), else why
// not: ti.gpu then runs on the CPU backend rather than on lavapipe, which
// runs compute shaders on the CPU several times slower than the JIT
// (*cpu_only says that was the reason).
std::string vulkan_gpu_missing(bool* cpu_only = nullptr);
// Tree memory from the device: host-visible, coherent, mapped buffers.
AllocHooks vulkan_alloc_hooks();

}  // namespace kiln
