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
  std::vector<KernelArg> args;
  for (Bytes& b : buffers) args.push_back({true, std::move(b), 0, 0});
  std::vector<Bytes> out =
      run(image, entry, LaunchDims{{shape.grid, 1, 1}, {shape.block, 1, 1}, shape.dynamic_smem}, std::move(args));
  return out;
}

std::vector<Bytes> Gpu::run(const std::string& image, const std::string& entry, const LaunchDims& shape,
                            std::vector<KernelArg> args) const {
  const Driver& driver = context_->driver;
  const Driver::Api& api = driver.api();
  driver.check(api.cuCtxSetCurrent(context_->context), "cuCtxSetCurrent");
  RunResources res{api, {}, nullptr};
  driver.check(api.cuModuleLoadData(&res.module, image.c_str()), "cuModuleLoadData");
  CUfunction function = nullptr;
  driver.check(api.cuModuleGetFunction(&function, res.module, entry.c_str()), "cuModuleGetFunction");

  // One slot per argument: a device pointer, or the value itself.
  std::vector<std::uint64_t> slots(args.size(), 0);
  std::vector<std::size_t> buffer_of(args.size(), 0);
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_buffer) {
      slots[i] = args[i].value;
      continue;
    }
    CUdeviceptr p = 0;
    driver.check(api.cuMemAlloc(&p, args[i].bytes.empty() ? 1 : args[i].bytes.size()), "cuMemAlloc");
    res.memory.push_back(p);
    buffer_of[i] = res.memory.size() - 1;
    if (!args[i].bytes.empty())
      driver.check(api.cuMemcpyHtoD(p, args[i].bytes.data(), args[i].bytes.size()), "cuMemcpyHtoD");
    slots[i] = static_cast<std::uint64_t>(p);
  }
  std::vector<void*> params;
  for (std::uint64_t& s : slots) params.push_back(&s);  // little-endian: a narrower value is the slot's low bytes
  // Past the default 48 KB a kernel takes dynamic shared memory only when it
  // opts in (up to the device's limit, 227 KB on Hopper; beyond it this call fails).
  if (shape.dynamic_smem > 48 * 1024)
    driver.check(api.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        static_cast<int>(shape.dynamic_smem)),
                 "cuFuncSetAttribute");
  driver.check(api.cuLaunchKernel(function, shape.grid[0], shape.grid[1], shape.grid[2], shape.block[0], shape.block[1],
                                  shape.block[2], shape.dynamic_smem, nullptr, params.data(), nullptr),
               "cuLaunchKernel");
  driver.check(api.cuCtxSynchronize(), "cuCtxSynchronize");
  std::vector<Bytes> out(args.size());
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i].is_buffer && !args[i].bytes.empty()) {
      driver.check(api.cuMemcpyDtoH(args[i].bytes.data(), res.memory[buffer_of[i]], args[i].bytes.size()),
                   "cuMemcpyDtoH");
      out[i] = std::move(args[i].bytes);
    }
  return out;
}

}  // namespace mmacheck::cuda
