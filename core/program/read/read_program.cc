// The reader choice: one table, tried in order; the first reader that claims
// a file reads it, and the layout-file/TVMScript reader takes the rest.  A new front end that yields a Program is a
// folder under core/program/ (its reader, an `is_...` sniff and a `parse_...` entry) and one row here.  (CuTe and
// Triton yield no Program: their commands read them, core/cute and core/triton.)
#include "core/program/read/read_program.h"

#include <algorithm>
#include <cctype>

#include "core/base/file_io.h"
#include "core/program/tirx_release/tirx_release.h"
#include "core/program/tvmscript/tvmscript.h"

namespace mmacheck {

namespace {

// A released TIRx file: its one kernel the program, several each an instance.
// Several, or kernels its factories build: each an instance, the file's
// own kernels first.
void read_tirx_release(std::string_view text, const std::string& file, ReadProgram& out) {
  std::vector<KernelInstance> built;
  std::vector<ReleaseFunction> functions = parse_tirx_release_functions(text, file, &out.skipped, &built);
  if (functions.size() == 1 && built.empty()) {
    out.program = std::move(functions.front().program);
    return;
  }
  out.program.file = file;
  for (ReleaseFunction& f : functions)
    out.instances.push_back(KernelInstance{f.name, std::move(f.program), f.loc, std::nullopt, out.skipped});
  const std::size_t offset = out.instances.size();
  for (KernelInstance& k : built) {
    if (k.same_as) *k.same_as += offset;
    out.instances.push_back(std::move(k));
  }
}

struct Reader {
  // Does this reader claim the file?  Sees the name and the content.
  bool (*claims)(std::string_view text, const std::string& file);
  void (*read)(std::string_view text, const std::string& file, ReadProgram& out);
};

constexpr Reader kReaders[] = {
    {is_tirx_release, read_tirx_release},  // @T.function, @T.ir_module: docs/tirx-release.md
};

}  // namespace

ReadProgram read_program(std::string_view text, const std::string& file) {
  ReadProgram out;
  for (const Reader& r : kReaders)
    if (r.claims(text, file)) {
      r.read(text, file, out);
      return out;
    }
  // What no row claims: the layout file and TVMScript (docs/tvmscript.md).
  out.program = parse_tvmscript(text, file, &out.skipped, &out.instances);
  return out;
}

Program parse_program(std::string_view text, const std::string& file) { return read_program(text, file).program; }

ReadProgram read_program_file(const std::string& path) { return read_program(read_text_file(path), input_name(path)); }

Program load_program(const std::string& path) { return load_program_text(read_text_file(path), input_name(path)); }

Program load_program_text(std::string_view text, const std::string& file) {
  ReadProgram read = read_program(text, file);
  if (!read.instances.empty() && !read.program.gemm && !read.program.release) {
    std::string names;
    for (std::size_t i = 0; i < read.instances.size() && i < 3; ++i) names += (i ? ", " : "") + read.instances[i].name;
    if (read.instances.size() > 3) names += ", ...";
    throw Error(SourceLoc{file}, "the file builds " + std::to_string(read.instances.size()) + " kernels (" + names +
                                     ") and none is the file's own: `mmacheck prove` checks "
                                     "each (docs/tvmscript.md, \"Test files\"; docs/tirx-release.md)");
  }
  return std::move(read.program);
}

bool mentions_gemm(std::string_view text) {
  const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    // Comments are not code: `# gemm examples` in a CMakeLists.txt, `// the
    // gemm kernels` in a C++ header.
    line = line.substr(0, std::min(line.find('#'), line.find("//")));
    for (std::string_view word : {"prim_func", "T.function", "tile.apply", "ptx.mma"})
      if (line.find(word) != std::string_view::npos) return true;
    // `gemm` called: `gemm(D, A, B, C)`, `T.gemm (...)`.
    for (std::size_t g = line.find("gemm"); g != std::string_view::npos; g = line.find("gemm", g + 1)) {
      if (g > 0 && ident(line[g - 1])) continue;
      std::size_t after = g + 4;
      while (after < line.size() && (line[after] == ' ' || line[after] == '\t')) ++after;
      if (after < line.size() && line[after] == '(') return true;
    }
  }
  return false;
}

}  // namespace mmacheck
