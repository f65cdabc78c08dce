// FrameVerdict — the verdict of a front end's layout checked against the PTX
// frame of the instruction it feeds (the CuTe and Triton wings,
// core/cute/cute_check.h, core/triton/triton_check.h):
//
//   proved      every point was compared and agrees with the frame;
//   unchecked   mmacheck cannot decide it (no table row, a feature not
//               modelled); never a success;
//   refuted     a point disagrees, with a counterexample;
//   ill_formed  the input cannot be read as the layout it claims to be.
//
// Ordered from best to worst: a composite's verdict is its worst part's
// (std::max).
#pragma once

#include <string_view>

namespace mmacheck {

enum class FrameVerdict { proved, unchecked, refuted, ill_formed };
std::string_view verdict_name(FrameVerdict v);  // "proved", "unchecked", "refuted", "ill_formed"

}  // namespace mmacheck
