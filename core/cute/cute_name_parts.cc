#include "core/cute/cute_name_parts.h"

#include <cctype>

namespace mmacheck {

std::vector<std::string_view> split_name(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

bool read_mnk(std::string_view s, int* mnk) {
  int part = 0;
  mnk[0] = mnk[1] = mnk[2] = 0;
  for (const char c : s) {
    if (c == 'x') {
      if (++part > 2) return false;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      if (mnk[part] >= 100000) return false;
      mnk[part] = mnk[part] * 10 + (c - '0');
    } else {
      return false;
    }
  }
  return part == 2 && mnk[0] && mnk[1] && mnk[2];
}

bool refuse(std::string* problem, std::string why) {
  if (problem) *problem = std::move(why);
  return false;
}

}  // namespace mmacheck
