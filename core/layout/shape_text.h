// shape_text — how a shape or a coordinate (a list of integers) reads in
// messages, tables and printed code.  Four spellings, one place:
//
//   list_text({16, 8})   == "[16, 8]"   Python's str() of a list: TVM's shape
//                                       arguments (tile_to, group, --shape)
//   tuple_text({16, 8})  == "(16, 8)"   Python's str() of a tuple, as TVM's
//   tuple_text({16})     == "(16,)"     messages print buffer shapes
//   coord_text({9, 3})   == "(9, 3)"    a coordinate or extent in our own
//   coord_text({5})      == "(5)"       text: a one-element one stays "(5)"
//   joined_text({16, 8}) == "16, 8"     the items alone, for argument lists
//
// Every spelling writes the integers in decimal separated by ", "; an empty
// list is "[]", "()", "()" and "".
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace mmacheck {

std::string joined_text(std::span<const std::int64_t> values);
std::string list_text(std::span<const std::int64_t> values);
std::string list_text(std::span<const int> values);
std::string tuple_text(std::span<const std::int64_t> values);
std::string coord_text(std::span<const std::int64_t> values);

}  // namespace mmacheck
