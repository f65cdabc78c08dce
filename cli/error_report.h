// How bad input reaches the user: `FILE:LINE:COL: error: MESSAGE`, then the
// source line with a caret under the column when the text is at hand (the
// expression given on the command line, or a regular file on disk), on
// stderr; with --json also the input's object on stdout (cli/json_shape.h:
// verdict "bad input", error {"file", "line", "column", "message"}, nulls
// where unknown), so a consumer of JSON gets JSON.
//
//     prog.txt:3:17: error: unknown buffer 'Q'
//       gemm(D, Q, B, D)
//                   ^
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/base/json.h"

namespace mmacheck::cli {

// "  LINE\n  ^\n" for `loc` in `text`; "" when the line is not in it.
std::string source_excerpt(std::string_view text, const SourceLoc& loc);

// The excerpt read from loc.file when that is a regular file of moderate
// size; "" otherwise (stdin, a device, a missing file, no line known).
std::string file_excerpt(const SourceLoc& loc);

// Where and what: {"file", "line", "column", "message"}.
Json error_json(const Error& e);

// Prints `e` to `err` (with the excerpt from `source_text`, or else from the
// file), and its JSON object to `out` when `json`.
void report_error(std::ostream& err, std::ostream& out, const Error& e, bool json, std::string_view source_text = {});

}  // namespace mmacheck::cli
