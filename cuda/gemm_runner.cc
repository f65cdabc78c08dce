#include "cuda/gemm_runner.h"

#include <cstring>

#include "core/base/error.h"
#include "cuda/case_words.h"

namespace mmacheck::cuda {

GemmRunner::GemmRunner(Gpu gpu, const Nvrtc& nvrtc, const Nest& nest, Staging staging)
    : gpu_(std::move(gpu)), staging_(std::move(staging)), kernel_(gemm_kernel(nest, staging_)) {
  if (nest.inst->min_sm > gpu_.info().sm)
    throw Error(nest.inst->ptx() + " needs sm_" + std::to_string(nest.inst->min_sm) + "; " + gpu_.info().name +
                " is sm_" + std::to_string(gpu_.info().sm));
  cubin_ = nvrtc.compile(kernel_.source, gpu_.info().sm, "mmacheck_gemm.cu");
}

std::vector<std::vector<std::uint64_t>> GemmRunner::run(std::span<const sim::GemmInputs> cases) const {
  if (cases.empty()) return {};
  const CaseWords w = case_words(staging_);
  const auto pack = [&](const sim::Matrix sim::GemmInputs::*operand, const SlotTable& table, const OperandWords& words,
                        const char* role) {
    Bytes out(cases.size() * words.case_bytes());
    for (std::size_t i = 0; i < cases.size(); ++i)
      write_matrix(cases[i].*operand, table, words, out.data() + i * words.case_bytes(), role);
    return out;
  };
  std::vector<Bytes> buffers;
  buffers.push_back(pack(&sim::GemmInputs::a, staging_.a, w.a, "A"));
  buffers.push_back(pack(&sim::GemmInputs::b, staging_.b, w.b, "B"));
  buffers.push_back(pack(&sim::GemmInputs::c, staging_.c, w.c, "C"));
  buffers.emplace_back(cases.size() * w.d.case_bytes());
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
      x = read_word(p, w.d.word_bytes);
      p += w.d.word_bytes;
    }
  return d;
}

}  // namespace mmacheck::cuda
