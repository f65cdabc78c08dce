// Reading inputs and writing outputs whole.
//
// Outputs are never left half written: write_file_atomic writes a temporary
// file beside the target and renames it over the target only once complete.
#pragma once

#include <string>
#include <string_view>

namespace mmacheck {

// The whole file; throws Error("cannot read FILE: reason") on failure.
std::string read_text_file(const std::string& path);
// Write `content` to `path` via a temporary file and rename(2); throws Error
// on failure and leaves no temporary behind.
void write_file_atomic(const std::string& path, std::string_view content);

}  // namespace mmacheck
