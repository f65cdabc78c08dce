#include "sim/numerics/case_stream.h"

namespace mmacheck::sim {

CaseStream::CaseStream(std::uint64_t seed, std::uint64_t case_index, std::uint32_t stream)
    : key_{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
      stream_(stream),
      case_lo_(static_cast<std::uint32_t>(case_index)),
      case_hi_(static_cast<std::uint32_t>(case_index >> 32)) {}

// Eight blocks side by side (structure of arrays), so that the rounds
// vectorise: the 32 x 32 -> 64 products are pmuludq / vpmuludq.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void CaseStream::refill() {
  constexpr std::uint64_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  std::uint32_t c0[kBlocks], c1[kBlocks], c2[kBlocks], c3[kBlocks];
  for (int j = 0; j < kBlocks; ++j) {
    c0[j] = block_ + static_cast<std::uint32_t>(j);
    c1[j] = stream_;
    c2[j] = case_lo_;
    c3[j] = case_hi_;
  }
  std::uint32_t k0 = key_.k[0], k1 = key_.k[1];
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k0 += kW0;
      k1 += kW1;
    }
    for (int j = 0; j < kBlocks; ++j) {
      const std::uint64_t p0 = kM0 * c0[j], p1 = kM1 * c2[j];
      const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c1[j] ^ k0;
      const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c3[j] ^ k1;
      c1[j] = static_cast<std::uint32_t>(p1);
      c3[j] = static_cast<std::uint32_t>(p0);
      c0[j] = n0;
      c2[j] = n2;
    }
  }
  for (int j = 0; j < kBlocks; ++j) {
    words_[4 * j] = c0[j];
    words_[4 * j + 1] = c1[j];
    words_[4 * j + 2] = c2[j];
    words_[4 * j + 3] = c3[j];
  }
  block_ += kBlocks;
  at_ = 0;
}

}  // namespace mmacheck::sim
