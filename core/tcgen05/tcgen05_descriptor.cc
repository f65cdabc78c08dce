#include "core/tcgen05/tcgen05_descriptor.h"

#include <array>
#include <cctype>

#include "core/base/error.h"
#include "core/base/hex.h"

namespace mmacheck {

namespace {

// PTX ISA §9.7.16.4.1 (the codes) and CUTLASS's UMMA::LayoutType.
constexpr std::array<Tcgen05SwizzleRow, 5> kModes{{
    {Tcgen05Swizzle::none, "none", SwizzleMode::none},
    {Tcgen05Swizzle::b128_base32b, "128B_base32B", std::nullopt},
    {Tcgen05Swizzle::b128, "128B", SwizzleMode::b128},
    {Tcgen05Swizzle::b64, "64B", SwizzleMode::b64},
    {Tcgen05Swizzle::b32, "32B", SwizzleMode::b32},
}};

constexpr int kTcgen05StartBit = 0, kTcgen05LboBit = 16, kTcgen05SboBit = 32, kTcgen05FixedBit = 46,
              kTcgen05BaseBit = 49, kTcgen05LboModeBit = 52, kTcgen05ModeBit = 61;
constexpr std::uint64_t kTcgen05Field14 = 0x3FFF;
constexpr std::uint64_t kFixedValue = 1;  // bits 46-48 = 0b001

// Reserved bits that must be zero, each range with the words that name it.
struct Reserved {
  int low, width;
  std::string_view what;
};
constexpr std::array<Reserved, 3> kReserved{{
    {14, 2, "bits 14-15 (between start and LBO)"},
    {30, 2, "bits 30-31 (between LBO and SBO)"},
    {53, 8, "bits 53-60 (fixed 0)"},
}};

std::uint64_t encode_tcgen05_bytes(std::int64_t bytes, std::string_view field) {
  if (bytes < 0 || bytes >= (std::int64_t{1} << 18) || bytes % 16 != 0)
    throw Error("tcgen05 descriptor " + std::string(field) + " must be a multiple of 16 in [0, 2^18), got " +
                std::to_string(bytes));
  return static_cast<std::uint64_t>(bytes) >> 4;
}

std::string lower(std::string_view s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::span<const Tcgen05SwizzleRow> tcgen05_swizzles() { return kModes; }

const Tcgen05SwizzleRow& tcgen05_swizzle(Tcgen05Swizzle mode) {
  for (const Tcgen05SwizzleRow& row : kModes)
    if (row.mode == mode) return row;
  throw Error("unknown tcgen05 swizzle code " + std::to_string(static_cast<int>(mode)));
}

const Tcgen05SwizzleRow* find_tcgen05_swizzle(std::string_view name) {
  const std::string n = lower(name);
  if (n == "interleave") return &kModes[0];
  if (n == "128b_32b") return &kModes[1];
  for (const Tcgen05SwizzleRow& row : kModes)
    if (n == lower(row.name)) return &row;
  return nullptr;
}

Tcgen05Swizzle tcgen05_swizzle_of(SwizzleMode mode) {
  for (const Tcgen05SwizzleRow& row : kModes)
    if (row.canonical == mode) return row.mode;
  throw Error("no tcgen05 mode for wgmma swizzle " + std::string(swizzle_mode(mode).name));
}

std::uint64_t Tcgen05SmemDescriptor::encode() const {
  if (base_offset < 0 || base_offset > 7)
    throw Error("tcgen05 descriptor base_offset must be in 0..7, got " + std::to_string(base_offset));
  return (encode_tcgen05_bytes(start, "start") << kTcgen05StartBit) |
         (encode_tcgen05_bytes(lbo, "lbo") << kTcgen05LboBit) | (encode_tcgen05_bytes(sbo, "sbo") << kTcgen05SboBit) |
         (kFixedValue << kTcgen05FixedBit) | (static_cast<std::uint64_t>(base_offset) << kTcgen05BaseBit) |
         (static_cast<std::uint64_t>(lbo_absolute) << kTcgen05LboModeBit) |
         (static_cast<std::uint64_t>(swizzle) << kTcgen05ModeBit);
}

Tcgen05SmemDescriptor Tcgen05SmemDescriptor::decode(std::uint64_t bits) {
  for (const Reserved& r : kReserved) {
    const std::uint64_t v = (bits >> r.low) & ((std::uint64_t{1} << r.width) - 1);
    if (v != 0)
      throw Error("tcgen05 descriptor " + hex(bits) + ": " + std::string(r.what) + " are " + hex(v) + ", not 0");
  }
  const std::uint64_t fixed = (bits >> kTcgen05FixedBit) & 7;
  if (fixed != kFixedValue)
    throw Error("tcgen05 descriptor " + hex(bits) + ": bits 46-48 are " + std::to_string(fixed) +
                ", the fixed constant 0b001 is required (" +
                (fixed == 0 ? "a Hopper wgmma descriptor has 0 there" : "CUTLASS's version_ = 1") + ")");
  const auto code = static_cast<Tcgen05Swizzle>((bits >> kTcgen05ModeBit) & 7);
  const bool known = code == Tcgen05Swizzle::none || code == Tcgen05Swizzle::b128_base32b ||
                     code == Tcgen05Swizzle::b128 || code == Tcgen05Swizzle::b64 || code == Tcgen05Swizzle::b32;
  if (!known)
    throw Error("tcgen05 descriptor " + hex(bits) + ": swizzle code " + std::to_string(static_cast<int>(code)) +
                " at bits 61-63 is no mode (0 none, 1 128B with 32B atomic, 2 128B, 4 64B, 6 32B)");
  Tcgen05SmemDescriptor d;
  d.start = static_cast<std::int64_t>(((bits >> kTcgen05StartBit) & kTcgen05Field14) << 4);
  d.lbo = static_cast<std::int64_t>(((bits >> kTcgen05LboBit) & kTcgen05Field14) << 4);
  d.sbo = static_cast<std::int64_t>(((bits >> kTcgen05SboBit) & kTcgen05Field14) << 4);
  d.base_offset = static_cast<int>((bits >> kTcgen05BaseBit) & 7);
  d.lbo_absolute = ((bits >> kTcgen05LboModeBit) & 1) != 0;
  d.swizzle = code;
  return d;
}

std::string Tcgen05SmemDescriptor::str() const {
  return "start=" + hex(static_cast<std::uint64_t>(start)) + " lbo=" + std::to_string(lbo) +
         " sbo=" + std::to_string(sbo) + " base_offset=" + std::to_string(base_offset) +
         " lbo_mode=" + (lbo_absolute ? "absolute" : "relative") +
         " swizzle=" + std::string(tcgen05_swizzle(swizzle).name);
}

MatrixDescriptor Tcgen05SmemDescriptor::as_wgmma() const {
  const Tcgen05SwizzleRow& row = tcgen05_swizzle(swizzle);
  if (!row.canonical) throw Error("tcgen05 swizzle " + std::string(row.name) + " has no wgmma canonical layout");
  return {.start = start, .lbo = lbo, .sbo = sbo, .base_offset = base_offset, .swizzle = *row.canonical};
}

Tcgen05SmemDescriptor Tcgen05SmemDescriptor::from_wgmma(const MatrixDescriptor& d) {
  return {.start = d.start,
          .lbo = d.lbo,
          .sbo = d.sbo,
          .base_offset = d.base_offset,
          .lbo_absolute = false,
          .swizzle = tcgen05_swizzle_of(d.swizzle)};
}

}  // namespace mmacheck
