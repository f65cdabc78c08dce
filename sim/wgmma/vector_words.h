// The words of one .mmav line (sim/vectors/vector_file.h's text format), as
// the whole-instruction vector files (wgmma, tcgen05) read and write them:
// whitespace-separated words, and operand lines "X w0 w1 ..." of hex element
// words, each zero-padded to its type's digits.
//
//     words_of("A 3c00 0001")  == {"A", "3c00", "0001"}
//     hex_words(words_of(line), line, DType::f16, 2, loc) == {0x3c00, 0x0001}
//     hex_line('A', {0x3c00, 1}, DType::f16) == "A 3c00 0001"
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/program/dtype.h"

namespace mmacheck::sim {

// The words of `line` (views into it), split at spaces, tabs and '\r'.
std::vector<std::string_view> words_of(std::string_view line);

// words[1..] as `want` hex words of `type`.  Throws Error at `loc` (its
// column 1) when the count differs, or at the bad word's column of `line`
// when one is no hex word or has bits outside the type.
std::vector<std::uint64_t> hex_words(const std::vector<std::string_view>& words, std::string_view line, DType type,
                                     std::size_t want, const SourceLoc& loc);

// "X w0 w1 ...": `name`, then each word in the type's hex digits.
std::string hex_line(char name, const std::vector<std::uint64_t>& words, DType type);

}  // namespace mmacheck::sim
