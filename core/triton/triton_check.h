// check_triton() — are Triton's NVIDIA MMA v2 layouts the PTX frames of the
// mma.sync that Triton's lowering feeds them to?
//
// An accumulator layout is proved when every (register, lane, warp) holds
// the element the PTX C frame gives lane, element register % 4 of the tile
// whose origin is register (register - register % 4), lane 0's element (the
// origins being multiples of the 16x8 tile, distinct within a warp).
//
// A dot operand is fed to mma.sync as Triton's MMAv2 lowering does it
// (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/DotOpToLLVM/MMAv2.cpp):
// when bits * kWidth > 32 the registers of each group are first reordered
// (the lowering's `si` permutation), then each instruction takes the next
// E registers (E: the frame's elements per lane), instructions ordered outer
// M (or N) then K.  Instruction q's element e of lane l must hold, in M (or
// N), the row the PTX frame gives; its K is recorded as pi(v) for the
// instruction-space k v = q_K * K_instr + (the frame's k).  pi must be a
// bijection of [0, K).  pi the identity: proved, the layout is the frame.
// Otherwise (kWidth 8 for 16-bit types) the layout permutes K, which leaves
// the product unchanged exactly when A and B apply the same pi: operands of
// one group are proved when their pi agree and refuted when not; a permuted
// operand without a partner is unchecked.
//
// Zero bases are listed (a zero register basis duplicates registers, which
// the lowering drops and mmacheck does not model: such a layout is
// unchecked).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/triton/triton_dot.h"
#include "core/prove/frame_verdict.h"

namespace mmacheck {

struct TritonCounterexample {
  std::int64_t reg = 0, lane = 0, warp = 0;
  std::array<std::int64_t, 2> coordinate{};  // (dim0, dim1) the layout gives
  std::array<std::int64_t, 2> ptx{};         // (dim0, dim1) PTX needs; for K the instruction-space k
};

struct TritonReport {
  std::string name;
  TritonRole role;
  std::string instruction;                               // "" when there is none
  FrameVerdict result = FrameVerdict::unchecked;
  std::optional<TritonCounterexample> counterexample;
  std::vector<std::pair<std::string, int>> zero_bases;  // (input dim, basis index)
  std::vector<std::int64_t> k_permutation;              // pi, when not the identity
  std::string message;
};

std::vector<TritonReport> check_triton(const std::vector<TritonDotOperand>& operands);

// The lowering's order: position p of the fed sequence takes register order[p].
std::vector<int> mma_v2_feed_order(int registers, int bits, int k_width, bool operand_a, int rep_k);

}  // namespace mmacheck
