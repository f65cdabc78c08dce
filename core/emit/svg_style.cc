#include "core/emit/svg_style.h"

#include <algorithm>
#include <cmath>

namespace mmacheck {

std::string svg_escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string lane_tint(std::int64_t lane) {
  const double hue = static_cast<double>((lane % 32 + 32) % 32) * 360.0 / 32.0;
  constexpr double kSat = 0.70, kLight = 0.86;
  const double chroma = (1 - std::abs(2 * kLight - 1)) * kSat;
  const double second = chroma * (1 - std::abs(std::fmod(hue / 60.0, 2.0) - 1));
  const double base = kLight - chroma / 2;
  const int sector = static_cast<int>(hue / 60.0) % 6;
  // (r, g, b) before the base, by the hue's sixth of the circle.
  const double rgb[6][3] = {{chroma, second, 0}, {second, chroma, 0}, {0, chroma, second},
                            {0, second, chroma}, {second, 0, chroma}, {chroma, 0, second}};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "#";
  for (const double v : rgb[sector]) {
    const int byte = std::clamp(static_cast<int>(std::lround((v + base) * 255.0)), 0, 255);
    out += kHex[byte / 16];
    out += kHex[byte % 16];
  }
  return out;
}

}  // namespace mmacheck
