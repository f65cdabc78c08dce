// The arithmetic of sm_120's block-scaled mma.sync, D = (A * scale_A)
// (B * scale_B) + C, bit for bit as MMA-Sim 2.1.1 models it
// (docs/block-scaled.md has the model and its evidence; no sm_120 hardware
// has checked it).
//
// Scale tiles hold raw 8-bit scale factors: scale_A is m x scale_vec
// (row-major: row i's block v at i * scale_vec + v), scale_B is scale_vec x n
// (block v of column j at v * n + j); block v covers K elements
// [v * K / scale_vec, (v + 1) * K / scale_vec).  A and B hold mxf8f6f4's
// 8-bit containers (as .kind::f8f6f4) or mxf4/mxf4nvf4's e2m1 nibbles.
//
// Two models, one per K (a row of the table in block_scaled.cc):
//   m16n8k32 mxf8f6f4  one fused block of 32 products as sm_120's native fp8
//                      (25 kept bits, f32 toward zero, zero term -133), each
//                      product's exponent raised by the two scales' (ue8m0:
//                      2^(s - 127)); a NaN scale (0xFF) makes D NaN.
//   m16n8k64 mxf4*     products summed exactly in groups of 16 K; each
//                      group's sum times its scales' product is one term
//                      whose alignment exponent is the scales' exponent
//                      (ea + eb), not the term's own: a group of zero
//                      products or a zero scale counts as the zero term
//                      (-139), a group that cancels to zero does not.  The
//                      four terms and C are truncated to 35 bits below the
//                      largest exponent, summed exactly and rounded toward
//                      zero to f32 once.  A NaN scale (ue8m0 0xFF, ue4m3
//                      0x7F with bit 7 ignored) or C makes D NaN.
//
//     block_scaled_tile(inst, arch_params("sm_120"), a, b, c, scale_a, scale_b, d);
#pragma once

#include <cstdint>
#include <span>

#include "core/gemm/mma_inst.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// Throws Error when a span does not have its tile's size, the instruction
// is not block-scaled, or `arch` lacks it (before sm_120).
void block_scaled_tile(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
                       std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
                       std::span<const std::uint64_t> scale_a, std::span<const std::uint64_t> scale_b,
                       std::span<std::uint64_t> d);

// A scale factor's value: NaN, or sig * 2^(exp - frac) (zero: sig 0).
struct ScaleValue {
  bool nan = false;
  std::uint64_t sig = 0;
  int exp = 0;
  int frac = 0;
};
ScaleValue decode_scale(ScaleType type, std::uint64_t bits);

}  // namespace mmacheck::sim
