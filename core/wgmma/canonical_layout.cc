#include "core/wgmma/canonical_layout.h"

#include <array>

namespace mmacheck {

namespace {

// PTX ISA §9.7.15.5.1 (shapes k16, k8, k32 by type) and the wgmma syntax
// (imm-trans-a/b only in the .f16 and .bf16 forms).
constexpr std::array<WgmmaType, 7> kTypes{{
    {"f16", 2, 16, true},
    {"bf16", 2, 16, true},
    {"tf32", 4, 8, false},
    {"e4m3", 1, 32, false},
    {"e5m2", 1, 32, false},
    {"s8", 1, 32, false},
    {"u8", 1, 32, false},
}};

bool valid_n(const WgmmaType& type, int n) {
  if (n < 8 || n > 256 || n % 8 != 0) return false;
  // s32 accumulators (s8/u8): N = 8, 16, 24, 32, then multiples of 16 (§9.7.15.5.1.1.3).
  const bool integer = type.name == "s8" || type.name == "u8";
  return !integer || n <= 32 || n % 16 == 0;
}

}  // namespace

std::span<const WgmmaType> wgmma_types() { return kTypes; }

const WgmmaType* find_wgmma_type(std::string_view name) {
  for (const WgmmaType& t : kTypes)
    if (t.name == name) return &t;
  return nullptr;
}

std::string_view major_name(Major m) { return m == Major::k ? "K" : "MN"; }

std::string WgmmaOperand::problem() const {
  if (operand != 'A' && operand != 'B') return "the operand must be A or B";
  if (!type) return "no element type";
  if (k != type->k)
    return "a " + std::string(type->name) + " wgmma has K = " + std::to_string(type->k) + ", the tile has " +
           std::to_string(k);
  if (operand == 'A' && rows != 64) return "A is 64 x K (M = 64), the tile has " + std::to_string(rows) + " rows";
  if (operand == 'B' && !valid_n(*type, rows))
    return "B: N = " + std::to_string(rows) + " is no N of a " + std::string(type->name) + " wgmma";
  if (major == Major::mn && !type->transposable)
    return "MN-major needs f16 or bf16 (the " + std::string(type->name) + " wgmma has no imm-trans operand)";
  return "";
}

std::string WgmmaOperand::instruction() const {
  const std::string n = operand == 'B' ? std::to_string(rows) : "N";
  return "m64n" + n + "k" + std::to_string(k) + "." + std::string(type ? type->name : "?") + " " + operand + ", " +
         std::string(major_name(major)) + "-major";
}

std::int64_t canonical_offset(const WgmmaOperand& op, SwizzleMode mode, std::int64_t lbo, std::int64_t sbo, int i,
                              int k) {
  const int width = op.type->bytes;
  const int row = swizzle_mode(mode).row_bytes;
  if (op.major == Major::k) {
    const std::int64_t kb = std::int64_t{k} * width;
    if (mode == SwizzleMode::none) return (i % 8) * 16 + (i / 8) * sbo + kb % 16 + (kb / 16) * lbo;
    return std::int64_t{i % 8} * row + (i / 8) * sbo + kb;
  }
  if (mode == SwizzleMode::none) {
    const int t = 16 / width;
    return std::int64_t{i % t} * width + (i / t) * sbo + (k % 8) * 16 + (k / 8) * lbo;
  }
  const int per_row = row / width;  // MN elements in one swizzle-atom row
  return std::int64_t{i % per_row} * width + (i / per_row) * lbo + std::int64_t{k % 8} * row + (k / 8) * sbo;
}

std::int64_t canonical_address(const WgmmaOperand& op, const MatrixDescriptor& d, int i, int k) {
  return swizzle_mode(d.swizzle).bytes.apply(d.start + canonical_offset(op, d.swizzle, d.lbo, d.sbo, i, k));
}

FieldUse field_use(const WgmmaOperand& op, SwizzleMode mode) {
  FieldUse use;
  for (int i = 0; i < op.rows; ++i)
    for (int k = 0; k < op.k; ++k) {
      const std::int64_t base = canonical_offset(op, mode, 0, 0, i, k);
      use.lbo = use.lbo || canonical_offset(op, mode, 16, 0, i, k) != base;
      use.sbo = use.sbo || canonical_offset(op, mode, 0, 16, i, k) != base;
    }
  return use;
}

std::optional<MatrixDescriptor> measured_descriptor(const WgmmaOperand& op, SwizzleMode mode,
                                                    std::span<const std::int64_t> placed,
                                                    const MatrixDescriptor& like) {
  const Swizzle& swizzle = swizzle_mode(mode).bytes;  // an involution: B <= 3 bits XOR-ed from above
  const auto unswizzled = [&](int i, int k) { return swizzle.apply(placed[std::size_t(i) * op.k + k]); };
  MatrixDescriptor d = like;
  d.swizzle = mode;
  d.start = unswizzled(0, 0);
  // The element one LBO (SBO) step from (0, 0): where the offset's coefficient of that field is first nonzero.
  const auto measure = [&](bool lbo) -> std::optional<std::int64_t> {
    for (int i = 0; i < op.rows; ++i)
      for (int k = 0; k < op.k; ++k) {
        const std::int64_t zero = canonical_offset(op, mode, 0, 0, i, k);
        if (canonical_offset(op, mode, lbo ? 16 : 0, lbo ? 0 : 16, i, k) == zero) continue;
        const std::int64_t step = unswizzled(i, k) - d.start - zero;
        return step;
      }
    return std::nullopt;
  };
  const FieldUse use = field_use(op, mode);
  if (use.lbo) d.lbo = measure(true).value_or(d.lbo);
  if (use.sbo) d.sbo = measure(false).value_or(d.sbo);
  for (std::int64_t v : {d.start, d.lbo, d.sbo})
    if (v < 0 || v >= (std::int64_t{1} << 18) || v % 16 != 0) return std::nullopt;
  return d;
}

}  // namespace mmacheck
