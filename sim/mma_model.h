// The arithmetic of one mma.sync instruction on logical tiles, bit-exact with
// real tensor cores.
//
// Tiles hold raw element bit patterns, one per uint64_t, row-major:
// A is m x k, B is k x n, C and D are m x n (logical, not per lane; the warp
// machine gathers lanes into tiles through the PTX frame first).  Narrow
// types use the low bits (f16: 16, tf32: the full f32 pattern, s8: 8).
//
// Parameters that differ between architectures (products per fused block,
// fraction bits kept when aligning) live in one ArchParams row each; see
// docs/numerics.md for the model and its sources.
//
//     const ArchParams& sm90 = arch_params("sm_90");
//     mma_tile(*find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
//              sm90, a, b, c, d);
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/mma_inst.h"

namespace mmacheck::sim {

struct ArchParams {
  std::string_view name;  // "sm_90"
  int sm;                 // 90
  int block_16bit;        // products per fused block, f16/bf16 inputs
  int block_tf32;         // products per fused block, tf32 inputs
  int kept_bits;          // terms truncated below 2^(E - kept_bits)
};

// Throws Error for an unknown architecture name.
const ArchParams& arch_params(std::string_view name);
std::span<const ArchParams> all_arch_params();

// D = A * B + C for one instruction.  Spans must have the tile sizes above.
void mma_tile(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
              std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
              std::span<std::uint64_t> d);

}  // namespace mmacheck::sim
