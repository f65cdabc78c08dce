// check_triton() — are Triton's NVIDIA MMA v2 layouts what the mma.sync
// that Triton's lowering feeds them to needs?  (docs/soundness.md lists
// exactly what `proved` covers.)
//
// Every layout first: its bases inside the shape, spanning the tensor, no
// two registers or lanes holding one element except whole warps that
// replicate each other (core/triton/triton_span.h).
//
// An accumulator with warps_per_cta [wm, wn] (without: unchecked) has
// repM x repN instructions per warp (max(1, M / 16 wm), max(1, N / 8 wn));
// MMAv2.cpp's instruction (m, n) writes registers 4 (m repN + n) + i.  Its
// origin (that register 4 (m repN + n), lane 0) is a 16x8 tile whose row
// depends on m only and column on n only, every register of it holds the
// PTX C element of its lane, and rows are shared by the warps of one M warp
// (warps are N-fastest), columns by those of one N warp.
//
// An accumulator with instr_shape [16, Ni, K] (an MMA v3 parent) is checked
// against wgmma's D frame instead (the PTX ISA's: warp w of a warpgroup holds
// rows 16w.., each 8 columns an m16n8 C tile; core/wgmma/wgmma_frame.h's table
// in the tests): each 4 warps
// along M are one warpgroup; WGMMA.cpp's instruction (m, n) writes registers
// Ni/2 (m repN + n) + e (repN = max(1, N / Ni wn)); its origin's rows depend
// on m only, its columns on n only, and are the first A row and B column
// that warpgroup's wgmma (m, n) reads in WGMMA.cpp (loadA, loadB: warpgroups
// M-fastest; rows 16 (m wm + 4 gM), columns Ni (n wn + gN), modulo the
// tensor), and thread t of the warpgroup holds in element e the frame's
// (row, col) of (t, e) from that origin.
//
// An A operand with instr_shape (wgmma's A from registers, a dot_op over an
// MMA v3 parent) is checked against wgmma's A fragment: WGMMA.cpp hands
// wgmma (m, k) of each warpgroup registers E (m repK + k) .. + E - 1 (E = K /
// 2), and thread t holds in element e the fragment's (row, k) of its lane
// (warp w of the warpgroup rows 16 w.., as mma.sync's A frame gives them)
// from the accumulator's rows of wgmma m and column K k.
//
// A dot operand is fed to mma.sync as the lowering does it
// (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/DotOpToLLVM/MMAv2.cpp):
// when bits * kWidth > 32 the registers of each group are first reordered
// (the lowering's `si` permutation), then each instruction takes the next E
// registers (E: the frame's elements per lane), instructions ordered outer
// M (or N) then K.  Instruction q's element e of lane l must hold, in M (or
// N), the row the PTX frame gives, the same rows for every k step of one m;
// its K is recorded as pi(v) for the instruction-space k v = q_K * K_instr +
// (the frame's k).  pi must be a bijection of [0, K).  With warps_per_cta,
// A's N-warp bases and B's M-warp bases are zero.  pi the identity: proved.
// Otherwise (kWidth 8 for 16-bit types) the layout permutes K, which leaves
// the product unchanged exactly when A and B apply the same pi: operands of
// one group are proved when their pi agree and refuted when not; a permuted
// operand without a partner is unchecked.
//
// A group (one dot: A, B, optionally its accumulator) is also refuted when
// A and B differ in dtype, kWidth, K or warps, D cannot accumulate their
// type, or D's rows (columns) per warp and instruction are not those A's
// (B's) instruction of that index covers.
//
// Zero bases are listed; a zero register basis duplicates registers, which
// the lowering drops and mmacheck does not model: such a layout is
// unchecked (after range and coverage, whose failures still refute).
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
  std::string instruction;  // "" when there is none
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
