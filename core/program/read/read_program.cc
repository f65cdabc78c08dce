#include "core/program/read/read_program.h"

#include "core/base/file_io.h"
#include "core/program/tirx_release/tirx_release_reader.h"
#include "core/program/tvmscript/program_parser.h"

namespace mmacheck {

Program parse_program(std::string_view text, const std::string& file) {
  if (is_tirx_release(text, file)) return parse_tirx_release(text, file);  // docs/tirx-release.md
  return ProgramParser(text, file).run();
}

Program load_program(const std::string& path) { return parse_program(read_text_file(path), input_name(path)); }

}  // namespace mmacheck
