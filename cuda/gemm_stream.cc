#include "cuda/gemm_stream.h"

#include <cstring>

#include "core/base/error.h"

namespace mmacheck::cuda {

GemmStream::GemmStream(Gpu gpu, const GemmRunner& compiled, std::int64_t capacity, int slots)
    : gpu_(std::move(gpu)),
      words_(case_words(compiled.staging())),
      threads_(compiled.kernel().threads),
      capacity_(capacity) {
  if (capacity < 1 || slots < 1)
    throw Error("GemmStream: " + std::to_string(capacity) + " cases per batch, " + std::to_string(slots) + " slots");
  if (gpu_.info().sm != compiled.gpu().info().sm)
    throw Error("the kernel was compiled for sm_" + std::to_string(compiled.gpu().info().sm) + ", device " +
                std::to_string(gpu_.ordinal()) + " (" + gpu_.info().name + ") is sm_" + std::to_string(gpu_.info().sm));
  const Driver& driver = gpu_.driver();
  const Driver::Api& api = driver.api();
  gpu_.make_current();
  try {
    driver.check(api.cuModuleLoadData(&module_, compiled.cubin().data()), "cuModuleLoadData");
    driver.check(api.cuModuleGetFunction(&function_, module_, compiled.kernel().entry.c_str()), "cuModuleGetFunction");
    const std::vector<std::int32_t>& table = compiled.kernel().table;
    const std::size_t table_bytes = table.size() * sizeof(std::int32_t);
    driver.check(api.cuMemAlloc(&table_, table_bytes ? table_bytes : 1), "cuMemAlloc");
    if (table_bytes) driver.check(api.cuMemcpyHtoD(table_, table.data(), table_bytes), "cuMemcpyHtoD");
    const std::size_t bytes = static_cast<std::size_t>(capacity) * words_.case_bytes();
    for (int s = 0; s < slots; ++s) {
      Slot& slot = slots_.emplace_back();
      driver.check(api.cuStreamCreate(&slot.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
      void* host = nullptr;
      driver.check(api.cuMemAllocHost(&host, bytes), "cuMemAllocHost");
      slot.host = static_cast<std::byte*>(host);
      driver.check(api.cuMemAlloc(&slot.device, bytes), "cuMemAlloc");
    }
  } catch (...) {
    release();
    throw;
  }
}

GemmStream::~GemmStream() { release(); }

void GemmStream::release() noexcept {
  const Driver::Api& api = gpu_.driver().api();
  try {
    gpu_.make_current();
  } catch (const Error&) {
    return;
  }
  for (Slot& s : slots_) {
    if (s.stream) api.cuStreamSynchronize(s.stream);
    if (s.stream) api.cuStreamDestroy(s.stream);
    if (s.host) api.cuMemFreeHost(s.host);
    if (s.device) api.cuMemFree(s.device);
  }
  slots_.clear();
  if (table_) api.cuMemFree(table_);
  if (module_) api.cuModuleUnload(module_);
  table_ = 0;
  module_ = nullptr;
}

std::string GemmStream::name() const { return gpu_.info().name + " (device " + std::to_string(gpu_.ordinal()) + ")"; }

HostBatch GemmStream::host(int slot) {
  std::byte* p = slots_.at(slot).host;
  const auto n = static_cast<std::size_t>(capacity_);
  std::byte* b = p + n * words_.a.case_bytes();
  std::byte* c = b + n * words_.b.case_bytes();
  return {p, b, c, c + n * words_.c.case_bytes()};
}

void GemmStream::launch(int slot, std::int64_t cases) {
  if (cases < 1 || cases > capacity_)
    throw Error("GemmStream: a batch of " + std::to_string(cases) + " cases, capacity " + std::to_string(capacity_));
  const Slot& s = slots_.at(slot);
  const Driver& driver = gpu_.driver();
  const Driver::Api& api = driver.api();
  gpu_.make_current();
  const auto n = static_cast<std::size_t>(capacity_), used = static_cast<std::size_t>(cases);
  // Device pointers of the four buffers, laid out as host() lays them out.
  CUdeviceptr a = s.device, b = a + n * words_.a.case_bytes(), c = b + n * words_.b.case_bytes(),
              d = c + n * words_.c.case_bytes();
  const HostBatch h = host(slot);
  driver.check(api.cuMemcpyHtoDAsync(a, h.a, used * words_.a.case_bytes(), s.stream), "cuMemcpyHtoDAsync");
  driver.check(api.cuMemcpyHtoDAsync(b, h.b, used * words_.b.case_bytes(), s.stream), "cuMemcpyHtoDAsync");
  if (words_.c.case_bytes())
    driver.check(api.cuMemcpyHtoDAsync(c, h.c, used * words_.c.case_bytes(), s.stream), "cuMemcpyHtoDAsync");
  // Elements no thread stores read back as 0, as GemmRunner::run gives them.
  driver.check(api.cuMemsetD8Async(d, 0, used * words_.d.case_bytes(), s.stream), "cuMemsetD8Async");
  CUdeviceptr table = table_;
  void* params[] = {&a, &b, &c, &d, &table};
  driver.check(api.cuLaunchKernel(function_, static_cast<unsigned>(cases), 1, 1, static_cast<unsigned>(threads_), 1, 1,
                                  0, s.stream, params, nullptr),
               "cuLaunchKernel");
  driver.check(api.cuMemcpyDtoHAsync(h.d, d, used * words_.d.case_bytes(), s.stream), "cuMemcpyDtoHAsync");
}

void GemmStream::wait(int slot) {
  gpu_.make_current();
  gpu_.driver().check(gpu_.driver().api().cuStreamSynchronize(slots_.at(slot).stream), "cuStreamSynchronize");
}

}  // namespace mmacheck::cuda
