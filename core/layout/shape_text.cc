#include "core/layout/shape_text.h"

namespace mmacheck {

namespace {

template <typename T>
std::string joined(std::span<const T> values) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s;
}

}  // namespace

std::string joined_text(std::span<const std::int64_t> values) { return joined(values); }

std::string list_text(std::span<const std::int64_t> values) { return "[" + joined(values) + "]"; }

std::string list_text(std::span<const int> values) { return "[" + joined(values) + "]"; }

std::string tuple_text(std::span<const std::int64_t> values) {
  return "(" + joined(values) + (values.size() == 1 ? ",)" : ")");
}

std::string coord_text(std::span<const std::int64_t> values) { return "(" + joined(values) + ")"; }

}  // namespace mmacheck
