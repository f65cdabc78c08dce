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

// The metrics every picture lays out with (px).
inline constexpr int kSvgCellHeight = 18;
inline constexpr int kSvgMargin = 24;  // around and between panels
inline constexpr int kSvgHeader = 46;  // title, subtitle and column indices above a grid
inline constexpr double kSvgCharCell = 6.1, kSvgCharTitle = 8.0, kSvgCharSmall = 6.1,
                        kSvgCharLegend = 7.3;  // px per character
// The width `s` takes at `per_char` px a character, with a little room.
int svg_text_width(const std::string& s, double per_char);

std::string svg_escape(const std::string& s);
// The fill of a cell lane `lane` (taken modulo 32) holds.
std::string lane_tint(std::int64_t lane);
// A whole picture: `body` on white, `width` x `height` px (its viewBox the
// same, so it scales), monospace, with the classes every picture uses
// (title, small, index, legend, cell, region, found, lane) and `style`'s.
std::string svg_document(int width, int height, const std::string& style, const std::string& body);

}  // namespace mmacheck
