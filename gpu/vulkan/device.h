// The Vulkan device: one per process, made on first use. It picks a
// discrete GPU when there is one, else an integrated or virtual GPU, else a
// CPU implementation (Mesa's lavapipe), and enables the features codegen can
// use (device caps). SNode tree memory is allocated here, host-visible and
// coherent and mapped for good, so the runtime and host code read and write
// fields in place and a launch needs no copies (launches wait for the device
// before returning: host access after a launch sees its results).
#pragma once
#include <map>
#include <mutex>
#include <string>

#include <vulkan/vulkan.h>

#include "gpu/vulkan/codegen.h"

namespace kiln::vk {

struct Buffer {
  VkBuffer buf = VK_NULL_HANDLE;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  void* ptr = nullptr;
  size_t size = 0;
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
  VkFence fence = VK_NULL_HANDLE;
  DeviceCaps caps;
  std::string name;                  // "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::mutex mu;                     // one queue, one launch at a time
  std::map<const void*, Buffer> by_ptr;  // tree memory, by its mapped address

  Buffer create_buffer(size_t size);  // host-visible, coherent, mapped, storage
  void destroy_buffer(Buffer& b);
  // The buffer whose mapping starts at p (tree memory), or null.
  const Buffer* find(const void* p);
};

// The process's device, made on first call. Throws RuntimeError saying why
// when Vulkan or a usable device is missing.
Device& device();

}  // namespace kiln::vk
