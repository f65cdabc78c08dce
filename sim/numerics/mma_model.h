// Layer sim/numerics: bit-exact arithmetic per architecture, bit-pattern matrices,
// random inputs. Uses core (up to core/gemm) only.
//
// The arithmetic of one mma.sync instruction on logical tiles, bit-exact with
// real tensor cores (NVIDIA H200 for sm_90; docs/numerics.md has the model of
// every variant, its sources and what is still open).
//
// Tiles hold raw element bit patterns, one per uint64_t, row-major:
// A is m x k, B is k x n, C and D are m x n (logical, not per lane; the warp
// machine gathers lanes into tiles through the PTX frame first, see
// sim/machine/fragment.h).  Narrow types use the low bits (f16: 16, tf32: the full
// f32 pattern, s8: 8); bits above the element width are ignored on input and
// zero on output.
//
// The models, by input type:
//   f16, bf16, tf32  fused blocks (sim/numerics/fused_dot.h) of block_16bit / block_tf32
//                    products; a K longer than one block chains blocks, each
//                    block's rounded result being the next block's C;
//                    m8n8k4 f16 (four products per warp, stacked along the
//                    tiles' rows): each product one block of the
//                    quad_pair_row's arithmetic (sm_70: 4 products, 23 kept
//                    bits, zero term -131 / -19);
//   e4m3, e5m2       sm_89, sm_120: native fused blocks of block_fp8 products
//                    (either type for A and B, f32 or f16 accumulators; sm_120's
//                    kind::f8f6f4 adds e3m2, e2m3, e2m1 on the same block);
//                    sm_90 (CUDA 13's emulation, sim/numerics/fp8_emulation.h): each
//                    fp8 converted to f16 exactly, one fused f16 block over
//                    k mod 4 in {0,1} with C = +0, one over k mod 4 in {2,3}
//                    accumulating onto it, then an f32 add of C
//                    (nearest-even, canonical NaN);
//   s8, u8, s4, u4   exact products and sum, wrapping to 32 bits (.satfinite:
//                    clamped to [INT32_MIN, INT32_MAX]);
//   b1               C + popc(a AND b) or popc(a XOR b) over K, wrapping;
//   f64              fma(a3,b3, fma(a2,b2, fma(a1,b1, fma(a0,b0,c)))) in IEEE
//                    double (sim/numerics/f64_fma.h for NaNs).
//
// Parameters that differ between architectures (products per fused block,
// fraction bits kept when aligning, a zero term's exponent per output type,
// how fp8 is computed) live in one ArchParams row each
// (sim/numerics/arch_params.cc); `--arch` names a row.
//
//     const ArchParams& sm90 = arch_params("sm_90");
//     mma_tile(*find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
//              sm90, a, b, c, d);
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/gemm/mma_inst.h"

namespace mmacheck::sim {

// e4m3, e5m2 and sm_120's fp6/fp4 (e3m2, e2m3, e2m1): the inputs whose
// path an ArchParams row's fp8 columns decide.
inline bool is_f8f6f4(DType t) {
  return t == DType::e4m3 || t == DType::e5m2 || t == DType::e3m2 || t == DType::e2m3 || t == DType::e2m1;
}

// How fp8 (e4m3, e5m2) inputs are computed on an architecture.
enum class Fp8Path : std::uint8_t {
  none,      // no model: mma_tile throws (before sm_89; sm_100, unmodelled)
  emulated,  // sm_90: CUDA 13's emulation (sim/numerics/fp8_emulation.h)
  fused,     // a native fused block of block_fp8 products (sm_89, sm_120)
};

// One architecture's arithmetic, a row of the table in arch_params.cc.
struct ArchParams {
  std::string_view name;    // "sm_90"
  std::string_view family;  // MMA-Sim's name for it: "Hopper"
  int sm;                   // 90
  int block_16bit;          // products per fused block, f16/bf16 inputs
  int block_tf32;           // products per fused block, tf32 inputs
  int kept_bits;            // terms truncated below 2^(E - kept_bits)
  int zero_term_f32;        // alignment exponent of a zero product or zero C, f32 output
  int zero_term_f16;        // ... f16 output
  Fp8Path fp8;
  int block_fp8;          // Fp8Path::fused: products per block
  int kept_bits_fp8;      //   its kept_bits
  int f32_frac_bits_fp8;  //   fraction bits of its f32 result (13 on sm_89: e8m13, toward zero)
  // The row whose arithmetic runs m8n8k4 f16 (quad pairs) here: "sm_70" on
  // sm_70 and on sm_75 (MMA-Sim's Turing falls back to Volta's settings for
  // it); empty where nothing models it (sm_80 on: MMA-Sim has no such shape).
  std::string_view quad_pair_row{};

  int zero_term_exp(DType out) const { return out == DType::f16 ? zero_term_f16 : zero_term_f32; }
};

// Throws Error for an unknown architecture name.
const ArchParams& arch_params(std::string_view name);
std::span<const ArchParams> all_arch_params();
// "sm_75, sm_80, ...": the rows, for help texts and errors.
std::string arch_names();

// Whether `arch` has the instruction (inst.min_sm) and a model of it (fp8:
// its Fp8Path; m8n8k4 f16: a quad_pair_row).
bool has_model(const MmaInst& inst, const ArchParams& arch);
// Throws Error, naming why, unless has_model(inst, arch).
void check_has_model(const MmaInst& inst, const ArchParams& arch);

// D = A * B + C for one instruction.  Throws Error when a span does not have
// its tile's size or the instruction does not exist on `arch` (fp8 before
// sm_89), or has no model there (fp8 on sm_100).
void mma_tile(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
              std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d);

}  // namespace mmacheck::sim
