// TritonDotOperands — the layouts of a file for `mmacheck triton`: Triton
// linear layouts of NVIDIA MMA v2 accumulators and dot operands, each with
// what it is for.  A JSON file (scripts/triton-oracle/ writes them):
//
//     {"operands": [
//        {"name": "f16 k2 A", "operand": "a", "dtype": "f16", "k_width": 2,
//         "group": "f16 k2", "layout": "<LinearLayout::toString() text>"},
//        {"name": "f32 acc", "operand": "acc", "dtype": "f32",
//         "layout": {"reg_bases": [[0, 1], [8, 0]], ..., "shape": [16, 8]}}]}
//
// operand: "acc" (the mma's C/D), "a" (dot operand opIdx 0) or "b" (opIdx
// 1); dtype: the operand's element type (f16, bf16, s8, u8, e4m3, e5m2,
// tf32; f32, s32 or f16 for acc); k_width: the dot operand's kWidth; group:
// A and B of one dot share a group (their K permutations are compared).
// Other keys are ignored (the oracle records its command and version there).
#pragma once

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
  int k_width = 0;    // 0 for acc
  std::string group;  // "" when alone
  TritonLayout layout;
};

// Throws Error (FILE:LINE:COL for malformed JSON or toString text; FILE and
// the entry's index for a missing or wrong key).
std::vector<TritonDotOperand> read_triton_file(const std::string& text, const std::string& file);

}  // namespace mmacheck
