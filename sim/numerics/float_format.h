// FloatFormat — the bit layout of each floating-point element type, and the
// two conversions every arithmetic model is built from: bits -> exact value
// (decode) and exact value -> bits under a rounding (round_to_format).
//
// The table in float_format.cc holds one row per format (exponent and
// fraction widths, bias, which encodings are Inf/NaN, low bits ignored).
//
//     const FloatFormat& h = float_format(DType::f16);
//     FpValue v = decode(h, 0x3c01);      // 1 + 2^-10: sig 0x401, exp 0, frac 10
//     round_to_format(h, false, 0x401, -10, Rounding::nearest_even) == 0x3c01
#pragma once

#include <cstdint>
#include <string_view>

#include "core/program/dtype.h"

namespace mmacheck::sim {

// Which encodings with an all-ones exponent are special.
enum class Specials : std::uint8_t {
  ieee,      // all-ones exponent: Inf (zero fraction) or NaN
  nan_only,  // OCP e4m3 ("fn"): no Inf; only S.1111.111 is NaN
  none,      // OCP fp6/fp4 (e3m2, e2m3, e2m1): every encoding is finite
};

struct FloatFormat {
  std::string_view name;
  int exp_bits;
  int man_bits;  // stored fraction bits
  int bias;
  Specials specials;
  int ignored_low_bits;  // tf32: an f32 pattern whose low 13 bits are ignored

  int min_exp() const { return 1 - bias; }  // exponent of subnormals and the least normals
  int max_exp() const;                      // exponent of the largest finite value
  int storage_bits() const { return 1 + exp_bits + man_bits + ignored_low_bits; }
  std::uint64_t sign_bit() const { return std::uint64_t{1} << (storage_bits() - 1); }
  std::uint64_t inf_bits(bool neg) const;  // ieee formats only
};

// Throws Error for the integer types.
const FloatFormat& float_format(DType t);

enum class FpClass : std::uint8_t { finite, inf, nan };

// A decoded element.  Finite: value = (-1)^neg * sig * 2^(exp - frac), where
// sig includes the implicit bit and exp is the unbiased exponent, clamped to
// min_exp() for subnormals (so exp is the alignment exponent the tensor-core
// models compare); zero has sig 0.  frac is the format's man_bits.
struct FpValue {
  FpClass cls = FpClass::finite;
  bool neg = false;
  std::uint64_t sig = 0;
  int exp = 0;
  int frac = 0;

  bool is_zero() const { return cls == FpClass::finite && sig == 0; }
};

FpValue decode(const FloatFormat& f, std::uint64_t bits);

enum class Rounding : std::uint8_t { toward_zero, nearest_even };

// The bits of (-1)^neg * mag * 2^scale in format f (an ieee format), rounded;
// subnormal results are kept, results beyond the largest finite value (after
// rounding) become ±Inf; mag == 0 gives ±0 by neg.
std::uint64_t round_to_format(const FloatFormat& f, bool neg, std::uint64_t mag, int scale, Rounding rounding);

}  // namespace mmacheck::sim
