// The one shape of every command's --json output (docs/report.schema.json):
// one object per input, one line each (JSON Lines), the same with one input
// or many:
//
//     {"file": "a.txt" | null, "verdict": "...", <"checks" | "cases" | ...>,
//      ..., "notes": [...]}
//
// `file` first (null where the command reads no file), `verdict` second
// (the command's word for the outcome: "proved", "passed", "match",
// "bad input", ...), `notes` last (always an array).  Bad input is an
// object too, in the same stream, with verdict "bad input" and `error`
// {file, line, column, message}; its text `FILE:LINE:COL: error: ...` goes to
// stderr, with --json or without, one input or many.
//
//     file_json("a.txt", {{"verdict", "passed"}, {"cases", 64}})
//     == {"file": "a.txt", "verdict": "passed", "cases": 64, "notes": []}
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/base/json.h"

namespace mmacheck::cli {

// `body` in the shape: `file` (empty: null) first, then `verdict`, the other
// keys in their order, `notes` last ([] when `body` has none).
Json file_json(const std::string& file, const Json& body);

// One D element a run got wrong, in every job's report (gpu, sim
// of a wgmma file): {"case", "distribution", "row", "col", "expected", "got"},
// the values as element_text prints them.
Json mismatch_json(std::int64_t case_index, std::string_view distribution, int row, int col,
                   const std::string& expected, const std::string& got);

// The object of an input that is bad input: verdict "bad input", `error`
// the location and message (the file from `e` where `file` is empty).
Json bad_input_json(const std::string& file, const Error& e);

}  // namespace mmacheck::cli
