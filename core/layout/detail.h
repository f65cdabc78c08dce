// Helpers private to the layout algebra (core/layout/*.cc): overflow-checked
// int64 arithmetic.  Extents, strides and offsets are any int64 TVM holds
// (up to 2^63 - 1), so a product that leaves int64 is bad input (an Error
// naming the operation and its operands), never undefined behaviour:
//
//     mul(4611686018427387904, 2, "group")  // "group: 4611686018427387904 * 2 overflows int64"
//
// Sums of many terms (a span, an element's coordinate on one axis) are taken
// exactly in 128 bits and narrowed once, so that terms of opposite signs
// cancel as TVM's analyzer folds them (S[(2, 2) : (2^63 - 1, -(2^63 - 1))]
// has span 1): only the sum itself must fit int64.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/error.h"

namespace mmacheck::layout_detail {

[[noreturn]] inline void overflow(std::string_view what, std::int64_t a, std::string_view op, std::int64_t b) {
  throw Error(std::string(what) + ": " + std::to_string(a) + std::string(op) + std::to_string(b) + " overflows int64");
}

inline std::int64_t mul(std::int64_t a, std::int64_t b, std::string_view what) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) overflow(what, a, " * ", b);
  return r;
}
inline std::int64_t add(std::int64_t a, std::int64_t b, std::string_view what) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) overflow(what, a, " + ", b);
  return r;
}
inline std::int64_t sub(std::int64_t a, std::int64_t b, std::string_view what) {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) overflow(what, a, " - ", b);
  return r;
}

// An exact sum of int64 products.  Each product of two int64 fits 127 bits;
// the sum could leave 128 bits only through many replica iters of extents
// and strides near 2^63, and then it is far outside int64 anyway (`lost`).
class ExactSum {
 public:
  explicit ExactSum(std::int64_t start = 0) : sum_(start) {}
  // sum += a * b
  void add(std::int64_t a, std::int64_t b = 1) {
    lost_ = lost_ || __builtin_add_overflow(sum_, static_cast<Wide>(a) * b, &sum_);
  }
  // The sum, when it fits int64.
  std::optional<std::int64_t> narrow() const {
    if (lost_ || sum_ < INT64_MIN || sum_ > INT64_MAX) return std::nullopt;
    return static_cast<std::int64_t>(sum_);
  }
  // Throws "WHAT is N, which overflows int64" (messages are built only here).
  [[noreturn]] void fail(std::string_view what) const {
    throw Error(std::string(what) + (lost_ ? "" : " is " + text(sum_) + ", which") + " overflows int64");
  }
  std::int64_t value(std::string_view what) const {
    if (const std::optional<std::int64_t> v = narrow()) return *v;
    fail(what);
  }
  // The sum, at most INT64_MAX (for bounds: a sum of magnitudes).
  std::int64_t saturated() const { return lost_ || sum_ > INT64_MAX ? INT64_MAX : static_cast<std::int64_t>(sum_); }

 private:
  using Wide = __int128;
  static std::string text(Wide v) {
    const bool negative = v < 0;
    // Negated as unsigned, which is defined for every value.
    unsigned __int128 magnitude = negative ? 0 - static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
    std::string digits;
    do {
      digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
      magnitude /= 10;
    } while (magnitude != 0);
    return negative ? "-" + digits : digits;
  }

  Wide sum_;
  bool lost_ = false;
};

}  // namespace mmacheck::layout_detail
