// The layout-file and TVMScript reader's entry: the layout-file dialect and
// TVMScript (docs/tvmscript.md) are read by one reader, since a file may mix
// them (layouts bound at the top, a @T.prim_func below).  It takes any file
// the other readers do not claim (core/program/read/read_program.cc).
//
//     D = buffer((16, 8), "float32", "local", D_FRAG)
//     scope warp
//     gemm(D, A, B, D)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/program/program.h"

namespace mmacheck {

// Read a layout file or TVMScript; throws Error at the first construct it
// does not read.  `skipped`, when given, gets what the reader passed over
// as having no bearing on the gemm ("T.func_attr (line 9)", "def helper (line 12)").
// `instances`, when given, gets the kernels a .py file's tests build
// (docs/tvmscript.md, "Test files"), each read as a program of its own.
Program parse_tvmscript(std::string_view text, const std::string& file, std::vector<std::string>* skipped = nullptr,
                        std::vector<KernelInstance>* instances = nullptr);

}  // namespace mmacheck
