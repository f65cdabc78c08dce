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
//      (product or c) counting as zero_term_exp (-133 on sm_90), so a zero
//      sets E only when every nonzero term is tinier still;
//   4. each term is truncated toward zero to a multiple of 2^(E - kept_bits);
//   5. the truncated terms are summed exactly and the sum is rounded once to
//      the output format (f32: toward zero, f16: nearest-even), subnormals
//      kept, overflow -> ±Inf, an exact zero sum -> +0.
//
//     FusedStep step = fused_step_for(float_format(DType::f32), arch_params("sm_90"));
//     std::uint64_t d = fused_dot(step, a_row, b_col, decode(f32, c_bits));
#pragma once

#include <cstdint>
#include <span>

#include "sim/numerics/float_format.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

struct FusedStep {
  const FloatFormat* out;  // f32 or f16
  int kept_bits;           // ArchParams::kept_bits
  int zero_term_exp;       // ArchParams::zero_term_exp
  Rounding rounding;
};

// The output's canonical NaN (f32 0x7FFFFFFF, f16 0x7FFF).
std::uint64_t canonical_nan(const FloatFormat& out);

// One fused block: round(sum_k a[k] * b[k] + c).  a and b have equal length.
std::uint64_t fused_dot(const FusedStep& step, std::span<const FpValue> a,
                        std::span<const FpValue> b, const FpValue& c);

// The step for an f32 or f16 output on `arch`; the rounding follows the
// output format: toward zero for f32, nearest-even for f16.
FusedStep fused_step_for(const FloatFormat& out, const ArchParams& arch);

}  // namespace mmacheck::sim
