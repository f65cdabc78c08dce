// MatrixDescriptor — the 64-bit shared-memory matrix descriptor that
// wgmma.mma_async takes for an operand in shared memory (PTX ISA 8.x,
// §9.7.15.5.1.2.2 "Matrix Descriptor Format"):
//
//   bits  0-13  start address                 (addr & 0x3FFFF) >> 4
//   bits 16-29  leading dimension byte offset (LBO & 0x3FFFF) >> 4
//   bits 32-45  stride dimension byte offset  (SBO & 0x3FFFF) >> 4
//   bits 49-51  matrix base offset (0 when the swizzle pattern starts on its
//               boundary: 1024, 512, 256 bytes for 128B, 64B, 32B)
//   bits 62-63  swizzle mode: 0 none (interleave), 1 128B, 2 64B, 3 32B
//
// Other bits are zero.  The fields here are in bytes (start, lbo, sbo), as
// the canonical layouts (core/wgmma/canonical_layout.h) use them; encode()
// needs them 16-byte aligned and below 2^18 (what the 14-bit fields hold),
// decode() inverts it for every value with the unused bits clear.
//
//     MatrixDescriptor d{.start = 0x400, .lbo = 16, .sbo = 1024, .swizzle = SwizzleMode::b128};
//     d.encode() == 0x4000004000010040;   // start 0x40, LBO 1, SBO 64, mode 1
//
// The swizzle modes are a table (kSwizzleModes): the hardware XORs byte
// address bits [4, 4 + B) with bits [7, 7 + B), CuTe's Swizzle<B, 4, 3> on
// byte addresses (the ISA's canonical-layout table names Swizzle<3,4,3>,
// <2,4,3>, <1,4,3>, <0,4,3>), on the absolute shared-memory address: a
// pattern repeats every 2^(B+7) bytes, the boundaries of the base-offset
// table above.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/layout/swizzle.h"

namespace mmacheck {

enum class SwizzleMode : std::uint8_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };  // the descriptor's bits 62-63

struct SwizzleModeRow {
  SwizzleMode mode;
  std::string_view name;  // "128B", "64B", "32B", "none"
  int row_bytes;          // bytes of one swizzle-atom row: 128, 64, 32, 16 (none: one core-matrix row)
  Swizzle bytes;          // the swizzle on byte addresses, Swizzle<B, 4, 3>
};

// The four modes, in the order of their codes' meaning: none, 128B, 64B, 32B.
std::span<const SwizzleModeRow> swizzle_modes();
const SwizzleModeRow& swizzle_mode(SwizzleMode mode);
// "128B", "128", "b128", "none", "interleave" -> the mode; nullptr when no name matches.
const SwizzleModeRow* find_swizzle_mode(std::string_view name);

struct MatrixDescriptor {
  std::int64_t start = 0;  // bytes, shared-memory address of the matrix
  std::int64_t lbo = 0;    // bytes, leading dimension byte offset
  std::int64_t sbo = 0;    // bytes, stride dimension byte offset
  int base_offset = 0;     // 0..7
  SwizzleMode swizzle = SwizzleMode::none;

  // Throws Error (no location) when a byte field is not a multiple of 16 or
  // not below 2^18, or base_offset is outside 0..7.
  std::uint64_t encode() const;
  // Throws Error when a bit outside the five fields is set.
  static MatrixDescriptor decode(std::uint64_t bits);
  // "start=0x400 lbo=16 sbo=1024 base_offset=0 swizzle=128B"
  std::string str() const;
  bool operator==(const MatrixDescriptor&) const = default;
};

}  // namespace mmacheck
