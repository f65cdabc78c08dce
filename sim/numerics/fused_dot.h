// The fused dot-product step of Hopper/Ampere tensor cores for floating-point
// inputs (f16, bf16, tf32 and, through conversion, fp8): one block of
// products plus an accumulator, summed with a single rounding.
//
// For a block (a_k, b_k), k < n, and accumulator c (docs/numerics.md):
//   1. any NaN, Inf * 0, or +Inf meeting -Inf  -> the output's canonical NaN;
//      otherwise any Inf (product or c)         -> ±Inf;
//   2. every product is exact; its alignment exponent is exp(a) + exp(b)
//      (exponents clamped to min_exp for subnormals, so the significand
//      product is in [0, 4)); c's is exp(c);
//   3. E = the largest alignment exponent among the terms, a zero term
//      (product or c) counting as zero_term_exp (sm_90: -133 for f32
//      output, -21 for f16), so a zero sets E only when every nonzero term
//      is tinier still;
//   4. each term is truncated toward zero to a multiple of 2^(E - kept_bits);
//   5. the truncated terms are summed exactly and the sum is rounded once to
//      the output format (f32: toward zero, f16: nearest-even), subnormals
//      kept, overflow -> ±Inf; a zero result is +0, whether the sum was
//      exactly zero or a nonzero sum rounded to zero (H200, MMA-Sim).
//      sm_89's fp8 blocks round an f32 result to 13 fraction bits first.
//
//     FusedStep step = fused_step_for(DType::f16, float_format(DType::f32), arch_params("sm_90"));
//     std::uint64_t d = fused_dot(step, a_row, b_col, decode(f32, c_bits));
#pragma once

#include <cstdint>
#include <span>

#include "sim/numerics/float_format.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

struct FusedStep {
  const FloatFormat* out;  // f32 or f16
  int kept_bits;           // ArchParams::kept_bits (kept_bits_fp8 for fp8 inputs)
  int zero_term_exp;       // ArchParams::zero_term_exp(output)
  Rounding rounding;
  int result_frac_bits;  // out->man_bits, or fewer (sm_89 fp8: 13)
};

// The output's canonical NaN (f32 0x7FFFFFFF, f16 0x7FFF).
std::uint64_t canonical_nan(const FloatFormat& out);

// One fused block: round(sum_k a[k] * b[k] + c).  a and b have equal length.
std::uint64_t fused_dot(const FusedStep& step, std::span<const FpValue> a, std::span<const FpValue> b,
                        const FpValue& c);

// The step for inputs of type `in` and an f32 or f16 output on `arch`; the
// rounding follows the output format: toward zero for f32, nearest-even for f16.
FusedStep fused_step_for(DType in, const FloatFormat& out, const ArchParams& arch);

// The fused step's final rounding of (-1)^neg * mag * 2^scale: a zero
// result is +0 whatever neg is.  The fast paths round through it too.
std::uint64_t fused_round(const FusedStep& step, bool neg, std::uint64_t mag, int scale);

}  // namespace mmacheck::sim
