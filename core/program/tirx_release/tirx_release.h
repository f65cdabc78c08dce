// The released-TIRx reader's entry (docs/tirx-release.md): a file written
// for apache-tvm-tirx 0.1.0a4, as users write it or as TVM prints it after
// TileDispatch, read into a Program with `release` set.  parse_program's
// table (core/program/read/read_program.cc) hands it the files it claims.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/program/program.h"

namespace mmacheck {

// True when `text` is written for the released TIRx: a `@T.function` or an
// `@T.ir_module` / `@I.ir_module` class.
bool is_tirx_release(std::string_view text, const std::string& file);
// Read such a file; throws Error at the first construct it does not read.
// `skipped`, when given, gets what the reader passed over as having no
// bearing on the gemm ("T.func_attr (line 9)", "def helper (line 12)").
Program parse_tirx_release(std::string_view text, const std::string& file, std::vector<std::string>* skipped = nullptr);

// Every @T.function of the file (an @I.ir_module's, or several at the top
// level), in order, each read on its own over the module's names as they
// stand at its def: a file of two kernels is two programs.
// parse_tirx_release() is the one of a file that holds one.
struct ReleaseFunction {
  std::string name;  // the def's name: "main"
  SourceLoc loc;     // the def
  Program program;
};
// `built`, when given, gets the kernels the file builds through factories
// (`main = make_kernel(16)` at the top level, or tests calling a factory:
// docs/tirx-release.md, "Factories and tests"), each read on its own with its
// closure's values; without it such a file is an Error.
std::vector<ReleaseFunction> parse_tirx_release_functions(std::string_view text, const std::string& file,
                                                          std::vector<std::string>* skipped = nullptr,
                                                          std::vector<KernelInstance>* built = nullptr);

}  // namespace mmacheck
