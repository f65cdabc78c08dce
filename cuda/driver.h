// Driver — the CUDA driver API, loaded at run time (dlopen "libcuda.so.1",
// never unloaded: the driver runs threads of its own), its entry points
// resolved once.  A value type; copies share the library.
//
//     const Driver driver = Driver::load();   // throws Error when there is no driver
//     driver.check(driver.api().cuCtxSynchronize(), "cuCtxSynchronize");
//     // failure: Error "cuCtxSynchronize: CUDA_ERROR_ILLEGAL_INSTRUCTION (an illegal instruction ...)"
#pragma once

#include <cuda.h>

#include <memory>
#include <string>

#include "cuda/device.h"
#include "cuda/dynamic_library.h"

namespace mmacheck::cuda {

class Driver {
 public:
  // The entry points mmacheck uses, under their unversioned names.
  struct Api {
    DynamicLibrary lib;
    decltype(&::cuInit) cuInit;
    decltype(&::cuDriverGetVersion) cuDriverGetVersion;
    decltype(&::cuGetErrorName) cuGetErrorName;
    decltype(&::cuGetErrorString) cuGetErrorString;
    decltype(&::cuDeviceGetCount) cuDeviceGetCount;
    decltype(&::cuDeviceGet) cuDeviceGet;
    decltype(&::cuDeviceGetName) cuDeviceGetName;
    decltype(&::cuDeviceGetAttribute) cuDeviceGetAttribute;
    decltype(&::cuDevicePrimaryCtxRetain) cuDevicePrimaryCtxRetain;
    decltype(&::cuDevicePrimaryCtxRelease_v2) cuDevicePrimaryCtxRelease;
    decltype(&::cuCtxSetCurrent) cuCtxSetCurrent;
    decltype(&::cuCtxSynchronize) cuCtxSynchronize;
    decltype(&::cuModuleLoadData) cuModuleLoadData;
    decltype(&::cuModuleUnload) cuModuleUnload;
    decltype(&::cuModuleGetFunction) cuModuleGetFunction;
    decltype(&::cuMemAlloc_v2) cuMemAlloc;
    decltype(&::cuMemFree_v2) cuMemFree;
    decltype(&::cuMemcpyHtoD_v2) cuMemcpyHtoD;
    decltype(&::cuMemcpyDtoH_v2) cuMemcpyDtoH;
    decltype(&::cuLaunchKernel) cuLaunchKernel;
    // Dynamic shared memory above 48 KB (cuda/wgmma_kernel.h) needs the kernel's opt-in.
    decltype(&::cuFuncSetAttribute) cuFuncSetAttribute;
    // Batched runs (cuda/gemm_stream.h): page-locked host memory, streams, async copies.
    decltype(&::cuMemAllocHost_v2) cuMemAllocHost;
    decltype(&::cuMemFreeHost) cuMemFreeHost;
    decltype(&::cuStreamCreate) cuStreamCreate;
    decltype(&::cuStreamDestroy_v2) cuStreamDestroy;
    decltype(&::cuStreamSynchronize) cuStreamSynchronize;
    decltype(&::cuMemcpyHtoDAsync_v2) cuMemcpyHtoDAsync;
    decltype(&::cuMemcpyDtoHAsync_v2) cuMemcpyDtoHAsync;
    decltype(&::cuMemsetD8Async) cuMemsetD8Async;
    // TMA kernels (gpu FILE.ptx with tensor maps): the CUtensorMap passed by value.
    decltype(&::cuTensorMapEncodeTiled) cuTensorMapEncodeTiled;
  };

  // Loads and initialises the driver (cuInit).  Throws Error when the
  // library is absent or cuInit fails (e.g. no device: CUDA_ERROR_NO_DEVICE).
  static Driver load();

  const Api& api() const { return *api_; }
  // Throws Error("CALL: NAME (description)") unless r is CUDA_SUCCESS.
  void check(CUresult r, const char* call) const;
  // The driver's CUDA version as "13.0" (cuDriverGetVersion).
  std::string cuda_version() const;
  int device_count() const;
  // Name, compute capability and versions of device `ordinal`.
  DeviceInfo device_info(int ordinal) const;

 private:
  explicit Driver(std::shared_ptr<const Api> api) : api_(std::move(api)) {}
  std::shared_ptr<const Api> api_;
};

}  // namespace mmacheck::cuda
