#include "sim/numerics/f64_fma.h"

#include <bit>
#include <cmath>
#include <initializer_list>

namespace mmacheck::sim {

namespace {
constexpr std::uint64_t kQuietBit = std::uint64_t{1} << 51;
constexpr std::uint64_t kInvalid = 0xFFF8000000000000;

bool is_nan(std::uint64_t w) { return (w & 0x7FFFFFFFFFFFFFFF) > 0x7FF0000000000000; }
}  // namespace

std::uint64_t f64_fma(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  // NaN operands: the multiplier b's payload first, then the addend c's, then
  // the multiplicand a's -- the one order consistent with every multi-NaN
  // fma in the shared H200 vectors (docs/numerics.md).
  for (const std::uint64_t w : {b, c, a})
    if (is_nan(w)) return w | kQuietBit;
  const double r = std::fma(std::bit_cast<double>(a), std::bit_cast<double>(b), std::bit_cast<double>(c));
  return std::isnan(r) ? kInvalid : std::bit_cast<std::uint64_t>(r);
}

}  // namespace mmacheck::sim
