// The wgmma matrix descriptor (core/wgmma/descriptor.h): field positions,
// encode/decode round trips, the swizzle-mode table, and the encodings of
// published descriptors.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>

#include "core/base/error.h"
#include "core/wgmma/descriptor.h"

namespace test_wgmma_descriptor {

namespace {

using mmacheck::Error;
using mmacheck::MatrixDescriptor;
using mmacheck::SwizzleMode;

MatrixDescriptor desc(std::int64_t start, std::int64_t lbo, std::int64_t sbo, SwizzleMode mode, int base = 0) {
  MatrixDescriptor d;
  d.start = start;
  d.lbo = lbo;
  d.sbo = sbo;
  d.base_offset = base;
  d.swizzle = mode;
  return d;
}
constexpr SwizzleMode kNone = SwizzleMode::none;

}  // namespace

TEST_CASE("descriptor fields sit at the PTX ISA's bit positions", "[wgmma][descriptor]") {
  // One field at a time, the others zero: PTX ISA 9.7.15.5.1.2.2.
  CHECK(desc(16, 0, 0, kNone).encode() == 1);
  CHECK(desc(0x3FFF0, 0, 0, kNone).encode() == 0x3FFF);
  CHECK(desc(0, 16, 0, kNone).encode() == std::uint64_t{1} << 16);
  CHECK(desc(0, 0, 16, kNone).encode() == std::uint64_t{1} << 32);
  CHECK(desc(0, 0, 0, kNone, 1).encode() == std::uint64_t{1} << 49);
  CHECK(desc(0, 0, 0, kNone, 7).encode() == std::uint64_t{7} << 49);
  CHECK(desc(0, 0, 0, SwizzleMode::b128).encode() == std::uint64_t{1} << 62);
  CHECK(desc(0, 0, 0, SwizzleMode::b64).encode() == std::uint64_t{2} << 62);
  CHECK(desc(0, 0, 0, SwizzleMode::b32).encode() == std::uint64_t{3} << 62);
  CHECK(desc(0, 0, 0, kNone).encode() == 0);
}

TEST_CASE("published descriptors encode as hand-checked", "[wgmma][descriptor]") {
  // CUTLASS's make_gmma_desc for a K-major SW128 tile sets LBO to 1 (unused)
  // and SBO to 8 rows x 128 bytes = 64 in 16-byte units, layout type 1; the
  // same bitfields are spelled out in KnowingNothing/MatmulTutorial issue 10
  // (start_address_ = addr >> 4, layout_type_ = 1, leading_byte_offset_ = 1,
  // stride_byte_offset_ = 64).  At 0x400: 0x40 | 1 << 16 | 64 << 32 | 1 << 62.
  const MatrixDescriptor sw128 = desc(0x400, 16, 1024, SwizzleMode::b128);
  CHECK(sw128.encode() == 0x4000004000010040ull);
  CHECK(MatrixDescriptor::decode(0x4000004000010040ull) == sw128);
  // The PTX ISA's canonical-layout examples (9.7.15.5.1.2.1.3) give the
  // encoded LBO and SBO: K-major no swizzle tf32 16 and 8, K-major 32B tf32
  // 1 (assumed) and 16, MN-major no swizzle bf16 16 and 8, 32B bf16 16 and 32,
  // 64B bf16 32 and 64.
  struct Row {
    std::int64_t lbo, sbo;
    SwizzleMode mode;
    std::uint64_t lbo_code, sbo_code;
  };
  for (const Row& r : {Row{64 * 4, 32 * 4, SwizzleMode::none, 16, 8}, Row{16, 64 * 4, SwizzleMode::b32, 1, 16},
                       Row{128 * 2, 64 * 2, SwizzleMode::none, 16, 8}, Row{128 * 2, 256 * 2, SwizzleMode::b32, 16, 32},
                       Row{256 * 2, 512 * 2, SwizzleMode::b64, 32, 64}}) {
    const std::uint64_t bits = desc(0, r.lbo, r.sbo, r.mode).encode();
    CHECK(((bits >> 16) & 0x3FFF) == r.lbo_code);
    CHECK(((bits >> 32) & 0x3FFF) == r.sbo_code);
    CHECK((bits >> 62) == static_cast<std::uint64_t>(r.mode));
  }
}

TEST_CASE("encode and decode are inverse over the fields' ranges", "[wgmma][descriptor]") {
  std::mt19937_64 rng(26);
  for (int n = 0; n < 2000; ++n) {
    const std::int64_t start = static_cast<std::int64_t>(rng() % 0x4000) * 16;
    const std::int64_t lbo = static_cast<std::int64_t>(rng() % 0x4000) * 16;
    const std::int64_t sbo = static_cast<std::int64_t>(rng() % 0x4000) * 16;
    const int base = static_cast<int>(rng() % 8);
    const MatrixDescriptor d = desc(start, lbo, sbo, static_cast<SwizzleMode>(rng() % 4), base);
    REQUIRE(MatrixDescriptor::decode(d.encode()) == d);
    // And every word with only the five fields' bits decodes and re-encodes to itself.
    const std::uint64_t used = 0x3FFFull | 0x3FFFull << 16 | 0x3FFFull << 32 | 7ull << 49 | 3ull << 62;
    const std::uint64_t word = rng() & used;
    REQUIRE(MatrixDescriptor::decode(word).encode() == word);
  }
}

TEST_CASE("descriptor fields out of range are errors", "[wgmma][descriptor]") {
  CHECK_THROWS_AS(desc(8, 0, 0, kNone).encode(), Error);                     // not 16-byte aligned
  CHECK_THROWS_AS(desc(0, 1 << 18, 0, kNone).encode(), Error);               // past the 14-bit field
  CHECK_THROWS_AS(desc(0, 0, -16, kNone).encode(), Error);                   // negative
  CHECK_THROWS_AS(desc(0, 0, 0, kNone, 8).encode(), Error);                  // 3 bits
  CHECK_THROWS_AS(MatrixDescriptor::decode(std::uint64_t{1} << 14), Error);  // an unused bit
  CHECK_THROWS_AS(MatrixDescriptor::decode(std::uint64_t{1} << 48), Error);
  CHECK_THROWS_AS(MatrixDescriptor::decode(std::uint64_t{1} << 52), Error);
}

TEST_CASE("the swizzle modes are Swizzle<B, 4, 3> on byte addresses", "[wgmma][descriptor]") {
  for (const mmacheck::SwizzleModeRow& row : mmacheck::swizzle_modes()) {
    INFO(row.name);
    const int b = row.bytes.bits;
    CHECK(row.bytes.base == 4);
    CHECK(row.bytes.shift == 3);
    // 128B: 3 bits, 64B: 2, 32B: 1, none: 0; the row is 16 << B bytes and the
    // pattern 2^(B+7) bytes (the ISA's 1024-, 512- and 256-byte boundaries).
    CHECK(row.row_bytes == (16 << b));
    if (row.mode != SwizzleMode::none) CHECK(row.bytes.period() == (std::int64_t{1} << (b + 7)));
    // Byte 16c of 128-byte row r goes to chunk c ^ (r % 2^B): the hardware's XOR.
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 8; ++c) {
        const std::int64_t addr = r * 128 + c * 16 + 3;
        const std::int64_t want = r * 128 + ((c ^ (r & ((1 << b) - 1))) * 16) + 3;
        CHECK(row.bytes.apply(addr) == want);
      }
  }
  CHECK(mmacheck::swizzle_mode(SwizzleMode::b128).name == "128B");
  CHECK(mmacheck::find_swizzle_mode("64B")->mode == SwizzleMode::b64);
  CHECK(mmacheck::find_swizzle_mode("interleave")->mode == SwizzleMode::none);
  CHECK(mmacheck::find_swizzle_mode("96B") == nullptr);
}

}  // namespace test_wgmma_descriptor
