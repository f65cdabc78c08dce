// The NVIDIA MMA encodings of TTGIR (#ttg.nvidia_mma, #ttg.dot_op over one)
// and their conversion to Triton linear layouts, computed as Triton computes
// it (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp:
// nvidiaMmaToLinearLayout, nvidiaDotToLinearLayout, combineCtaCgaWithShape)
// but written here in mmacheck's own terms.
//
// The accumulator #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0,
// warpsPerCTA = [2, 2], instrShape = [16, 8]}> over tensor<64x64xf32>:
//
//   one 16x8 tile per warp: register 1 -> (0, 1), lane 1, 2 -> (0, 2), (0, 4),
//     lane 4, 8, 16 -> (1, 0), (2, 0), (4, 0), register 2 -> (8, 0);
//   warps N-fastest over the tiles: warp 1 -> (0, 8), warp 2 -> (16, 0);
//   registers repeat the 32x16 warp tile over the tensor, N first (the
//     layout's repOrder): register 4 -> (0, 16), 8 -> (0, 32), 16 -> (32, 0);
//   a tensor smaller than the warp tile zeroes its largest bases instead
//     (warps then broadcast: ensureLayoutNotLargerThan);
//   the CTAs of a cluster (CGALayout = [[0, 1]]: block 1 takes CTA tile
//     (0, 1)) tile the tensor last: block 1 -> (0, N / 2).
//
// A dot operand (#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>) has
// the tile of one mma.sync operand: A 16 x 8 kWidth (K inner), B 8 kWidth x 8
// (K inner, so dim0); kWidth registers along K, then 4 lanes along K, 8
// lanes along M (N), 2 registers along M (B: 1) and 2 along K; the parent's
// warps along M (N) with K's warps zero (broadcast); registers repeat along
// K first, then M (N).  Its CTA tiling is the parent's with the K part
// zeroed (A keeps dim0 of each CGA basis, B dim1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/triton/triton_layout.h"

namespace mmacheck {

struct NvidiaMmaEncoding {
  int version_major = 2, version_minor = 0;
  std::vector<int> warps_per_cta;  // [M warps, N warps]
  std::vector<int> instr_shape;    // [16, 8] (v2); v3 (wgmma) [16, N, K]
  // The CTAs of a cluster: for each block bit, the CTA tile it moves to, in
  // tiles per dim (Triton 3.9's CGALayout; older Triton's CTAsPerCGA,
  // CTASplitNum and CTAOrder are turned into the same bases).  Empty: 1 CTA.
  std::vector<std::vector<std::int64_t>> cga_bases;
};

struct DotOperandEncoding {
  int op_idx = 0;  // 0: A, 1: B
  int k_width = 0;
  NvidiaMmaEncoding parent;
};

// The CGA bases of Triton's older spelling (makeCgaLayout): dims in CTAOrder,
// each `split` identity bases then ctas / split zero ones.
std::vector<std::vector<std::int64_t>> cga_bases_from_split(const std::vector<int>& ctas_per_cga,
                                                            const std::vector<int>& cta_split_num,
                                                            const std::vector<int>& cta_order);

// Version 3 (Hopper, wgmma): the accumulator's tile is instrShape's [16, N]
// with the same register and lane bases (kWidth 2), and its warps go M
// first (warp 1 -> (16, 0), warp 4 -> the next warpgroup's 64 rows, then
// N); an A operand in registers (#ttg.dot_op opIdx 0 over a version 3
// parent) has version 2's A tile with the parent's warps M first, broadcast
// along K.  (Triton has no version 3 B in registers: wgmma reads B from
// shared memory.)
//
// Both take a 2-D shape of powers of two and a version 2 or 3 encoding (the
// TTGIR reader's guarantees, core/triton/triton_ttgir.h).
TritonLayout nvidia_mma_to_linear(const NvidiaMmaEncoding& mma, const std::vector<std::int64_t>& shape);
TritonLayout nvidia_dot_to_linear(const DotOperandEncoding& dot, const std::vector<std::int64_t>& shape);

// The layout of CTA 0 alone: no block dimension, out dims the CTA's share of
// the tensor.  Every CTA runs the same lowering over its own tile, so the
// frame check of CTA 0 is the check of each.
TritonLayout cta_layout(const TritonLayout& layout);

}  // namespace mmacheck
