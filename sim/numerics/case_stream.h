// CaseStream — the random bits of one random case: Philox4x32-10
// (sim/numerics/philox.h) keyed by the run's seed, block b of case i read at
// counter (b, stream, i mod 2^32, i / 2^32).  A case's bits are a pure
// function of (seed, case index): no state is carried from case to case, so
// cases are drawn in any order on any number of threads, and a device can
// draw the same words from the same counters (cuda/philox_kernel.h).  The
// random inputs draw a case's own few choices through it (stream 3:
// cancel's flipped bit, the edge kinds' exponents and threshold's large
// elements); their elements read their streams' words directly
// (sim/numerics/element_words.h, philox_blocks.h).
//
// Words are consumed in order: next32() takes the next word of the current
// block; bits(n) takes n bits from a 64-bit reservoir that is refilled
// from two fresh words when fewer than n are left (the rest is dropped, so
// the split of a case's bits depends only on the sequence of requests);
// below(n) maps 16 or 32 reservoir bits onto [0, n) by multiply and shift
// (Lemire's method without rejection: each value's probability is within
// 2^-16 or 2^-32 of 1/n, and the result never depends on the platform).  Blocks
// are computed 32 at a time (sim/numerics/philox_blocks.h, AVX-512 or AVX2
// where the processor has it); the words do not depend on how many.
//
//     CaseStream s(seed, 12);
//     const bool neg = s.bits(1);
//     const int exponent = s.uniform(-2, 2);
#pragma once

#include <cstdint>

#include "sim/numerics/philox.h"

namespace mmacheck::sim {

class CaseStream {
 public:
  // The key: the seed's two halves.  `stream` (< 2^32) separates streams of
  // one case; the random inputs use 0.
  CaseStream(std::uint64_t seed, std::uint64_t case_index, std::uint32_t stream = 0);

  std::uint32_t next32() {
    if (at_ == kWords) refill();
    return words_[at_++];
  }
  std::uint64_t next64() {
    const std::uint64_t lo = next32();
    return lo | static_cast<std::uint64_t>(next32()) << 32;
  }
  // n in 0..64.
  std::uint64_t bits(int n) {
    if (n == 0) return 0;
    if (n > 64 - used_) {
      reservoir_ = next64();
      used_ = 0;
    }
    const std::uint64_t out = reservoir_ >> used_;  // used_ <= 63 here
    used_ += n;
    return n == 64 ? out : out & ((std::uint64_t{1} << n) - 1);
  }
  // A value in [0, n), n in 1..2^32: 16 bits for n <= 256 (each value's
  // probability within 2^-16 of 1/n), else 32.
  std::uint64_t below(std::uint64_t n) {
    const int k = n <= 256 ? 16 : 32;
    return (bits(k) * n) >> k;
  }
  // A value in [lo, hi], hi - lo < 2^32.
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }
  // true with probability 1 / 2^log2_odds.
  bool one_in_pow2(int log2_odds) { return bits(log2_odds) == 0; }

 private:
  static constexpr int kBlocks = 32, kWords = 4 * kBlocks;
  void refill();

  PhiloxKey key_;
  std::uint32_t stream_, case_lo_, case_hi_;
  std::uint32_t block_ = 0;  // the counter of the next block to compute
  std::uint32_t words_[kWords];
  int at_ = kWords;
  std::uint64_t reservoir_ = 0;
  int used_ = 64;
};

}  // namespace mmacheck::sim
