// What every picture shares: text escaped for SVG, and the tint of a lane.
//
// A warp's 32 lanes get evenly spaced hues (saturation 70%, lightness 86%:
// light enough to read text on), written as #rrggbb: every renderer reads
// hex, while some (CairoSVG among them) paint hsl() black.
//
//     svg_escape("a<b") == "a&lt;b";   lane_tint(0) == "#f4c2c2"
#pragma once

#include <cstdint>
#include <string>

namespace mmacheck {

std::string svg_escape(const std::string& s);
// The fill of a cell lane `lane` (taken modulo 32) holds.
std::string lane_tint(std::int64_t lane);

}  // namespace mmacheck
