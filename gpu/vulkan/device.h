// The Vulkan device: one per process, made on first use. It picks a
// discrete GPU when there is one, else an integrated or virtual GPU, else a
// CPU implementation (Mesa's lavapipe), and enables the features codegen can
// use (device caps). SNode tree memory is allocated here, host-visible and
// coherent and mapped for good, so the runtime and host code read and write
// fields in place and a launch needs no copies. A launch that reads nothing
// back returns once submitted; host access waits for the device first
// (Engine::sync, from Program::materialize).
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/vulkan/codegen.h"

namespace kiln::vk {

struct Buffer {
  VkBuffer buf = VK_NULL_HANDLE;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  void* ptr = nullptr;
  size_t size = 0;
  uint64_t serial = 0;  // unique per buffer made (handles may be reused once freed)
  bool mapped_by_us = false;  // ptr is our own anonymous mapping, imported (munmap it when freed)
};

// While alive, tells the Vulkan loader to load only the drivers that can
// answer: the CPU drivers where the machine has no GPU device nodes
// (loader_env.cpp). Variables the user set are left alone.
struct LoaderEnv {
  LoaderEnv();
  ~LoaderEnv();
  std::vector<const char*> set_vars;
};

struct Device {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice phys = VK_NULL_HANDLE;
  VkDevice dev = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  VkPhysicalDeviceMemoryProperties mem_props{};
  VkPhysicalDeviceProperties props{};
  VkCommandPool cmd_pool = VK_NULL_HANDLE;
  // Submits signal this timeline semaphore with 1, 2, 3, ... in submission
  // order: a launch waits for its own value, host access for `submitted`.
  VkSemaphore timeline = VK_NULL_HANDLE;
  uint64_t submitted = 0;  // the value the last submit signals
  uint64_t completed = 0;  // a value known reached (no call needed below it)
  uint64_t buffers_made = 0;
  DeviceCaps caps;
  std::string name;                  // "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::mutex mu;                     // one queue, one launch at a time
  std::map<const void*, Buffer> by_ptr;  // tree memory, by its mapped address

  // Submits `cb`, which signals the timeline with the value returned. Called
  // with `mu` held, as are wait and sync.
  uint64_t submit(VkCommandBuffer cb);
  // Waits until the submit that signals `value` (and all before it) ran.
  // Throws RuntimeError when the device fails.
  void wait(uint64_t value);
  void sync() { wait(submitted); }

  Buffer create_buffer(size_t size);  // host-visible, coherent, mapped, storage
  // Tree memory: zeroed, host-visible storage whose pages the OS commits on
  // first touch. With VK_EXT_external_memory_host it is an anonymous mapping
  // of our own imported whole (a 2 GiB window of device pools costs only the
  // pages a program writes); else create_buffer's memory, zeroed here.
  Buffer create_zeroed(size_t size);
  bool host_import = false;          // VK_EXT_external_memory_host is enabled
  VkDeviceSize import_align = 4096;  // minImportedHostPointerAlignment
  void destroy_buffer(Buffer& b);
  // The buffer whose mapping starts at p (tree memory), or null.
  const Buffer* find(const void* p);
};

// Throws RuntimeError "vulkan: WHAT failed (VkResult N)" unless r is VK_SUCCESS.
void check(VkResult r, const char* what);

// The process's device, made on first call. Throws RuntimeError saying why
// when Vulkan or a usable device is missing.
Device& device();
// Why ti.gpu should not pick Vulkan here (no driver, no 1.2 device, or only
// a CPU implementation such as lavapipe: *cpu_only); empty when a GPU is there.
std::string gpu_missing(bool* cpu_only = nullptr);

}  // namespace kiln::vk
