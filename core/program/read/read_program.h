// parse_program, load_program — a file in, a Program out: the one place
// that chooses which reader reads a file (read_program.cc).
//
//     Program p = load_program("examples/seed.txt");  // the layout-file reader
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/program/program.h"

namespace mmacheck {

// Parse a layout file.  `text` is its content, `file` its name for messages.
// Throws Error with FILE:LINE:COL on the first problem.
Program parse_program(std::string_view text, const std::string& file);
// Read and parse; throws Error when the file cannot be read, or when it is
// a test file whose kernels are all built by its tests (none is the file's own).
Program load_program(const std::string& path);
// load_program on a file's text, read once by the caller.
Program load_program_text(std::string_view text, const std::string& file);

// A program with what its reader passed over as having no bearing on the
// gemm, in the readers' order ("T.func_attr (line 9)", "def helper (line
// 12)", "if __name__ block (line 40)"): reports list it in a note.
struct ReadProgram {
  Program program;
  std::vector<std::string> skipped;
  // The kernels a .py test file's tests build, each its own program (the
  // file's own `program` then has a gemm only if the file has one at the top level).
  std::vector<KernelInstance> instances;
};
ReadProgram read_program(std::string_view text, const std::string& file);
ReadProgram read_program_file(const std::string& path);

// Does `text` name a gemm at all — call `gemm(` (`T.gemm (`), or name
// `prim_func`, `T.function`, `tile.apply` or `ptx.mma`, outside `#` and `//`
// comments?  A file that names none has no kernel for mmacheck (a README, a
// helper module, a CMakeLists.txt, a C++ header that only mentions gemm in
// a comment) and is reported "no gemm" under --skip-no-gemm; one that names
// one is read, and its errors are errors.
bool mentions_gemm(std::string_view text);

}  // namespace mmacheck
