// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1"): Kiln
// builds and runs where there is no driver (CI, these machines), and only
// arch=cuda needs one. The few entry points the engine uses are declared
// here by their documented C signatures (no cuda.h: the toolkit's headers
// are not a build dependency).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace kiln::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;

// Attribute and option numbers from the driver API's documentation.
enum : int {
  kAttrMaxThreadsPerBlock = 1,
  kAttrMultiprocessorCount = 16,
  kAttrMaxThreadsPerMultiprocessor = 39,
  kLimitStackSize = 0,
  kAttrComputeMajor = 75,
  kAttrComputeMinor = 76,
  kAttrManagedMemory = 83,
  kAttrConcurrentManagedAccess = 89,
  kJitErrorLogBuffer = 5,
  kJitErrorLogBufferSize = 6,
  kMemAttachGlobal = 1,
  kEventDisableTiming = 2,
};

struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAllocManaged)(CUdeviceptr*, size_t, unsigned);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream);
  CUresult (*cuMemAllocHost)(void**, size_t);
  CUresult (*cuMemFreeHost)(void*);
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemGetInfo)(size_t*, size_t*);
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char*);
  CUresult (*cuCtxGetLimit)(size_t*, int);
  CUresult (*cuCtxSetLimit)(int, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void**, void**);
  CUresult (*cuGetErrorName)(CUresult, const char**);
  CUresult (*cuGetErrorString)(CUresult, const char**);
};

// The first device, ready for use (its primary context), or why there is none.
struct Device {
  Driver api{};
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  std::string name;
  int sm = 0;             // compute capability as major * 10 + minor (90 for an H100)
  int multiprocessors = 0;
  int threads_per_multiprocessor = 0;  // resident threads at most (what a thread stack size is reserved for)
  int driver_version = 0;
  bool concurrent_managed = false;
  std::string unavailable;  // non-empty: why arch=cuda cannot run here
};

// Loads the driver and opens device 0 on first use; never throws.
Device& device();

// Raises RuntimeError("cuda: WHAT failed: NAME (description)") unless r is 0.
void check(CUresult r, const char* what);

}  // namespace kiln::cuda
