// TritonDotOperands — the layouts of a file for `mmacheck triton`: Triton
// linear layouts of NVIDIA MMA v2 accumulators and dot operands, each with
// what it is for.  A JSON file (scripts/triton-oracle/ writes them):
//
//     {"operands": [
//        {"name": "f16 k2 A", "operand": "a", "dtype": "f16", "k_width": 2,
//         "group": "f16 k2", "warps_per_cta": [1, 1],
//         "layout": "<LinearLayout::toString() text>"},
//        {"name": "f32 acc", "operand": "acc", "dtype": "f32", "warps_per_cta": [1, 1],
//         "layout": {"reg_bases": [[0, 1], [8, 0]], ..., "shape": [16, 8]}}]}
//
// operand: "acc" (the mma's C/D), "a" (dot operand opIdx 0) or "b" (opIdx
// 1); dtype: the operand's element type (f16, bf16, s8, u8, e4m3, e5m2,
// tf32; f32, s32 or f16 for acc), in mmacheck's names or Triton's (fp16,
// bf16, fp8e4nv, fp8e5, int8, uint8; fp32, int32 for acc; TTGIR's f8E4M3FN,
// i8, ...); a type mma.sync cannot take there (a bf16 accumulator, an fp32
// or s4 operand, fp8e4b15) is refused at the value; k_width: the dot operand's kWidth (1, 2,
// 4, 8 or 16); group: the operands of one dot (A, B and optionally its
// accumulator) share a group and are checked against each other;
// warps_per_cta: the parent NvidiaMmaEncodingAttr's [M warps, N warps], two
// powers of two whose product is the layout's warp count (the accumulator's
// register order depends on it; without it that order is unchecked);
// instr_shape: [16, N, K] for an accumulator of an MMA v3 parent (wgmma:
// each 4 warps along M one m64nNk instruction, N a multiple of 8 up to 256).
//
// The reader is strict: top-level keys other than operands, producer and
// command, entry keys other than the above, a key given twice, a name given
// to two entries, a shape that is no power of two, a warps_per_cta that does
// not match the layout: each an Error at the value's FILE:LINE:COL.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/program/dtype.h"
#include "core/triton/triton_layout.h"

namespace mmacheck {

enum class TritonRole { acc, a, b };

struct TritonDotOperand {
  std::string name;
  TritonRole role = TritonRole::acc;
  DType dtype = DType::f32;
  int k_width = 0;                                  // 0 for acc
  std::string group;                                // "" when alone
  std::optional<std::array<int, 2>> warps_per_cta;  // [M warps, N warps], when declared
  // [16, N, K] of an MMA v3 (wgmma) parent (Gluon's instr_shape,
  // #ttg.nvidia_mma<{versionMajor = 3, instrShape = [16, N, K]}>): accumulators only.
  std::optional<std::array<int, 3>> instr_shape;
  TritonLayout layout;
};

// Throws Error at FILE:LINE:COL of the offending value.
std::vector<TritonDotOperand> read_triton_file(const std::string& text, const std::string& file);

}  // namespace mmacheck
