// triton_span() — which elements a Triton linear layout holds, and how often.
//
// A linear layout over GF(2) (core/triton/triton_layout.h) maps (register,
// lane, warp) to an element; with power-of-two out dims (the reader's rule)
// its image is the span of the bases, so three questions are linear algebra
// over at most 96 bases, not an enumeration of the tensor:
//
//   outside: a basis with a coordinate outside [0, size): the input point
//            1 << b of that dimension holds an element that does not exist;
//   unheld:  the bases span less than the tensor: an element (a unit vector
//            outside the span) that no register of any lane or warp holds;
//   twice:   a nonzero combination of bases that maps to (0, ..): two input
//            points hold one element.  Combinations of warp bases alone are
//            broadcast (warp w holds, register for register, what warp 0
//            does), reported as `broadcast` and not as `twice`; one with a
//            register or lane part is two different registers or lanes
//            holding one element — a zero register basis (duplicated
//            registers) included.
//
// Example: the f32 accumulator 32x8 of warps_per_cta [2, 1] with warp_bases
// [[0, 1]] (register basis 0) instead of [[16, 0]]: `twice` = register 1 of
// lane 0, warp 0 and register 0 of lane 0, warp 1 (both hold (0, 1)), and
// `unheld` = (16, 0): rows 16..31 are never computed.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "core/triton/triton_layout.h"

namespace mmacheck {

struct TritonPoint {
  std::int64_t reg = 0, lane = 0, warp = 0;
};

struct TritonSpan {
  struct Outside {
    TritonPoint at;
    std::array<std::int64_t, 2> element{};
  };
  struct Twice {
    TritonPoint first, second;  // both hold `element`
    std::array<std::int64_t, 2> element{};
  };
  std::optional<Outside> outside;
  std::optional<std::array<std::int64_t, 2>> unheld;
  std::optional<Twice> twice;
  bool broadcast = false;  // some warps replicate others exactly
};

// `layout` has two out dims of power-of-two sizes and at most 24 bases per
// input dimension (the readers' guarantees); register, lane and warp only.
TritonSpan triton_span(const TritonLayout& layout);

}  // namespace mmacheck
