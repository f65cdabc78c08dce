// The reader choice: one table, tried in order; the first reader that claims
// a file reads it, and the layout-file/TVMScript reader takes the rest.  A new front end that yields a Program is a
// folder under core/program/ (its reader, an `is_...` sniff and a `parse_...` entry) and one row here.  (CuTe and
// Triton yield no Program: their commands read them, core/cute and core/triton.)
#include "core/program/read/read_program.h"

#include "core/base/file_io.h"
#include "core/program/tirx_release/tirx_release.h"
#include "core/program/tvmscript/tvmscript.h"

namespace mmacheck {

namespace {

struct Reader {
  // Does this reader claim the file?  Sees the name and the content.
  bool (*claims)(std::string_view text, const std::string& file);
  Program (*read)(std::string_view text, const std::string& file, std::vector<std::string>* skipped);
};

constexpr Reader kReaders[] = {
    {is_tirx_release, parse_tirx_release},  // @T.function, @T.ir_module: docs/tirx-release.md
};

}  // namespace

ReadProgram read_program(std::string_view text, const std::string& file) {
  ReadProgram out;
  for (const Reader& r : kReaders)
    if (r.claims(text, file)) {
      out.program = r.read(text, file, &out.skipped);
      return out;
    }
  // What no row claims: the layout file and TVMScript (docs/tvmscript.md).
  out.program = parse_tvmscript(text, file, &out.skipped, &out.instances);
  return out;
}

Program parse_program(std::string_view text, const std::string& file) { return read_program(text, file).program; }

ReadProgram read_program_file(const std::string& path) { return read_program(read_text_file(path), input_name(path)); }

Program load_program(const std::string& path) {
  ReadProgram read = read_program_file(path);
  if (!read.instances.empty() && !read.program.gemm && !read.program.release) {
    std::string names;
    for (std::size_t i = 0; i < read.instances.size() && i < 3; ++i) names += (i ? ", " : "") + read.instances[i].name;
    if (read.instances.size() > 3) names += ", ...";
    throw Error(SourceLoc{input_name(path)}, "the file's tests build " + std::to_string(read.instances.size()) +
                                                 " kernels (" + names +
                                                 ") and it has none at the top level: `mmacheck prove` checks "
                                                 "each (docs/tvmscript.md, \"Test files\")");
  }
  return std::move(read.program);
}

bool mentions_gemm(std::string_view text) {
  for (std::string_view word : {"gemm", "prim_func", "T.function", "tile.apply", "ptx.mma"})
    if (text.find(word) != std::string_view::npos) return true;
  return false;
}

}  // namespace mmacheck
