#include "core/ptx/ptx_float.h"

#include <algorithm>
#include <bit>

namespace mmacheck::ptx {

float bits_f32(std::uint32_t b) { return std::bit_cast<float>(b); }
std::uint32_t f32_bits(float f) { return std::bit_cast<std::uint32_t>(f); }
double bits_f64(std::uint64_t b) { return std::bit_cast<double>(b); }
std::uint64_t f64_bits(double d) { return std::bit_cast<std::uint64_t>(d); }

std::uint32_t f16_to_f32(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  const int exp = (h >> 10) & 0x1F;
  std::uint32_t mant = h & 0x3FF;
  if (exp == 0x1F) return sign | 0x7F800000 | (mant << 13) | (mant != 0 ? 0x400000 : 0);
  if (exp == 0) {
    if (mant == 0) return sign;
    int e = -14;
    while ((mant & 0x400) == 0) {
      mant <<= 1;
      --e;
    }
    return sign | (static_cast<std::uint32_t>(e + 127) << 23) | ((mant & 0x3FF) << 13);
  }
  return sign | (static_cast<std::uint32_t>(exp - 15 + 127) << 23) | (mant << 13);
}

std::uint16_t f32_to_f16_rn(std::uint32_t f) {
  const auto sign = static_cast<std::uint16_t>((f >> 16) & 0x8000);
  const int exp = static_cast<int>((f >> 23) & 0xFF);
  const std::uint32_t mant = f & 0x7FFFFF;
  if (exp == 0xFF) return static_cast<std::uint16_t>(sign | 0x7C00 | (mant != 0 ? 0x200 | (mant >> 13) : 0));
  const int e = exp - 127 + 15;
  if (e >= 0x1F) return static_cast<std::uint16_t>(sign | 0x7C00);
  // The significand with its implicit bit, shifted to f16's precision at
  // exponent e (subnormal when e <= 0), rounded to nearest even.
  const std::uint32_t full = exp == 0 ? mant : (mant | 0x800000);
  const int shift = e > 0 ? 13 : 14 - e;
  if (shift > 25) return sign;
  const std::uint32_t kept = full >> shift;
  const std::uint32_t rest = full & ((1u << shift) - 1);
  const std::uint32_t half = 1u << (shift - 1);
  std::uint32_t r = kept + ((rest > half || (rest == half && (kept & 1) != 0)) ? 1 : 0);
  if (e > 0) r = (static_cast<std::uint32_t>(e) << 10) + (r - 0x400);  // carries into the exponent
  return static_cast<std::uint16_t>(sign | std::min<std::uint32_t>(r, 0x7C00));
}

std::uint32_t bf16_to_f32(std::uint16_t h) { return static_cast<std::uint32_t>(h) << 16; }

std::uint16_t f32_to_bf16_rn(std::uint32_t f) {
  if ((f & 0x7F800000) == 0x7F800000 && (f & 0x7FFFFF) != 0) return static_cast<std::uint16_t>((f >> 16) | 0x40);
  const std::uint32_t rounding = 0x7FFF + ((f >> 16) & 1);
  return static_cast<std::uint16_t>((f + rounding) >> 16);
}

}  // namespace mmacheck::ptx
