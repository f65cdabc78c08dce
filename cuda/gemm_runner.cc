#include "cuda/gemm_runner.h"

#include <cstring>

#include "core/base/error.h"

namespace mmacheck::cuda {

namespace {

int word_bytes(DType t) { return dtype_bits(t) == 64 ? 8 : 4; }

// Every case's matrix of one operand, one element per word, case after case.
Bytes pack(std::span<const sim::GemmInputs> cases, const sim::Matrix sim::GemmInputs::*operand, const SlotTable& table,
           const char* role) {
  const int bytes = word_bytes(table.dtype);
  const std::uint64_t mask =
      dtype_bits(table.dtype) >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << dtype_bits(table.dtype)) - 1;
  Bytes out(cases.size() * table.elements() * bytes);
  std::byte* p = out.data();
  for (const sim::GemmInputs& in : cases) {
    const sim::Matrix& m = in.*operand;
    if (m.rows != table.rows || m.cols != table.cols || static_cast<std::int64_t>(m.bits.size()) != table.elements())
      throw Error(std::string("input ") + role + " is " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                  ", buffer '" + table.buffer + "' is " + std::to_string(table.rows) + " x " +
                  std::to_string(table.cols));
    for (std::uint64_t x : m.bits) {
      const std::uint64_t w = x & mask;
      if (bytes == 8) {
        std::memcpy(p, &w, 8);
      } else {
        const auto w32 = static_cast<std::uint32_t>(w);
        std::memcpy(p, &w32, 4);
      }
      p += bytes;
    }
  }
  return out;
}

}  // namespace

GemmRunner::GemmRunner(Gpu gpu, const Nvrtc& nvrtc, const Nest& nest, Staging staging)
    : gpu_(std::move(gpu)), staging_(std::move(staging)), kernel_(gemm_kernel(nest, staging_)) {
  if (nest.inst->min_sm > gpu_.info().sm)
    throw Error(nest.inst->ptx() + " needs sm_" + std::to_string(nest.inst->min_sm) + "; " + gpu_.info().name +
                " is sm_" + std::to_string(gpu_.info().sm));
  cubin_ = nvrtc.compile(kernel_.source, gpu_.info().sm, "mmacheck_gemm.cu");
}

std::vector<std::vector<std::uint64_t>> GemmRunner::run(std::span<const sim::GemmInputs> cases) const {
  if (cases.empty()) return {};
  std::vector<Bytes> buffers;
  buffers.push_back(pack(cases, &sim::GemmInputs::a, staging_.a, "A"));
  buffers.push_back(pack(cases, &sim::GemmInputs::b, staging_.b, "B"));
  buffers.push_back(pack(cases, &sim::GemmInputs::c, staging_.c, "C"));
  const int d_bytes = word_bytes(staging_.d.dtype);
  buffers.emplace_back(cases.size() * staging_.d.elements() * d_bytes);
  Bytes table(kernel_.table.size() * sizeof(std::int32_t));
  std::memcpy(table.data(), kernel_.table.data(), table.size());
  buffers.push_back(std::move(table));

  const std::vector<Bytes> out =
      gpu_.run(cubin_, kernel_.entry, {static_cast<unsigned>(cases.size()), static_cast<unsigned>(kernel_.threads)},
               std::move(buffers));
  std::vector<std::vector<std::uint64_t>> d(cases.size(), std::vector<std::uint64_t>(staging_.d.elements()));
  const std::byte* p = out[3].data();
  for (auto& matrix : d)
    for (std::uint64_t& x : matrix) {
      if (d_bytes == 8) {
        std::memcpy(&x, p, 8);
      } else {
        std::uint32_t w = 0;
        std::memcpy(&w, p, 4);
        x = w;
      }
      p += d_bytes;
    }
  return d;
}

}  // namespace mmacheck::cuda
