// TritonLayout — a Triton linear layout (triton/Tools/LinearLayout.h): for
// each input dimension (register, lane, warp, block) a list of bases, each a
// vector over the output dimensions (dim0, dim1, ...).  The image of an input
// is the XOR of the bases of its set bits:
//
//     L(register r, lane l, ...) = XOR over set bits b of r of register[b]
//                                  XOR over set bits b of l of lane[b] ...
//
// A zero basis maps two inputs to the same output (duplicated registers,
// broadcast lanes or warps).  Read as LinearLayout::toString() prints it
//
//      - register=1 -> (0, 1)
//        register=2 -> (8, 0)
//      - lane=1 -> (0, 2)
//        ...
//      - warp is a size 1 dimension
//     where out dims are: [dim0 (size 16), dim1 (size 8)]
//
// or as Gluon's DistributedLinearLayout fields in JSON:
// {"reg_bases": [[0, 1], [8, 0]], "lane_bases": [...], "warp_bases": [],
//  "block_bases": [], "shape": [16, 8]}.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json_source.h"

namespace mmacheck {

struct TritonLayout {
  struct InDim {
    std::string name;                              // "register", "lane", "warp", "block"
    std::vector<std::vector<std::int64_t>> bases;  // bases[b] = image of input 1 << b
  };
  std::vector<InDim> in_dims;
  std::vector<std::pair<std::string, std::int64_t>> out_dims;  // ("dim0", 16), ...

  // The bases of `name` (none when the layout has no such input dimension).
  const std::vector<std::vector<std::int64_t>>& bases(std::string_view name) const;
  std::int64_t in_size(std::string_view name) const { return std::int64_t{1} << bases(name).size(); }
  // The output coordinate of one input point.
  std::vector<std::int64_t> apply(std::int64_t reg, std::int64_t lane, std::int64_t warp = 0,
                                  std::int64_t block = 0) const;
  std::string str() const;  // LinearLayout::toString()'s form
};

// Both readers require what Triton's LinearLayout requires of a layout it
// can build: input dimensions among register, lane, warp, block, each once,
// of at most 2^24 points; out dims dim0, dim1, ... each a power of two in
// [1, 2^24] (a size of 0, -16, 17 or 2^62 is an Error at the size); every
// basis one integer per out dim.  Whether the bases stay inside the shape is
// the checker's question (core/triton/triton_check.h), not the reader's.
//
// toString() text; `first_line` numbers the text's first line in errors.
TritonLayout parse_triton_layout(std::string_view text, const std::string& file, int first_line = 1);
// Gluon's DistributedLinearLayout fields: the value at JSON pointer
// `pointer` of `src`, whose positions locate errors.  Keys other than
// reg_bases, lane_bases, warp_bases, block_bases and shape are errors.
TritonLayout triton_layout_from_json(const JsonSource& src, const std::string& pointer);

}  // namespace mmacheck
