// Loading the CUDA driver: dlopen, one dlsym per entry point (the _v2 names
// where the API has them), then device 0 and its primary context. Any step
// that fails leaves Device::unavailable saying which, for arch=cuda's error.
#include "gpu/cuda/driver.h"

#include <dlfcn.h>

#include <mutex>

#include "vm/support/diag.h"

namespace kiln::cuda {

namespace {

template <typename F>
bool bind(void* lib, F& fn, const char* name, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn && missing.empty()) missing = name;
  return fn != nullptr;
}

std::string result_text(const Driver& api, CUresult r) {
  const char* name = nullptr;
  const char* desc = nullptr;
  if (api.cuGetErrorName) api.cuGetErrorName(r, &name);
  if (api.cuGetErrorString) api.cuGetErrorString(r, &desc);
  std::string s = name ? name : "CUDA error " + std::to_string(r);
  if (desc) s += std::string(" (") + desc + ")";
  return s;
}

void open(Device& d) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    d.unavailable = "no CUDA driver on this machine (libcuda.so.1 not found)";
    return;
  }
  Driver& a = d.api;
  std::string missing;
  bind(lib, a.cuInit, "cuInit", missing);
  bind(lib, a.cuDriverGetVersion, "cuDriverGetVersion", missing);
  bind(lib, a.cuDeviceGetCount, "cuDeviceGetCount", missing);
  bind(lib, a.cuDeviceGet, "cuDeviceGet", missing);
  bind(lib, a.cuDeviceGetName, "cuDeviceGetName", missing);
  bind(lib, a.cuDeviceGetAttribute, "cuDeviceGetAttribute", missing);
  bind(lib, a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", missing);
  bind(lib, a.cuCtxSetCurrent, "cuCtxSetCurrent", missing);
  bind(lib, a.cuCtxSynchronize, "cuCtxSynchronize", missing);
  bind(lib, a.cuMemAllocManaged, "cuMemAllocManaged", missing);
  bind(lib, a.cuMemAlloc, "cuMemAlloc_v2", missing);
  bind(lib, a.cuMemcpyHtoD, "cuMemcpyHtoD_v2", missing);
  bind(lib, a.cuMemcpyDtoH, "cuMemcpyDtoH_v2", missing);
  bind(lib, a.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", missing);
  bind(lib, a.cuMemAllocHost, "cuMemAllocHost_v2", missing);
  bind(lib, a.cuMemFreeHost, "cuMemFreeHost", missing);
  bind(lib, a.cuEventCreate, "cuEventCreate", missing);
  bind(lib, a.cuEventRecord, "cuEventRecord", missing);
  bind(lib, a.cuEventSynchronize, "cuEventSynchronize", missing);
  bind(lib, a.cuEventDestroy, "cuEventDestroy_v2", missing);
  bind(lib, a.cuMemFree, "cuMemFree_v2", missing);
  bind(lib, a.cuMemGetInfo, "cuMemGetInfo_v2", missing);
  bind(lib, a.cuModuleLoadDataEx, "cuModuleLoadDataEx", missing);
  bind(lib, a.cuModuleGetFunction, "cuModuleGetFunction", missing);
  bind(lib, a.cuModuleUnload, "cuModuleUnload", missing);
  bind(lib, a.cuModuleGetGlobal, "cuModuleGetGlobal_v2", missing);
  bind(lib, a.cuCtxGetLimit, "cuCtxGetLimit", missing);
  bind(lib, a.cuCtxSetLimit, "cuCtxSetLimit", missing);
  bind(lib, a.cuLaunchKernel, "cuLaunchKernel", missing);
  bind(lib, a.cuGetErrorName, "cuGetErrorName", missing);
  bind(lib, a.cuGetErrorString, "cuGetErrorString", missing);
  if (!missing.empty()) {
    d.unavailable = "the CUDA driver lacks " + missing;
    return;
  }
  CUresult r = a.cuInit(0);
  if (r != 0) {
    d.unavailable = "the CUDA driver did not start: " + result_text(a, r);
    return;
  }
  int count = 0;
  if ((r = a.cuDeviceGetCount(&count)) != 0 || count == 0) {
    d.unavailable = r ? "the CUDA driver found no device: " + result_text(a, r) : "no CUDA device on this machine";
    return;
  }
  a.cuDriverGetVersion(&d.driver_version);
  if ((r = a.cuDeviceGet(&d.dev, 0)) != 0 || (r = a.cuDevicePrimaryCtxRetain(&d.ctx, d.dev)) != 0 ||
      (r = a.cuCtxSetCurrent(d.ctx)) != 0) {
    d.unavailable = "CUDA device 0 could not be opened: " + result_text(a, r);
    return;
  }
  char name[256] = {};
  a.cuDeviceGetName(name, sizeof name - 1, d.dev);
  d.name = name;
  int major = 0, minor = 0, managed = 0, concurrent = 0;
  a.cuDeviceGetAttribute(&major, kAttrComputeMajor, d.dev);
  a.cuDeviceGetAttribute(&minor, kAttrComputeMinor, d.dev);
  a.cuDeviceGetAttribute(&d.multiprocessors, kAttrMultiprocessorCount, d.dev);
  a.cuDeviceGetAttribute(&d.threads_per_multiprocessor, kAttrMaxThreadsPerMultiprocessor, d.dev);
  a.cuDeviceGetAttribute(&managed, kAttrManagedMemory, d.dev);
  a.cuDeviceGetAttribute(&concurrent, kAttrConcurrentManagedAccess, d.dev);
  d.sm = major * 10 + minor;
  d.concurrent_managed = concurrent != 0;
  if (!managed) d.unavailable = "CUDA device '" + d.name + "' has no managed memory, which Kiln's fields live in";
  else if (d.sm < 60) d.unavailable = "CUDA device '" + d.name + "' is sm_" + std::to_string(d.sm) + "; Kiln needs sm_60 or newer";
}

}  // namespace

Device& device() {
  static Device d;
  static std::once_flag once;
  std::call_once(once, [] { open(d); });
  return d;
}

void check(CUresult r, const char* what) {
  if (r == 0) return;
  raise("RuntimeError", std::string("cuda: ") + what + " failed: " + result_text(device().api, r));
}

}  // namespace kiln::cuda
