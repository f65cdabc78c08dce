// The reader choice: one table, tried in order; the first reader that claims
// a file reads it, and the layout-file/TVMScript reader takes the rest.  A new front end that yields a Program is a folder under
// core/program/ (its reader, an `is_...` sniff and a `parse_...` entry) and
// one row here.  (CuTe and Triton yield no Program: their commands read
// them, core/cute and core/triton.)
#include "core/program/read/read_program.h"

#include "core/base/file_io.h"
#include "core/program/tirx_release/tirx_release.h"
#include "core/program/tvmscript/tvmscript.h"

namespace mmacheck {

namespace {

struct Reader {
  // Does this reader claim the file?  Sees the name and the content.
  bool (*claims)(std::string_view text, const std::string& file);
  Program (*read)(std::string_view text, const std::string& file);
};

constexpr Reader kReaders[] = {
    {is_tirx_release, parse_tirx_release},  // @T.function, @T.ir_module: docs/tirx-release.md
};

}  // namespace

Program parse_program(std::string_view text, const std::string& file) {
  for (const Reader& r : kReaders)
    if (r.claims(text, file)) return r.read(text, file);
  return parse_tvmscript(text, file);  // what no row claims: the layout file and TVMScript (docs/tvmscript.md)
}

Program load_program(const std::string& path) { return parse_program(read_text_file(path), input_name(path)); }

}  // namespace mmacheck
