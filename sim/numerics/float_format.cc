#include "sim/numerics/float_format.h"

#include <array>
#include <bit>
#include <string>

#include "core/base/error.h"

namespace mmacheck::sim {

namespace {
// name, exponent bits, fraction bits, bias, specials, ignored low bits.
constexpr std::array<std::pair<DType, FloatFormat>, 10> kFormats = {{
    {DType::f16, {"f16", 5, 10, 15, Specials::ieee, 0}},
    {DType::bf16, {"bf16", 8, 7, 127, Specials::ieee, 0}},
    {DType::f32, {"f32", 8, 23, 127, Specials::ieee, 0}},
    {DType::tf32, {"tf32", 8, 10, 127, Specials::ieee, 13}},
    {DType::f64, {"f64", 11, 52, 1023, Specials::ieee, 0}},
    {DType::e4m3, {"e4m3", 4, 3, 7, Specials::nan_only, 0}},
    {DType::e5m2, {"e5m2", 5, 2, 15, Specials::ieee, 0}},
    // In their 8-bit containers: fp6 in bits 5:0, fp4 in bits 5:2 (bits 1:0
    // ignored as tf32's low bits are); the bits above are ignored.
    {DType::e3m2, {"e3m2", 3, 2, 3, Specials::none, 0}},
    {DType::e2m3, {"e2m3", 2, 3, 1, Specials::none, 0}},
    {DType::e2m1, {"e2m1", 2, 1, 1, Specials::none, 2}},
}};
}  // namespace

int FloatFormat::max_exp() const {
  const int top = (1 << exp_bits) - 1;
  return (specials == Specials::ieee ? top - 1 : top) - bias;  // nan_only's top is finite but for S.1..1.1..1
}

std::uint64_t FloatFormat::inf_bits(bool neg) const {
  const std::uint64_t exp_mask = ((std::uint64_t{1} << exp_bits) - 1) << man_bits;
  return (neg ? sign_bit() : 0) | (exp_mask << ignored_low_bits);
}

const FloatFormat& float_format(DType t) {
  for (const auto& [type, format] : kFormats)
    if (type == t) return format;
  throw Error("no floating-point format for " + std::string(dtype_info(t).ptx));
}

FpValue decode(const FloatFormat& f, std::uint64_t bits) {
  const std::uint64_t w = bits >> f.ignored_low_bits;
  const std::uint64_t man = w & ((std::uint64_t{1} << f.man_bits) - 1);
  const int biased = static_cast<int>((w >> f.man_bits) & ((1u << f.exp_bits) - 1));
  FpValue v;
  v.neg = (w >> (f.exp_bits + f.man_bits)) & 1;
  v.frac = f.man_bits;
  const bool top = biased == (1 << f.exp_bits) - 1;
  if (top && f.specials == Specials::ieee) {
    v.cls = man ? FpClass::nan : FpClass::inf;
    return v;
  }
  if (top && f.specials == Specials::nan_only && man == (std::uint64_t{1} << f.man_bits) - 1) {  // S.1..1.1..1
    v.cls = FpClass::nan;
    return v;
  }
  v.sig = biased ? man | (std::uint64_t{1} << f.man_bits) : man;
  v.exp = biased ? biased - f.bias : f.min_exp();
  return v;
}

std::uint64_t round_to_format(const FloatFormat& f, bool neg, std::uint64_t mag, int scale, Rounding rounding) {
  const std::uint64_t sign = neg ? f.sign_bit() : 0;
  if (mag == 0) return sign;
  // Exponent of the result before rounding, clamped into the subnormal range;
  // the quantum (unit in the last place) follows from it.
  const int width = std::bit_width(mag);
  int exp = std::max(width - 1 + scale, f.min_exp());
  const int shift = exp - f.man_bits - scale;  // > 0: bits below the quantum are dropped
  std::uint64_t sig;
  if (shift <= 0) {
    sig = mag << -shift;
  } else if (shift >= 64) {
    sig = 0;
    if (rounding == Rounding::nearest_even && shift == 64 && mag > (std::uint64_t{1} << 63)) sig = 1;
  } else {
    sig = mag >> shift;
    const std::uint64_t rest = mag & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    if (rounding == Rounding::nearest_even && (rest > half || (rest == half && (sig & 1)))) ++sig;
  }
  if (sig >> (f.man_bits + 1)) {  // rounding carried into a new binade
    sig >>= 1;
    ++exp;
  }
  if (exp > f.max_exp()) return f.inf_bits(neg);
  const bool normal = sig >> f.man_bits;
  const std::uint64_t biased = normal ? static_cast<std::uint64_t>(exp + f.bias) : 0;
  const std::uint64_t man = sig & ((std::uint64_t{1} << f.man_bits) - 1);
  return sign | (((biased << f.man_bits) | man) << f.ignored_low_bits);
}

}  // namespace mmacheck::sim
