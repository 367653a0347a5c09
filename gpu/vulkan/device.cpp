// Instance, device selection, features and buffers (see device.h).
#include "gpu/vulkan/device.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "vm/support/diag.h"

namespace kiln::vk {

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) raise("RuntimeError", std::string("vulkan: ") + what + " failed (VkResult " + std::to_string((int)r) + ")");
}

// Discrete first, then integrated, virtual, CPU (lavapipe), anything else.
static int rank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

static bool has_extension(VkPhysicalDevice pd, const char* name) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> ext(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, ext.data());
  for (auto& e : ext)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

static VkResult create_instance(VkInstance* instance) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "kiln";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  LoaderEnv only_drivers_that_answer;
  return vkCreateInstance(&ici, nullptr, instance);
}

// The best-ranked Vulkan 1.2 device (SPIR-V 1.5 modules); phys stays null when none is.
static void pick(VkInstance instance, VkPhysicalDevice* phys, VkPhysicalDeviceProperties* props, uint32_t* listed) {
  uint32_t n = 0;
  vkEnumeratePhysicalDevices(instance, &n, nullptr);
  std::vector<VkPhysicalDevice> pds(n);
  vkEnumeratePhysicalDevices(instance, &n, pds.data());
  *listed = n;
  int best = 99;
  for (auto pd : pds) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(pd, &p);
    if (p.apiVersion < VK_API_VERSION_1_2) continue;
    if (rank(p.deviceType) < best) {
      best = rank(p.deviceType);
      *phys = pd;
      *props = p;
    }
  }
}

static void init(Device& d) {
  VkResult r = create_instance(&d.instance);
  if (r != VK_SUCCESS)
    raise("RuntimeError", "vulkan: no Vulkan driver could be loaded (vkCreateInstance: VkResult " + std::to_string((int)r) +
                              "); install a driver (Mesa's lavapipe: mesa-vulkan-drivers) or use arch=ti.cpu");
  uint32_t n = 0;
  pick(d.instance, &d.phys, &d.props, &n);
  if (!d.phys) raise("RuntimeError", "vulkan: no Vulkan 1.2 device found (" + std::to_string(n) + " devices listed)");
  d.name = d.props.deviceName;

  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  bool has_af = has_extension(d.phys, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, has_af ? &af : nullptr};
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
  vkGetPhysicalDeviceFeatures2(d.phys, &f2);
  d.caps.int64 = f2.features.shaderInt64;
  d.caps.float64 = f2.features.shaderFloat64;
  d.caps.int16 = f2.features.shaderInt16;
  d.caps.int8 = f12.shaderInt8;
  d.caps.float16 = f12.shaderFloat16;
  d.caps.storage8 = f12.storageBuffer8BitAccess;
  d.caps.storage16 = f11.storageBuffer16BitAccess;
  d.caps.int64_atomics = f12.shaderBufferInt64Atomics;
  d.caps.float32_atomic_add = has_af && af.shaderBufferFloat32AtomicAdd;
  d.caps.cpu = d.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  d.caps.max_local_x =
      std::min(d.props.limits.maxComputeWorkGroupSize[0], d.props.limits.maxComputeWorkGroupInvocations);
  if (d.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && d.name.find("llvmpipe") != std::string::npos)
    d.caps.loop_limit = 65535;
  // ti.simt: shared memory and the subgroup operations of compute shaders.
  d.caps.max_shared_bytes = d.props.limits.maxComputeSharedMemorySize;
  VkPhysicalDeviceSubgroupProperties sg{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 sp2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sg};
  vkGetPhysicalDeviceProperties2(d.phys, &sp2);
  if (sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) d.caps.subgroup_ops = sg.supportedOperations;
  d.caps.subgroup_size = sg.subgroupSize;
  d.caps.subgroup_extended_types = f12.shaderSubgroupExtendedTypes;
  // Enable exactly what the caps say (and nothing the shaders cannot use).
  VkPhysicalDeviceFeatures2 en2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  en2.features.shaderInt64 = f2.features.shaderInt64;
  en2.features.shaderFloat64 = f2.features.shaderFloat64;
  en2.features.shaderInt16 = f2.features.shaderInt16;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT en_af{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  en_af.shaderBufferFloat32AtomicAdd = d.caps.float32_atomic_add;
  VkPhysicalDeviceVulkan12Features en12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                        d.caps.float32_atomic_add ? &en_af : nullptr};
  en12.shaderInt8 = f12.shaderInt8;
  en12.shaderFloat16 = f12.shaderFloat16;
  en12.storageBuffer8BitAccess = f12.storageBuffer8BitAccess;
  en12.shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics;
  en12.shaderSubgroupExtendedTypes = f12.shaderSubgroupExtendedTypes;
  en12.timelineSemaphore = VK_TRUE;  // required of every Vulkan 1.2 device
  VkPhysicalDeviceVulkan11Features en11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &en12};
  en11.storageBuffer16BitAccess = f11.storageBuffer16BitAccess;
  en2.pNext = &en11;

  uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(d.phys, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> qfs(nq);
  vkGetPhysicalDeviceQueueFamilyProperties(d.phys, &nq, qfs.data());
  d.queue_family = 0;
  while (d.queue_family < nq && !(qfs[d.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT)) d.queue_family++;
  if (d.queue_family == nq) raise("RuntimeError", "vulkan: device '" + d.name + "' has no compute queue");
  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = d.queue_family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &prio;
  std::vector<const char*> exts;
  if (d.caps.float32_atomic_add) exts.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  // Tree memory imported from our own mappings (Device::create_zeroed).
  d.host_import = has_extension(d.phys, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  if (d.host_import) {
    exts.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &hp};
    vkGetPhysicalDeviceProperties2(d.phys, &p2);
    d.import_align = std::max<VkDeviceSize>(hp.minImportedHostPointerAlignment, 1);
    d.caps.stack_window = 1ull << 30;  // untouched pages of the call stack cost nothing
  }
  d.caps.stack_window = std::min<uint64_t>(d.caps.stack_window, d.props.limits.maxStorageBufferRange);
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &en2};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = (uint32_t)exts.size();
  dci.ppEnabledExtensionNames = exts.data();
  check(vkCreateDevice(d.phys, &dci, nullptr, &d.dev), "vkCreateDevice");
  vkGetDeviceQueue(d.dev, d.queue_family, 0, &d.queue);
  vkGetPhysicalDeviceMemoryProperties(d.phys, &d.mem_props);
  VkCommandPoolCreateInfo cpi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cpi.queueFamilyIndex = d.queue_family;
  cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  check(vkCreateCommandPool(d.dev, &cpi, nullptr, &d.cmd_pool), "vkCreateCommandPool");
  VkSemaphoreTypeCreateInfo stci{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  stci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &stci};
  check(vkCreateSemaphore(d.dev, &sci, nullptr, &d.timeline), "vkCreateSemaphore (timeline)");
}

Device& device() {
  // Made once and kept for the process: tree memory may outlive a Program
  // (AllocHooks are plain function pointers), and the driver's threads are
  // better left to process exit than torn down under a static destructor.
  static std::mutex mu;
  static Device* dev = nullptr;
  static std::string failure;
  std::lock_guard<std::mutex> lock(mu);
  if (dev) return *dev;
  if (!failure.empty()) raise("RuntimeError", failure);
  auto d = std::make_unique<Device>();
  try {
    init(*d);
  } catch (Error& e) {
    failure = e.message;
    throw;
  }
  dev = d.release();
  return *dev;
}

std::string gpu_missing(bool* cpu_only) {
  // Asked once per process (ti.gpu at each ti.init): an instance and the
  // device list, no device, so a program ti.gpu sends to the CPU pays no
  // device creation.
  static std::mutex mu;
  static std::optional<std::string> answer;
  static bool cpu = false;
  std::lock_guard<std::mutex> lock(mu);
  if (answer) {
    if (cpu_only) *cpu_only = cpu;
    return *answer;
  }
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = create_instance(&instance);
  if (r != VK_SUCCESS) return *(answer = "no Vulkan driver could be loaded (vkCreateInstance: VkResult " + std::to_string((int)r) + ")");
  VkPhysicalDevice phys = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props{};
  uint32_t n = 0;
  pick(instance, &phys, &props, &n);
  if (!phys) answer = "no Vulkan 1.2 device (" + std::to_string(n) + " listed)";
  else if ((cpu = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU))
    answer = std::string("Vulkan's only device, ") + props.deviceName + ", is a CPU implementation, slower than Kiln's CPU backend";
  else answer = "";
  vkDestroyInstance(instance, nullptr);
  if (cpu_only) *cpu_only = cpu;
  return *answer;
}

uint64_t Device::submit(VkCommandBuffer cb) {
  uint64_t value = submitted + 1;
  VkTimelineSemaphoreSubmitInfo tsi{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  tsi.signalSemaphoreValueCount = 1;
  tsi.pSignalSemaphoreValues = &value;
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, &tsi};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  si.signalSemaphoreCount = 1;
  si.pSignalSemaphores = &timeline;
  check(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
  return submitted = value;
}

void Device::wait(uint64_t value) {
  if (value <= completed) return;
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wi.semaphoreCount = 1;
  wi.pSemaphores = &timeline;
  wi.pValues = &value;
  check(vkWaitSemaphores(dev, &wi, UINT64_MAX), "waiting for the device");
  completed = value;
}

Buffer Device::create_buffer(size_t size) {
  Buffer b;
  b.size = size;
  b.serial = ++buffers_made;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = size;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(dev, &bci, nullptr, &b.buf), "vkCreateBuffer");
  VkMemoryRequirements mr;
  vkGetBufferMemoryRequirements(dev, b.buf, &mr);
  uint32_t want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, ti = 0;
  while (ti < mem_props.memoryTypeCount &&
         !((mr.memoryTypeBits & (1u << ti)) && (mem_props.memoryTypes[ti].propertyFlags & want) == want))
    ti++;
  if (ti == mem_props.memoryTypeCount) {
    vkDestroyBuffer(dev, b.buf, nullptr);
    raise("RuntimeError", "vulkan: device '" + name + "' has no host-visible coherent memory");
  }
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = mr.size;
  mai.memoryTypeIndex = ti;
  VkResult r = vkAllocateMemory(dev, &mai, nullptr, &b.mem);
  if (r != VK_SUCCESS) {
    vkDestroyBuffer(dev, b.buf, nullptr);
    raise("MemoryError", "vulkan: out of device memory: cannot allocate " + std::to_string(size) + " bytes");
  }
  check(vkBindBufferMemory(dev, b.buf, b.mem, 0), "vkBindBufferMemory");
  check(vkMapMemory(dev, b.mem, 0, VK_WHOLE_SIZE, 0, &b.ptr), "vkMapMemory");
  return b;
}

Buffer Device::create_zeroed(size_t size) {
  size_t bytes = (size + import_align - 1) / import_align * import_align;
  void* p = host_import ? mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                        : MAP_FAILED;
  if (p == MAP_FAILED) {
    Buffer b = create_buffer(size);
    std::memset(b.ptr, 0, size);
    return b;
  }
  Buffer b;
  b.size = size;
  b.serial = ++buffers_made;
  b.ptr = p;
  b.mapped_by_us = true;
  auto fail = [&](const char* what, VkResult r) {
    destroy_buffer(b);
    check(r, what);
  };
  VkExternalMemoryBufferCreateInfo ext{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  ext.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &ext};
  bci.size = bytes;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = vkCreateBuffer(dev, &bci, nullptr, &b.buf); r != VK_SUCCESS) fail("vkCreateBuffer (imported)", r);
  auto props_of = (PFN_vkGetMemoryHostPointerPropertiesEXT)vkGetDeviceProcAddr(dev, "vkGetMemoryHostPointerPropertiesEXT");
  VkMemoryHostPointerPropertiesEXT hp{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  if (VkResult r = props_of(dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, p, &hp); r != VK_SUCCESS)
    fail("vkGetMemoryHostPointerPropertiesEXT", r);
  VkMemoryRequirements mr;
  vkGetBufferMemoryRequirements(dev, b.buf, &mr);
  uint32_t want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, ti = 0, ok = mr.memoryTypeBits & hp.memoryTypeBits;
  while (ti < mem_props.memoryTypeCount && !((ok & (1u << ti)) && (mem_props.memoryTypes[ti].propertyFlags & want) == want)) ti++;
  if (ti == mem_props.memoryTypeCount) fail("importing host memory (no host-visible coherent type)", VK_ERROR_FEATURE_NOT_PRESENT);
  VkImportMemoryHostPointerInfoEXT imp{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
  imp.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  imp.pHostPointer = p;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &imp};
  mai.allocationSize = bytes;
  mai.memoryTypeIndex = ti;
  if (VkResult r = vkAllocateMemory(dev, &mai, nullptr, &b.mem); r != VK_SUCCESS) {
    destroy_buffer(b);
    raise("MemoryError", "vulkan: out of device memory: cannot import " + std::to_string(bytes) + " bytes of host memory");
  }
  if (VkResult r = vkBindBufferMemory(dev, b.buf, b.mem, 0); r != VK_SUCCESS) fail("vkBindBufferMemory (imported)", r);
  return b;
}

void Device::destroy_buffer(Buffer& b) {
  if (b.mem) {
    if (!b.mapped_by_us) vkUnmapMemory(dev, b.mem);
    vkFreeMemory(dev, b.mem, nullptr);
  }
  if (b.buf) vkDestroyBuffer(dev, b.buf, nullptr);
  if (b.mapped_by_us) munmap(b.ptr, (b.size + import_align - 1) / import_align * import_align);
  b = Buffer{};
}

const Buffer* Device::find(const void* p) {
  auto it = by_ptr.find(p);
  return it == by_ptr.end() ? nullptr : &it->second;
}

}  // namespace kiln::vk
