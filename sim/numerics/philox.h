// Philox4x32-10 — the counter-based generator of Salmon, Moraes, Dror and
// Shaw, "Parallel Random Numbers: As Easy as 1, 2, 3" (SC'11), as Random123
// defines it: a 128-bit counter and a 64-bit key give four 32-bit words
// through ten rounds of multiply-and-xor; the key is bumped by the Weyl
// constants between rounds.  No state: any block is computed on its own,
// so a case's inputs can be drawn element by element, in any order, on any
// number of threads or on the GPU, and come out the same.
//
// The code is plain integer arithmetic on uint32/uint64 with no library
// call, so the same text compiles for the host and (through NVRTC, see
// cuda/philox_kernel.h) for the device.  Checked against Random123's
// known-answer vectors (tests/test_philox.cc).
//
//     const PhiloxBlock r = philox4x32_10({0, 0, 0, 0}, {0, 0});
//     // r.w == {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}
#pragma once

#include <cstdint>

namespace mmacheck::sim {

struct PhiloxBlock {
  std::uint32_t w[4];
};
struct PhiloxKey {
  std::uint32_t k[2];
};

// `rounds` rounds (10 is Philox4x32-10; Random123 also tests 7).
constexpr PhiloxBlock philox4x32(PhiloxBlock c, PhiloxKey key, int rounds) {
  constexpr std::uint64_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  for (int r = 0; r < rounds; ++r) {
    if (r) {
      key.k[0] += kW0;
      key.k[1] += kW1;
    }
    const std::uint64_t p0 = kM0 * c.w[0], p1 = kM1 * c.w[2];
    c = {{static_cast<std::uint32_t>(p1 >> 32) ^ c.w[1] ^ key.k[0], static_cast<std::uint32_t>(p1),
          static_cast<std::uint32_t>(p0 >> 32) ^ c.w[3] ^ key.k[1], static_cast<std::uint32_t>(p0)}};
  }
  return c;
}

constexpr PhiloxBlock philox4x32_10(PhiloxBlock c, PhiloxKey key) { return philox4x32(c, key, 10); }

}  // namespace mmacheck::sim
