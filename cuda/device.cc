#include "cuda/device.h"

#include <cuda.h>
#include <dlfcn.h>

namespace mmacheck::cuda {

namespace {
template <typename F>
F symbol(void* lib, const char* name) {
  return reinterpret_cast<F>(dlsym(lib, name));
}
}  // namespace

std::optional<DeviceInfo> probe_device(std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<DeviceInfo> {
    if (why) *why = reason;
    return std::nullopt;
  };
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return fail("no CUDA driver (libcuda.so.1 not found)");
  auto init = symbol<CUresult (*)(unsigned)>(lib, "cuInit");
  auto count = symbol<CUresult (*)(int*)>(lib, "cuDeviceGetCount");
  auto get = symbol<CUresult (*)(CUdevice*, int)>(lib, "cuDeviceGet");
  auto name = symbol<CUresult (*)(char*, int, CUdevice)>(lib, "cuDeviceGetName");
  auto attr = symbol<CUresult (*)(int*, CUdevice_attribute, CUdevice)>(lib, "cuDeviceGetAttribute");
  auto version = symbol<CUresult (*)(int*)>(lib, "cuDriverGetVersion");
  if (!init || !count || !get || !name || !attr || !version) return fail("CUDA driver lacks entry points");
  int n = 0;
  if (init(0) != CUDA_SUCCESS || count(&n) != CUDA_SUCCESS || n == 0) return fail("no CUDA device");
  CUdevice dev{};
  char buf[256] = {};
  int major = 0, minor = 0;
  DeviceInfo info;
  if (get(&dev, 0) != CUDA_SUCCESS || name(buf, sizeof buf, dev) != CUDA_SUCCESS ||
      attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) != CUDA_SUCCESS ||
      attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) != CUDA_SUCCESS ||
      version(&info.driver_version) != CUDA_SUCCESS)
    return fail("CUDA device 0 cannot be queried");
  info.name = buf;
  info.sm = 10 * major + minor;
  return info;
}

}  // namespace mmacheck::cuda
