// Helpers private to the layout algebra (core/layout/*.cc): overflow-checked
// int64 arithmetic.  Extents and strides come from user text, so a product
// that leaves int64 is bad input (an Error naming the operation), never
// undefined behaviour.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/base/checked.h"
#include "core/base/error.h"

namespace mmacheck::layout_detail {

inline std::int64_t mul(std::int64_t a, std::int64_t b, std::string_view what) { return checked_mul(a, b, what); }
inline std::int64_t add(std::int64_t a, std::int64_t b, std::string_view what) { return checked_add(a, b, what); }
inline std::int64_t sub(std::int64_t a, std::int64_t b, std::string_view what) { return checked_sub(a, b, what); }

}  // namespace mmacheck::layout_detail
