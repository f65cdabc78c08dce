#include "core/wgmma/descriptor.h"

#include <array>
#include <cctype>
#include <string>

#include "core/base/error.h"
#include "core/base/hex.h"

namespace mmacheck {

namespace {

// PTX ISA §9.7.15.5.1.2.1.3 (canonical layouts: Swizzle<B, 4, 3>) and
// §9.7.15.5.1.2.2 (the codes, the pattern boundaries 2^(B+7) bytes).
constexpr std::array<SwizzleModeRow, 4> kSwizzleModes{{
    {SwizzleMode::none, "none", 16, Swizzle{0, 4, 3}},
    {SwizzleMode::b128, "128B", 128, Swizzle{3, 4, 3}},
    {SwizzleMode::b64, "64B", 64, Swizzle{2, 4, 3}},
    {SwizzleMode::b32, "32B", 32, Swizzle{1, 4, 3}},
}};

constexpr int kStartBit = 0, kLboBit = 16, kSboBit = 32, kBaseBit = 49, kModeBit = 62;
constexpr std::uint64_t kField14 = 0x3FFF;
constexpr std::uint64_t kUsedBits = (kField14 << kStartBit) | (kField14 << kLboBit) | (kField14 << kSboBit) |
                                    (std::uint64_t{7} << kBaseBit) | (std::uint64_t{3} << kModeBit);

std::uint64_t encode_bytes(std::int64_t bytes, std::string_view field) {
  if (bytes < 0 || bytes >= (std::int64_t{1} << 18) || bytes % 16 != 0)
    throw Error("descriptor " + std::string(field) + " must be a multiple of 16 in [0, 2^18), got " +
                std::to_string(bytes));
  return static_cast<std::uint64_t>(bytes) >> 4;
}

}  // namespace

std::span<const SwizzleModeRow> swizzle_modes() { return kSwizzleModes; }

const SwizzleModeRow& swizzle_mode(SwizzleMode mode) {
  for (const SwizzleModeRow& row : kSwizzleModes)
    if (row.mode == mode) return row;
  throw Error("unknown swizzle mode " + std::to_string(static_cast<int>(mode)));
}

const SwizzleModeRow* find_swizzle_mode(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "interleave" || lower == "0") return &kSwizzleModes[0];
  for (const SwizzleModeRow& row : kSwizzleModes) {
    std::string row_name;
    for (char c : row.name) row_name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string digits = row_name.substr(0, row_name.size() - 1);  // "128B" -> "128"
    if (lower == row_name || (row.mode != SwizzleMode::none && (lower == digits || lower == "b" + digits))) return &row;
  }
  return nullptr;
}

std::uint64_t MatrixDescriptor::encode() const {
  if (base_offset < 0 || base_offset > 7)
    throw Error("descriptor base_offset must be in 0..7, got " + std::to_string(base_offset));
  return (encode_bytes(start, "start") << kStartBit) | (encode_bytes(lbo, "lbo") << kLboBit) |
         (encode_bytes(sbo, "sbo") << kSboBit) | (static_cast<std::uint64_t>(base_offset) << kBaseBit) |
         (static_cast<std::uint64_t>(swizzle) << kModeBit);
}

MatrixDescriptor MatrixDescriptor::decode(std::uint64_t bits) {
  if (bits & ~kUsedBits)
    throw Error(
        "descriptor " + hex(static_cast<std::int64_t>(bits & ~kUsedBits)) +
        ": bits outside start (0-13), LBO (16-29), SBO (32-45), base offset (49-51) and swizzle (62-63) are set");
  MatrixDescriptor d;
  d.start = static_cast<std::int64_t>(((bits >> kStartBit) & kField14) << 4);
  d.lbo = static_cast<std::int64_t>(((bits >> kLboBit) & kField14) << 4);
  d.sbo = static_cast<std::int64_t>(((bits >> kSboBit) & kField14) << 4);
  d.base_offset = static_cast<int>((bits >> kBaseBit) & 7);
  d.swizzle = static_cast<SwizzleMode>((bits >> kModeBit) & 3);
  return d;
}

std::string MatrixDescriptor::str() const {
  return "start=" + hex(start) + " lbo=" + std::to_string(lbo) + " sbo=" + std::to_string(sbo) +
         " base_offset=" + std::to_string(base_offset) + " swizzle=" + std::string(swizzle_mode(swizzle).name);
}

}  // namespace mmacheck
