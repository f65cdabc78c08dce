// The canonical shared-memory layouts of wgmma.mma_async's operands: the
// byte address the instruction reads for element (i, k) of an operand tile,
// from the matrix descriptor (core/wgmma/descriptor.h) and the operand's
// major-ness (PTX ISA §9.7.15.5.1.2, "Shared Memory Matrix Layout", and
// §9.7.15.5.1.2.1.3, "Canonical Layouts").
//
// The operand tile is A: 64 x K (i = m) or B: N x K (i = n), K the
// instruction's (k16 f16/bf16, k8 tf32, k32 e4m3/e5m2/s8/u8: always 32
// bytes).  T = 16 / width elements make 16 bytes; W is the swizzle mode's row
// (128, 64, 32 bytes; none: 16).  The ISA's CuTe layouts, written in bytes:
//
//   K-major, none      (i%8)*16 + (i/8)*SBO + (kb%16) + (kb/16)*LBO   kb = k*width
//   K-major, swizzled  (i%8)*W  + (i/8)*SBO + kb                      (LBO unused)
//   MN-major, none     (i%T)*width + (i/T)*SBO + (k%8)*16 + (k/8)*LBO
//   MN-major, swizzled (i%(W/width))*width + (i/(W/width))*LBO + (k%8)*W + (k/8)*SBO
//
// and the instruction reads swizzle(start + offset), the mode's Swizzle<B, 4,
// 3> on the absolute byte address (so a K step inside a swizzle row is a
// start address 32 bytes on, as CUTLASS advances it).  A core matrix is 8
// rows of 16 bytes: contiguous (128 bytes) without swizzle; LBO steps along
// the leading dimension (K for K-major, MN for MN-major), SBO along the other.
// The model holds for base_offset 0 (the pattern on its boundary); other base
// offsets are not modelled (the check reports them unchecked).  MN-major
// exists only for f16/bf16 (the other types' wgmma has no imm-trans operand).
//
//     WgmmaOperand a{.operand = 'A', .type = find_wgmma_type("f16"), .rows = 64, .k = 16, .major = Major::k};
//     MatrixDescriptor d{.start = 0, .lbo = 16, .sbo = 1024, .swizzle = SwizzleMode::b128};
//     canonical_address(a, d, 1, 0) == 144;   // row 1 at 128, 16-byte chunk 0 -> 1
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/wgmma/descriptor.h"

namespace mmacheck {

// An operand element type of wgmma.mma_async: its bytes and the K of its shape.
struct WgmmaType {
  std::string_view name;  // PTX: "f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"
  int bytes;
  int k;              // m64nNk16, k8, k32
  bool transposable;  // has imm-trans-a/b, so MN-major is possible (f16, bf16)
};
std::span<const WgmmaType> wgmma_types();
const WgmmaType* find_wgmma_type(std::string_view name);  // nullptr when none

enum class Major : std::uint8_t { k, mn };
std::string_view major_name(Major m);  // "K", "MN"

struct WgmmaOperand {
  char operand = 'A';  // 'A' or 'B'
  const WgmmaType* type = nullptr;
  int rows = 64;  // A: M = 64; B: N
  int k = 16;
  Major major = Major::k;

  // "" when the operand is one wgmma has, else why not ("B: N must be a
  // multiple of 8 in 8..256, got 12", "MN-major needs f16 or bf16 ...").
  std::string problem() const;
  // "m64nNk16.f16 A, K-major" / "m64n128k16.f16 B, MN-major"
  std::string instruction() const;
};

// The byte offset of element (i, k) from the start address, before the swizzle.
std::int64_t canonical_offset(const WgmmaOperand& op, SwizzleMode mode, std::int64_t lbo, std::int64_t sbo, int i,
                              int k);
// The byte address the instruction reads for element (i, k).
std::int64_t canonical_address(const WgmmaOperand& op, const MatrixDescriptor& d, int i, int k);

// Which of LBO and SBO the operand's addresses depend on (K-major swizzled
// never reads LBO; MN-major tf32 would not read SBO with K = 8, ...).
struct FieldUse {
  bool lbo = false;
  bool sbo = false;
};
FieldUse field_use(const WgmmaOperand& op, SwizzleMode mode);

// The descriptor of `mode` that reads `placed` (byte address of each element
// (i, k), row-major over rows x k) canonically, where one exists: start, LBO
// and SBO measured on the buffer (unused fields copied from `like`); nullopt
// when a measured field is negative, unaligned or too large.  Whether it
// reads every element right is check_descriptor's question.
std::optional<MatrixDescriptor> measured_descriptor(const WgmmaOperand& op, SwizzleMode mode,
                                                    std::span<const std::int64_t> placed, const MatrixDescriptor& like);

}  // namespace mmacheck
