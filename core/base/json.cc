#include "core/base/json.h"

#include <algorithm>

#include "core/base/error.h"

namespace mmacheck {

namespace {

// Where nlohmann's parser stopped: its parse_error callback is told the
// bytes read so far and the offending token, for syntax errors and for
// numbers out of range alike (the exception of the latter, out_of_range 406,
// carries no position).
struct StopAt : nlohmann::detail::json_sax_acceptor<Json> {
  std::size_t byte = 0;
  bool parse_error(std::size_t read, const std::string& token, const nlohmann::detail::exception&) {
    byte = read >= token.size() ? read - token.size() : 0;  // the token's first byte
    return false;
  }
};

SourceLoc locate(std::string_view text, std::size_t at, const std::string& file) {
  at = std::min(at, text.size());
  const std::string_view before = text.substr(0, at);
  const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t nl = before.rfind('\n');
  const int col = 1 + static_cast<int>(nl == std::string_view::npos ? at : at - nl - 1);
  return SourceLoc{file, line, col};
}

// "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." -> the cause.
std::string cause(const nlohmann::detail::exception& e) {
  std::string what = e.what();
  const std::size_t colon = what.find(": ");
  if (colon != std::string::npos) what = what.substr(colon + 2);
  else if (const std::size_t close = what.find("] "); close != std::string::npos) what = what.substr(close + 2);
  if (what.size() > 120) what = what.substr(0, 117) + "...";  // a 16 KB number is named, not repeated
  return printable(what);
}

}  // namespace

std::string json_line(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

Json parse_json(std::string_view text, const std::string& file) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // nlohmann counts bytes read up to and including the offending one.
    throw Error(locate(text, e.byte == 0 ? 0 : e.byte - 1, file), "malformed JSON: " + cause(e));
  } catch (const Json::exception& e) {
    // A number too large for a double (out_of_range 406), and any other
    // refusal of the parser: located where the parser stopped.
    StopAt stop;
    Json::sax_parse(text.begin(), text.end(), &stop);
    throw Error(locate(text, stop.byte, file), "malformed JSON: " + cause(e));
  }
}

}  // namespace mmacheck
