// JSON for every --json output and every JSON input, through nlohmann/json
// (Debian's nlohmann-json3-dev): objects keep insertion order (`Json` is
// nlohmann::ordered_json), so a report's keys come out in the order written.
//
// json_line() prints one compact line; bytes that are not valid UTF-8 become
// U+FFFD, so the output is always valid JSON; non-finite doubles print as
// null.  parse_json() reads a JSON text and reports a malformed one as an
// Error at the line and column of the fault.
//
//     Json j = {{"span", {{"laneid", 32}}}, {"ok", true}};
//     json_line(j) == R"({"span":{"laneid":32},"ok":true})"
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mmacheck {

using Json = nlohmann::ordered_json;

// `value` as one line of JSON, without a trailing newline.
std::string json_line(const Json& value);

// The JSON value in `text`; `file` names it in errors (FILE:LINE:COL).
Json parse_json(std::string_view text, const std::string& file);

}  // namespace mmacheck
