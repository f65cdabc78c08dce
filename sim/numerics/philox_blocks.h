// Many Philox4x32-10 blocks of one stream at once — the words the random
// inputs are made of (sim/numerics/random_inputs.h).  A stream is the
// counter's last three words (stream, case mod 2^32, case / 2^32) under the
// seed's key; its word j is word j mod 4 of the block at counter
// (j / 4, stream, case_lo, case_hi), the same words CaseStream reads
// (sim/numerics/case_stream.h) and the device computes (cuda/philox_kernel.h).
//
// Three paths give the same words: `scalar` (philox4x32_10 per block, the
// definition), `avx2` (four blocks per 256-bit register) and `avx512` (eight
// per 512-bit register), the 32 x 32 -> 64 products of every block at once;
// the widest the processor has is chosen at run time.  Integer arithmetic
// only, so the words never depend on the machine.
//
//     const PhiloxStream s = philox_stream(seed, case_index, 1);
//     std::uint32_t w[64];
//     philox_blocks(s, 0, 16, w);  // words 0..63 of stream 1
#pragma once

#include <cstdint>

#include "sim/numerics/philox.h"

namespace mmacheck::sim {

struct PhiloxStream {
  PhiloxKey key;
  std::uint32_t stream, case_lo, case_hi;
};

// The key is the seed's two halves, as CaseStream's.
constexpr PhiloxStream philox_stream(std::uint64_t seed, std::uint64_t case_index, std::uint32_t stream) {
  return {{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
          stream,
          static_cast<std::uint32_t>(case_index),
          static_cast<std::uint32_t>(case_index >> 32)};
}

enum class PhiloxPath : std::uint8_t { scalar, avx2, avx512 };

// Whether this processor (and build) can run `path`; scalar always.
bool philox_path_available(PhiloxPath path);
// The widest available path, found once.
PhiloxPath best_philox_path();

// Blocks first_block .. first_block + blocks - 1 (mod 2^32) of stream `s`,
// four words each, into out[0 .. 4 * blocks).  `path` must be available.
void philox_blocks(const PhiloxStream& s, std::uint32_t first_block, int blocks, std::uint32_t* out, PhiloxPath path);
inline void philox_blocks(const PhiloxStream& s, std::uint32_t first_block, int blocks, std::uint32_t* out) {
  philox_blocks(s, first_block, blocks, out, best_philox_path());
}

}  // namespace mmacheck::sim
