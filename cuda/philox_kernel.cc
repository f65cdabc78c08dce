#include "cuda/philox_kernel.h"

#include <cstring>

#include "core/base/error.h"

namespace mmacheck::cuda {

namespace {

constexpr unsigned kThreads = 128;

}  // namespace

const std::string& case_stream_kernel_source() {
  static const std::string source = R"(
// params: seed low, seed high, first case low, first case high, cases, words per case
extern "C" __global__ void mmacheck_case_stream(const unsigned* params, unsigned* out) {
  const unsigned cases = params[4], words = params[5];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= cases) return;
  const unsigned long long index = ((unsigned long long)params[3] << 32 | params[2]) + i;
  for (unsigned block = 0; block < words / 4; ++block) {
    unsigned x0 = block, x1 = 0, x2 = (unsigned)index, x3 = (unsigned)(index >> 32);
    unsigned k0 = params[0], k1 = params[1];
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
      }
      const unsigned hi0 = __umulhi(0xD2511F53u, x0), lo0 = 0xD2511F53u * x0;
      const unsigned hi1 = __umulhi(0xCD9E8D57u, x2), lo1 = 0xCD9E8D57u * x2;
      x0 = hi1 ^ x1 ^ k0;
      x1 = lo1;
      x2 = hi0 ^ x3 ^ k1;
      x3 = lo0;
    }
    unsigned* o = out + (unsigned long long)i * words + 4 * block;
    o[0] = x0;
    o[1] = x1;
    o[2] = x2;
    o[3] = x3;
  }
}
)";
  return source;
}

std::vector<std::uint32_t> device_case_stream(const Gpu& gpu, const Nvrtc& nvrtc, std::uint64_t seed,
                                              std::uint64_t first_case, std::uint32_t cases, std::uint32_t words) {
  if (words == 0 || words % 4 != 0) throw Error("device_case_stream: " + std::to_string(words) + " words per case");
  if (cases == 0) return {};
  const std::string cubin = nvrtc.compile(case_stream_kernel_source(), gpu.info().sm, "mmacheck_case_stream.cu");
  const std::uint32_t params[6] = {static_cast<std::uint32_t>(seed),
                                   static_cast<std::uint32_t>(seed >> 32),
                                   static_cast<std::uint32_t>(first_case),
                                   static_cast<std::uint32_t>(first_case >> 32),
                                   cases,
                                   words};
  Bytes p(sizeof params), out(static_cast<std::size_t>(cases) * words * sizeof(std::uint32_t));
  std::memcpy(p.data(), params, sizeof params);
  const std::vector<Bytes> back = gpu.run(cubin, "mmacheck_case_stream", {(cases + kThreads - 1) / kThreads, kThreads},
                                          {std::move(p), std::move(out)});
  std::vector<std::uint32_t> w(static_cast<std::size_t>(cases) * words);
  std::memcpy(w.data(), back[1].data(), w.size() * sizeof(std::uint32_t));
  return w;
}

}  // namespace mmacheck::cuda
