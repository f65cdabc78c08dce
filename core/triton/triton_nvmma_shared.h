// judge_nvmma_operand() — a wgmma operand that Triton keeps in shared memory
// (`!ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128,
// transposed = false, elementBitWidth = 16}>, #smem>` as an operand of
// `ttng.warp_group_dot`), held to what wgmma can read (core/wgmma's
// canonical layouts).
//
// The buffer's tensor is A (M x K) or B (K x N) in the dot's orientation;
// `transposed = false` keeps the last dim contiguous, so A is K-major and B
// MN-major (N contiguous), `transposed = true` the other way round.  The
// swizzle (0: none, 32, 64, 128 bytes) is the canonical layout's mode and
// each contiguous row of the buffer one swizzle row.  So:
//
//   refuted   elementBitWidth is not the element type's width; the element
//             type is no wgmma operand type; the operand wgmma would read
//             (A 64 x K, B N x K with the parent's instrShape [16, N, K], its
//             major-ness) is none wgmma has (core/wgmma's WgmmaOperand::
//             problem(): K not the type's, N invalid, MN-major for tf32 or
//             8-bit types, which have no transpose); the swizzle is no mode
//             (0, 32, 64, 128); the contiguous dim is narrower than one
//             swizzle row; the buffer is no whole number of the wgmma's
//             tiles (instrShape N, K).  (Triton's verifier rejects a buffer
//             narrower than its swizzle row and a wrong elementBitWidth too;
//             an instrShape N or K wrong for the buffer it parses.)
//   unchecked otherwise, saying which canonical layout the buffer implies
//             ("K-major, 128B swizzle"): which element wgmma reads for (i, k)
//             is the descriptor's that the lowering builds
//             (DotOpMmaV3SmemLoader), which the TTGIR does not hold — mmacheck
//             wgmma checks a descriptor against its buffer (docs/wgmma.md).
//
//   NvmmaSharedOperand a{.name = "line 44 %c A", .operand = 'A', .shape = {64, 32},
//                        .element = "f16", .encoding = {64, false, 16}, .instr_n = 64, .instr_k = 16};
//   judge_nvmma_operand(a).result == FrameVerdict::unchecked   // K-major, 64B swizzle
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/triton/triton_check.h"

namespace mmacheck {

// #ttg.nvmma_shared<{swizzlingByteWidth, transposed, elementBitWidth}>.
struct NvmmaSharedEncoding {
  int swizzle_bytes = 0;
  bool transposed = false;
  int element_bits = 16;
  bool fp4_padded = false;
};

struct NvmmaSharedOperand {
  std::string name;
  char operand = 'A';                   // 'A' (M x K) or 'B' (K x N)
  std::array<std::int64_t, 2> shape{};  // the memdesc's shape
  std::string element;                  // TTGIR's: f16, bf16, f32, f8E4M3FN, f8E5M2, i8
  NvmmaSharedEncoding encoding;
  int instr_n = 8, instr_k = 16;  // the parent's instrShape [16, N, K]
};

TritonReport judge_nvmma_operand(const NvmmaSharedOperand& op);

// wgmma's name of a TTGIR element type ("f16", "tf32" for f32, "e4m3" for
// f8E4M3FN, "s8" for i8, ...); "" when wgmma takes no such operand.
std::string wgmma_type_of(const std::string& ttgir_element);

}  // namespace mmacheck
