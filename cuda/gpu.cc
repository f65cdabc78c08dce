#include "cuda/gpu.h"

#include "core/base/error.h"

namespace mmacheck::cuda {

struct Gpu::Context {
  Driver driver;
  DeviceInfo info;
  CUdevice device{};
  CUcontext context = nullptr;
  int ordinal = 0;

  Context(const Driver& d, int ord) : driver(d), ordinal(ord) {
    const Driver::Api& api = driver.api();
    if (ordinal >= driver.device_count()) throw Error("no CUDA device " + std::to_string(ordinal));
    info = driver.device_info(ordinal);
    driver.check(api.cuDeviceGet(&device, ordinal), "cuDeviceGet");
    driver.check(api.cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    const CUresult current = api.cuCtxSetCurrent(context);
    if (current != CUDA_SUCCESS) {
      api.cuDevicePrimaryCtxRelease(device);
      driver.check(current, "cuCtxSetCurrent");
    }
  }
  ~Context() {
    driver.api().cuCtxSetCurrent(nullptr);
    driver.api().cuDevicePrimaryCtxRelease(device);
  }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
};

namespace {

// Device allocations and the module of one run(), freed on every way out.
struct RunResources {
  const Driver::Api& api;
  std::vector<CUdeviceptr> memory;
  CUmodule module = nullptr;
  ~RunResources() {
    for (CUdeviceptr p : memory) api.cuMemFree(p);
    if (module) api.cuModuleUnload(module);
  }
};

}  // namespace

Gpu::Gpu(const Driver& driver, int ordinal) : context_(std::make_shared<const Context>(driver, ordinal)) {}

const DeviceInfo& Gpu::info() const { return context_->info; }
const Driver& Gpu::driver() const { return context_->driver; }
int Gpu::ordinal() const { return context_->ordinal; }

void Gpu::make_current() const {
  context_->driver.check(context_->driver.api().cuCtxSetCurrent(context_->context), "cuCtxSetCurrent");
}

std::vector<Bytes> Gpu::run(const std::string& image, const std::string& entry, LaunchShape shape,
                            std::vector<Bytes> buffers) const {
  const Driver& driver = context_->driver;
  const Driver::Api& api = driver.api();
  driver.check(api.cuCtxSetCurrent(context_->context), "cuCtxSetCurrent");
  RunResources res{api, {}, nullptr};
  driver.check(api.cuModuleLoadData(&res.module, image.data()), "cuModuleLoadData");
  CUfunction function = nullptr;
  driver.check(api.cuModuleGetFunction(&function, res.module, entry.c_str()), "cuModuleGetFunction");

  for (const Bytes& buffer : buffers) {
    CUdeviceptr p = 0;
    driver.check(api.cuMemAlloc(&p, buffer.empty() ? 1 : buffer.size()), "cuMemAlloc");
    res.memory.push_back(p);
    if (!buffer.empty()) driver.check(api.cuMemcpyHtoD(p, buffer.data(), buffer.size()), "cuMemcpyHtoD");
  }
  std::vector<void*> params;
  for (CUdeviceptr& p : res.memory) params.push_back(&p);
  // Past the default 48 KB a kernel takes dynamic shared memory only when it
  // opts in (up to the device's limit, 227 KB on Hopper; beyond it this call fails).
  if (shape.dynamic_smem > 48 * 1024)
    driver.check(api.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        static_cast<int>(shape.dynamic_smem)),
                 "cuFuncSetAttribute");
  driver.check(api.cuLaunchKernel(function, shape.grid, 1, 1, shape.block, 1, 1, shape.dynamic_smem, nullptr,
                                  params.data(), nullptr),
               "cuLaunchKernel");
  driver.check(api.cuCtxSynchronize(), "cuCtxSynchronize");
  for (std::size_t i = 0; i < buffers.size(); ++i)
    if (!buffers[i].empty())
      driver.check(api.cuMemcpyDtoH(buffers[i].data(), res.memory[i], buffers[i].size()), "cuMemcpyDtoH");
  return buffers;
}

}  // namespace mmacheck::cuda
