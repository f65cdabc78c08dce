#include "sim/numerics/element_value.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "sim/numerics/float_format.h"

namespace mmacheck::sim {

long double element_value(DType type, std::uint64_t bits) {
  if (!dtype_info(type).is_float) return static_cast<long double>(int_value(type, bits));
  const FpValue v = decode(float_format(type), bits);
  if (v.cls == FpClass::nan) return std::numeric_limits<long double>::quiet_NaN();
  const long double magnitude = v.cls == FpClass::inf ? std::numeric_limits<long double>::infinity()
                                                      : std::ldexp(static_cast<long double>(v.sig), v.exp - v.frac);
  return v.neg ? -magnitude : magnitude;
}

std::string element_text(DType type, std::uint64_t bits) {
  const int digits = hex_digits(type);
  const int precision = dtype_bits(type) == 64 ? 17 : 9;  // round-trips f64 / f32
  char buf[96];
  std::snprintf(buf, sizeof buf, "0x%0*llx (%.*Lg)", digits, static_cast<unsigned long long>(bits), precision,
                element_value(type, bits));
  return buf;
}

}  // namespace mmacheck::sim
