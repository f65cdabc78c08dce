// Tcgen05SmemDescriptor — the 64-bit shared-memory matrix descriptor that
// Blackwell's tcgen05.mma (sm_100a) takes for an operand in shared memory
// (PTX ISA 8.7+, §9.7.16.4.1 "Shared memory descriptor"; CUTLASS's
// UMMA::SmemDescriptor in cute/arch/mma_sm100_desc.hpp agrees bit for bit):
//
//   bits  0-13  start address                 (addr & 0x3FFFF) >> 4
//   bits 16-29  leading dimension byte offset (LBO & 0x3FFFF) >> 4
//               (or, with bit 52 set, the absolute address of the second
//               chunk: the ISA's mode for a 48-byte K)
//   bits 32-45  stride dimension byte offset  (SBO & 0x3FFFF) >> 4
//   bits 46-48  the fixed constant 0b001 (CUTLASS: version_ = 1 at bits
//               46-47; a Hopper wgmma descriptor has 0 there)
//   bits 49-51  matrix base offset
//   bit  52     leading dimension stride mode: 0 relative, 1 absolute
//   bits 53-60  fixed 0
//   bits 61-63  swizzle: 0 none, 1 128B with 32B atomic, 2 128B, 4 64B, 6 32B
//               (3, 5, 7 are no mode)
//
// Bits 14-15 and 30-31 are zero too.  Beside wgmma's descriptor
// (core/wgmma/descriptor.h) the fields are the same but the swizzle field
// moved down one bit and widened, and the version bits appeared; the
// canonical layouts behind none, 32B, 64B and 128B are wgmma's
// (core/wgmma/canonical_layout.h: the ISA's tcgen05 canonical-layout table is
// the same CuTe layouts, CUTLASS's make_umma_desc reads the same strides).
// The new 128B-with-32B-atomic mode (CUTLASS's SWIZZLE_128B_BASE32B,
// Swizzle<2,5,2>, MN-major only) is encoded and decoded but its canonical
// layout is not modelled (the check reports it unchecked).
//
//     Tcgen05SmemDescriptor d{.start = 0x400, .lbo = 16, .sbo = 1024, .swizzle = Tcgen05Swizzle::b128};
//     d.encode() == 0x4000404000010040;   // start 0x40, LBO 1, SBO 64, bit 46, mode 2 at bit 61
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/wgmma/descriptor.h"

namespace mmacheck {

// The codes of bits 61-63.
enum class Tcgen05Swizzle : std::uint8_t { none = 0, b128_base32b = 1, b128 = 2, b64 = 4, b32 = 6 };

struct Tcgen05SwizzleRow {
  Tcgen05Swizzle mode;
  std::string_view name;  // "none", "128B_base32B", "128B", "64B", "32B"
  // The wgmma mode whose canonical layouts and byte swizzle this one has;
  // nullopt where none does (128B with 32B atomic: not modelled).
  std::optional<SwizzleMode> canonical;
};

std::span<const Tcgen05SwizzleRow> tcgen05_swizzles();
const Tcgen05SwizzleRow& tcgen05_swizzle(Tcgen05Swizzle mode);
// "none", "interleave", "128B", "64B", "32B", "128B_base32B" (or "128B_32B"),
// case-insensitive -> the row; nullptr when no name matches.
const Tcgen05SwizzleRow* find_tcgen05_swizzle(std::string_view name);
// The tcgen05 mode of a wgmma mode (the same canonical layout).
Tcgen05Swizzle tcgen05_swizzle_of(SwizzleMode mode);

struct Tcgen05SmemDescriptor {
  std::int64_t start = 0;     // bytes
  std::int64_t lbo = 0;       // bytes (an address when lbo_absolute)
  std::int64_t sbo = 0;       // bytes
  int base_offset = 0;        // 0..7
  bool lbo_absolute = false;  // bit 52
  Tcgen05Swizzle swizzle = Tcgen05Swizzle::none;

  // Throws Error (no location) when a byte field is not a multiple of 16 or
  // not below 2^18, or base_offset is outside 0..7.
  std::uint64_t encode() const;
  // Throws Error naming the bits when a reserved bit is set, bits 46-48 are
  // not 0b001, or bits 61-63 hold no mode.
  static Tcgen05SmemDescriptor decode(std::uint64_t bits);
  // "start=0x400 lbo=16 sbo=1024 base_offset=0 lbo_mode=relative swizzle=128B"
  std::string str() const;
  bool operator==(const Tcgen05SmemDescriptor&) const = default;

  // The same fields as a wgmma descriptor (for the canonical layouts); only
  // for modes whose row has a `canonical` mode.
  MatrixDescriptor as_wgmma() const;
  static Tcgen05SmemDescriptor from_wgmma(const MatrixDescriptor& d);
};

}  // namespace mmacheck
