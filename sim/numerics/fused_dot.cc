#include "sim/numerics/fused_dot.h"

#include <algorithm>
#include <bit>

namespace mmacheck::sim {

std::uint64_t canonical_nan(const FloatFormat& out) { return out.sign_bit() - 1; }

FusedStep fused_step_for(DType in, const FloatFormat& out, const ArchParams& arch) {
  const bool f32 = out.man_bits == 23;
  const bool fp8 = is_f8f6f4(in);
  const bool native_fp8 = fp8 && arch.fp8 == Fp8Path::fused;
  return {&out, native_fp8 ? arch.kept_bits_fp8 : arch.kept_bits, arch.zero_term_exp(f32 ? DType::f32 : DType::f16),
          f32 ? Rounding::toward_zero : Rounding::nearest_even,
          native_fp8 && f32 ? arch.f32_frac_bits_fp8 : out.man_bits};
}

std::uint64_t fused_round(const FusedStep& step, bool neg, std::uint64_t mag, int scale) {
  const FloatFormat& out = *step.out;
  if (const int drop = out.man_bits - step.result_frac_bits; drop > 0 && mag) {
    // Toward zero to fewer fraction bits first (only with f32 output, whose
    // rounding is toward zero too, so the two cuts compose into one).
    const int exp = std::max(static_cast<int>(std::bit_width(mag)) - 1 + scale, out.min_exp());
    const int shift = exp - step.result_frac_bits - scale;
    if (shift >= 64) mag = 0;
    else if (shift > 0) mag = mag >> shift << shift;
  }
  const std::uint64_t bits = round_to_format(out, neg, mag, scale, step.rounding);
  return bits == out.sign_bit() ? 0 : bits;
}

namespace {

struct Term {
  bool neg;
  std::uint64_t sig;
  int exp;   // alignment exponent
  int frac;  // value = sig * 2^(exp - frac)
};

// Step 1 of the model; returns true and sets *result when a special decides.
bool special_result(const FloatFormat& out, std::span<const FpValue> a, std::span<const FpValue> b, const FpValue& c,
                    std::uint64_t* result) {
  bool nan = c.cls == FpClass::nan;
  bool pos_inf = c.cls == FpClass::inf && !c.neg;
  bool neg_inf = c.cls == FpClass::inf && c.neg;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const FpValue& x = a[k];
    const FpValue& y = b[k];
    if (x.cls == FpClass::nan || y.cls == FpClass::nan) {
      nan = true;
    } else if (x.cls == FpClass::inf || y.cls == FpClass::inf) {
      if (x.is_zero() || y.is_zero()) nan = true;
      (x.neg != y.neg ? neg_inf : pos_inf) = true;
    }
  }
  if (nan || (pos_inf && neg_inf)) {
    *result = canonical_nan(out);
    return true;
  }
  if (pos_inf || neg_inf) {
    *result = out.inf_bits(neg_inf);
    return true;
  }
  return false;
}

}  // namespace

std::uint64_t fused_dot(const FusedStep& step, std::span<const FpValue> a, std::span<const FpValue> b,
                        const FpValue& c) {
  std::uint64_t special = 0;
  if (special_result(*step.out, a, b, c, &special)) return special;

  const auto product = [&](std::size_t k) {
    return Term{a[k].neg != b[k].neg, a[k].sig * b[k].sig, a[k].exp + b[k].exp, a[k].frac + b[k].frac};
  };
  const Term acc{c.neg, c.sig, c.exp, c.frac};

  const auto align_exp = [&](const Term& t) { return t.sig ? t.exp : step.zero_term_exp; };
  int max_exp = align_exp(acc);
  for (std::size_t k = 0; k < a.size(); ++k) max_exp = std::max(max_exp, align_exp(product(k)));

  // In units of 2^(max_exp - kept_bits); a term's shift is at most kept_bits - frac.
  const auto truncated = [&](const Term& t) -> std::int64_t {
    if (t.sig == 0) return 0;  // a zero term's exponent is arbitrary: its shift may pass 63
    const int shift = t.exp - t.frac - max_exp + step.kept_bits;
    const std::uint64_t mag = shift >= 0 ? t.sig << shift : (-shift >= 64 ? 0 : t.sig >> -shift);
    return t.neg ? -static_cast<std::int64_t>(mag) : static_cast<std::int64_t>(mag);
  };
  std::int64_t sum = truncated(acc);
  for (std::size_t k = 0; k < a.size(); ++k) sum += truncated(product(k));
  const std::uint64_t mag = sum < 0 ? -static_cast<std::uint64_t>(sum) : sum;
  return fused_round(step, sum < 0, mag, max_exp - step.kept_bits);
}

}  // namespace mmacheck::sim
