// The pieces CUTLASS's atom names are made of, read the one way for every
// family (SM80_16x8x16_F32F16F16F32_TN, SM90_64x128x16_F32BF16BF16_SS, ...).
//
//   split_name("SM80_16x8x16_F16") -> "SM80", "16x8x16", "F16"
//   read_mnk("16x8x32", mnk)       -> true; mnk = {16, 8, 32}
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mmacheck {

// The parts of `s` between the separators (empty parts kept).
std::vector<std::string_view> split_name(std::string_view s, char sep = '_');

// "MxNxK" with three positive decimal numbers under a million (no instruction is
// larger, and their product stays far from overflow); false otherwise.
bool read_mnk(std::string_view s, int* mnk);

// Sets *problem to `why` (when asked for) and returns false: a decoder's
// `return refuse(problem, "...")`.
bool refuse(std::string* problem, std::string why);

}  // namespace mmacheck
