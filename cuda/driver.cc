#include "cuda/driver.h"

#include "core/base/error.h"

namespace mmacheck::cuda {

namespace {

// The release of the installed NVIDIA driver ("580.159.04") from NVML, which
// ships with every driver; "" when NVML cannot say.
std::string driver_release() {
  try {
    const DynamicLibrary nvml = DynamicLibrary::open({"libnvidia-ml.so.1"}, "NVML", true);
    using Status = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
    if (nvml.get<Status (*)()>("nvmlInit_v2")() != 0) return "";
    char version[96] = {};
    const Status got = nvml.get<Status (*)(char*, unsigned)>("nvmlSystemGetDriverVersion")(version, sizeof version);
    nvml.get<Status (*)()>("nvmlShutdown")();
    return got == 0 ? version : "";
  } catch (const Error&) {
    return "";
  }
}

}  // namespace

Driver Driver::load() {
  const DynamicLibrary lib = DynamicLibrary::open({"libcuda.so.1"}, "CUDA driver (libcuda.so.1)", true);
  auto api = std::make_shared<Api>(Api{
      lib,
      lib.get<decltype(&::cuInit)>("cuInit"),
      lib.get<decltype(&::cuDriverGetVersion)>("cuDriverGetVersion"),
      lib.get<decltype(&::cuGetErrorName)>("cuGetErrorName"),
      lib.get<decltype(&::cuGetErrorString)>("cuGetErrorString"),
      lib.get<decltype(&::cuDeviceGetCount)>("cuDeviceGetCount"),
      lib.get<decltype(&::cuDeviceGet)>("cuDeviceGet"),
      lib.get<decltype(&::cuDeviceGetName)>("cuDeviceGetName"),
      lib.get<decltype(&::cuDeviceGetAttribute)>("cuDeviceGetAttribute"),
      lib.get<decltype(&::cuDevicePrimaryCtxRetain)>("cuDevicePrimaryCtxRetain"),
      lib.get<decltype(&::cuDevicePrimaryCtxRelease_v2)>("cuDevicePrimaryCtxRelease_v2"),
      lib.get<decltype(&::cuCtxSetCurrent)>("cuCtxSetCurrent"),
      lib.get<decltype(&::cuCtxSynchronize)>("cuCtxSynchronize"),
      lib.get<decltype(&::cuModuleLoadData)>("cuModuleLoadData"),
      lib.get<decltype(&::cuModuleUnload)>("cuModuleUnload"),
      lib.get<decltype(&::cuModuleGetFunction)>("cuModuleGetFunction"),
      lib.get<decltype(&::cuMemAlloc_v2)>("cuMemAlloc_v2"),
      lib.get<decltype(&::cuMemFree_v2)>("cuMemFree_v2"),
      lib.get<decltype(&::cuMemcpyHtoD_v2)>("cuMemcpyHtoD_v2"),
      lib.get<decltype(&::cuMemcpyDtoH_v2)>("cuMemcpyDtoH_v2"),
      lib.get<decltype(&::cuLaunchKernel)>("cuLaunchKernel"),
      lib.get<decltype(&::cuFuncSetAttribute)>("cuFuncSetAttribute"),
      lib.get<decltype(&::cuMemAllocHost_v2)>("cuMemAllocHost_v2"),
      lib.get<decltype(&::cuMemFreeHost)>("cuMemFreeHost"),
      lib.get<decltype(&::cuStreamCreate)>("cuStreamCreate"),
      lib.get<decltype(&::cuStreamDestroy_v2)>("cuStreamDestroy_v2"),
      lib.get<decltype(&::cuStreamSynchronize)>("cuStreamSynchronize"),
      lib.get<decltype(&::cuMemcpyHtoDAsync_v2)>("cuMemcpyHtoDAsync_v2"),
      lib.get<decltype(&::cuMemcpyDtoHAsync_v2)>("cuMemcpyDtoHAsync_v2"),
      lib.get<decltype(&::cuMemsetD8Async)>("cuMemsetD8Async"),
      lib.get<decltype(&::cuTensorMapEncodeTiled)>("cuTensorMapEncodeTiled"),
  });
  const Driver driver(std::move(api));
  driver.check(driver.api().cuInit(0), "cuInit");
  return driver;
}

void Driver::check(CUresult r, const char* call) const {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  if (api_->cuGetErrorName(r, &name) != CUDA_SUCCESS) name = nullptr;
  if (api_->cuGetErrorString(r, &text) != CUDA_SUCCESS) text = nullptr;
  throw Error(std::string(call) + ": " + (name ? name : "CUresult " + std::to_string(r)) +
              (text ? " (" + std::string(text) + ")" : ""));
}

std::string Driver::cuda_version() const {
  int v = 0;
  check(api_->cuDriverGetVersion(&v), "cuDriverGetVersion");
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

int Driver::device_count() const {
  int n = 0;
  check(api_->cuDeviceGetCount(&n), "cuDeviceGetCount");
  return n;
}

DeviceInfo Driver::device_info(int ordinal) const {
  CUdevice dev{};
  check(api_->cuDeviceGet(&dev, ordinal), "cuDeviceGet");
  char name[256] = {};
  check(api_->cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
  int major = 0, minor = 0;
  check(api_->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "cuDeviceGetAttribute");
  check(api_->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "cuDeviceGetAttribute");
  DeviceInfo info;
  info.name = name;
  info.sm = 10 * major + minor;
  check(api_->cuDriverGetVersion(&info.driver_version), "cuDriverGetVersion");
  info.driver_release = driver_release();
  return info;
}

}  // namespace mmacheck::cuda
