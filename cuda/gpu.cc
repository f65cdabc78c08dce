#include "cuda/gpu.h"

#include <bit>

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

// cuTensorMapEncodeTiled of `a.map` over the buffer at `address`.
void encode_tensor_map(const Driver& driver, const KernelArg& a, std::uint64_t address, CUtensorMap& out) {
  const TensorMap& m = a.map;
  const auto rank = static_cast<std::size_t>(m.rank());
  std::vector<cuuint64_t> dims(m.dims.begin(), m.dims.end()), strides(m.strides.begin(), m.strides.end());
  std::vector<cuuint32_t> box(m.box.begin(), m.box.end()), element_strides(rank, 1);
  for (std::size_t d = 0; d < m.element_strides.size() && d < rank; ++d)
    element_strides[d] = static_cast<cuuint32_t>(m.element_strides[d]);
  const auto interleave = static_cast<CUtensorMapInterleave>(m.interleave == TmaInterleave::none  ? 0
                                                             : m.interleave == TmaInterleave::b16 ? 1
                                                                                                  : 2);
  driver.check(driver.api().cuTensorMapEncodeTiled(
                   &out, static_cast<CUtensorMapDataType>(tma_type_code(*m.dtype)), static_cast<cuuint32_t>(rank),
                   std::bit_cast<void*>(static_cast<std::uintptr_t>(address)), dims.data(), strides.data(), box.data(),
                   element_strides.data(), interleave, static_cast<CUtensorMapSwizzle>(tma_swizzle_code(m.swizzle)),
                   static_cast<CUtensorMapL2promotion>(a.l2_promotion),
                   m.oob_nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
               "cuTensorMapEncodeTiled");
}

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
  for (Bytes& b : buffers) args.push_back(KernelArg::buffer(std::move(b)));
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

  // One slot per argument: a device pointer, or the value itself; the
  // buffers first, since a tensor map holds its buffer's device address.
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
  std::vector<CUtensorMap> maps(args.size());  // CUtensorMap is 64-byte aligned, as the parameter
  std::vector<void*> params;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    if (a.map_of >= 0) {
      if (static_cast<std::size_t>(a.map_of) >= args.size() || !args[static_cast<std::size_t>(a.map_of)].is_buffer)
        throw Error("a tensor map's tensor is not a buffer argument");
      encode_tensor_map(driver, a, slots[static_cast<std::size_t>(a.map_of)], maps[i]);
      params.push_back(&maps[i]);
    } else if (!a.is_buffer || a.passed) {
      params.push_back(&slots[i]);  // little-endian: a narrower value is the slot's low bytes
    }
  }
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
