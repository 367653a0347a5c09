// kiln_query_capabilities: the engines this build has (asking each engine
// which dtypes it computes with) and the GPU devices the machine has, probed
// at run time through the Vulkan loader and the CUDA driver when they can be
// loaded (dlopen: neither is needed to build or run Kiln).
#include <dlfcn.h>
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <cstring>
#include <mutex>

#include "jit/jit.h"
#include "vm/capi/capi_state.h"
#include "vm/interp/interp.h"

using namespace kiln;
using namespace kiln::capi;

namespace {

struct Devices {
  int vulkan = 0, vulkan_cpu = 0, cuda = 0;
  char vulkan_name[256] = "";
};

void probe_vulkan(Devices& d) {
  void* lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;
  auto gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
  auto create = gipa ? (PFN_vkCreateInstance)gipa(nullptr, "vkCreateInstance") : nullptr;
  if (create) {
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "kiln_query_capabilities";
    app.apiVersion = VK_API_VERSION_1_0;
    VkInstanceCreateInfo ci{};
    ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ci.pApplicationInfo = &app;
    VkInstance inst = VK_NULL_HANDLE;
    if (create(&ci, nullptr, &inst) == VK_SUCCESS) {
      auto enumerate = (PFN_vkEnumeratePhysicalDevices)gipa(inst, "vkEnumeratePhysicalDevices");
      auto props = (PFN_vkGetPhysicalDeviceProperties)gipa(inst, "vkGetPhysicalDeviceProperties");
      auto destroy = (PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance");
      uint32_t n = 0;
      if (enumerate && props && enumerate(inst, &n, nullptr) == VK_SUCCESS && n) {
        std::vector<VkPhysicalDevice> devs(n);
        if (enumerate(inst, &n, devs.data()) == VK_SUCCESS || n) {
          for (uint32_t i = 0; i < n; i++) {
            VkPhysicalDeviceProperties p{};
            props(devs[i], &p);
            if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) d.vulkan_cpu++;
            if (i == 0) std::snprintf(d.vulkan_name, sizeof d.vulkan_name, "%s", p.deviceName);
          }
          d.vulkan = (int)n;
        }
      }
      if (destroy) destroy(inst, nullptr);
    }
  }
  // Not dlclose'd: Mesa's drivers register process-wide state that outlives an unload badly.
}

void probe_cuda(Devices& d) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;
  using Init = int (*)(unsigned);
  using Count = int (*)(int*);
  auto init = (Init)dlsym(lib, "cuInit");
  auto count = (Count)dlsym(lib, "cuDeviceGetCount");
  int n = 0;
  if (init && count && init(0) == 0 && count(&n) == 0) d.cuda = n;
}

const Devices& devices() {
  static Devices d;
  static std::once_flag once;
  std::call_once(once, [] {
    probe_vulkan(d);
    probe_cuda(d);
  });
  return d;
}

uint32_t dtype_mask(const Engine& e) {
  uint32_t m = 0;
  for (int t = KILN_I8; t <= KILN_F64; t++)
    if (e.supports(prim_of((kiln_dtype)t))) m |= 1u << t;
  return m;
}

}  // namespace

extern "C" kiln_status kiln_query_capabilities(kiln_capabilities* out) {
  return guard(nullptr, [&] {
    need(out, "out");
    kiln_capabilities c{};
    auto interp = make_interp_engine();
    auto jit = make_jit_engine();
    for (Engine* e : {interp.get(), jit.get()}) {
      c.engines[c.num_engines] = e->name();  // string literals
      c.engine_dtypes[c.num_engines] = dtype_mask(*e);
      c.num_engines++;
    }
    const Devices& d = devices();
    c.vulkan_devices = d.vulkan;
    c.vulkan_cpu_devices = d.vulkan_cpu;
    std::memcpy(c.vulkan_device_name, d.vulkan_name, sizeof c.vulkan_device_name);
    c.cuda_devices = d.cuda;
    *out = c;
  });
}
