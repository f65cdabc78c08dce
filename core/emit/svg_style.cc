#include "core/emit/svg_style.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace mmacheck {

int svg_text_width(const std::string& s, double per_char) { return static_cast<int>(s.size() * per_char) + 4; }

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

std::string svg_document(int width, int height, const std::string& style, const std::string& body) {
  std::ostringstream svg;
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height << "' viewBox='0 0 "
      << width << " " << height << "' font-family='monospace' font-size='10'>\n"
      << "<style>.title{font-size:13px;font-weight:bold}.small{font-size:10px;fill:#555}"
         ".index{font-size:9px;fill:#777}.legend{font-size:12px}.cell{stroke:#fff;stroke-width:1}"
         ".region{fill:none;stroke:#000;stroke-width:2.5}.found{fill:none;stroke:#d00;stroke-width:2.5}"
         ".lane{fill:none;stroke:#00c;stroke-width:2.5}"
      << style << "</style>\n"
      << "<rect width='100%' height='100%' fill='#fff'/>\n"
      << body << "</svg>\n";
  return svg.str();
}

}  // namespace mmacheck
