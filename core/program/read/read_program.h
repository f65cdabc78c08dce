// parse_program, load_program — a file in, a Program out: the one place
// that chooses which reader reads a file (read_program.cc).
//
//     Program p = load_program("examples/seed.txt");  // the layout-file reader
#pragma once

#include <string>
#include <string_view>

#include "core/program/program.h"

namespace mmacheck {

// Parse a layout file.  `text` is its content, `file` its name for messages.
// Throws Error with FILE:LINE:COL on the first problem.
Program parse_program(std::string_view text, const std::string& file);
// Read and parse; throws Error when the file cannot be read.
Program load_program(const std::string& path);

}  // namespace mmacheck
