// Checked int64 arithmetic for counts, indices and sizes.
//
// Extents, strides and shapes come from user text, so any product or sum of
// them may leave int64, and any narrowing to int may wrap.  These helpers
// make that bad input (an Error naming the quantity) instead of undefined
// behaviour or a silently wrong count:
//
//     checked_mul(1 << 20, 1 << 20, "A elements") == 1 << 40
//     checked_mul(INT64_MAX, 2, "A elements")  // throws "A elements overflows int64"
//     checked_int(std::int64_t{1} << 36, "M tiles")  // throws "M tiles (68719476736) does not fit in int"
//
// The try_ forms return std::nullopt instead of throwing, for callers that
// report an overflowing amount as "over the limit" (core/base/limits.h).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/error.h"

namespace mmacheck {

inline std::optional<std::int64_t> try_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<std::int64_t> try_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// The product of `factors` (1 when empty), or nullopt when it leaves int64.
inline std::optional<std::int64_t> try_product(std::span<const std::int64_t> factors) {
  std::int64_t r = 1;
  for (std::int64_t f : factors)
    if (__builtin_mul_overflow(r, f, &r)) return std::nullopt;
  return r;
}

inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, std::string_view what) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw Error(std::string(what) + " overflows int64");
  return r;
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, std::string_view what) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw Error(std::string(what) + " overflows int64");
  return r;
}

inline std::int64_t checked_sub(std::int64_t a, std::int64_t b, std::string_view what) {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) throw Error(std::string(what) + " overflows int64");
  return r;
}

inline std::int64_t checked_product(std::span<const std::int64_t> factors, std::string_view what) {
  const std::optional<std::int64_t> r = try_product(factors);
  if (!r) throw Error(std::string(what) + " overflows int64");
  return *r;
}

// `v` as an int; throws when it does not fit.
inline int checked_int(std::int64_t v, std::string_view what) {
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    throw Error(std::string(what) + " (" + std::to_string(v) + ") does not fit in int");
  return static_cast<int>(v);
}

// Python's (and TVM's) // and % for a positive divisor: the quotient rounds
// toward minus infinity, the remainder takes the divisor's sign.
//   floor_div(-1, 4) == -1;  floor_mod(-1, 4) == 3
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && a < 0); }
constexpr std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return a - floor_div(a, b) * b; }

}  // namespace mmacheck
