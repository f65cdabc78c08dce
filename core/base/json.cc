#include "core/base/json.h"

#include <algorithm>

#include "core/base/error.h"

namespace mmacheck {

std::string json_line(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

Json parse_json(std::string_view text, const std::string& file) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // nlohmann counts bytes read up to and including the offending one.
    const std::size_t at = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const std::string_view before = text.substr(0, at);
    const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t nl = before.rfind('\n');
    const int col = 1 + static_cast<int>(nl == std::string_view::npos ? at : at - nl - 1);
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." -> the cause.
    const std::size_t colon = what.find(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw Error(SourceLoc{file, line, col}, "malformed JSON: " + what);
  }
}

}  // namespace mmacheck
