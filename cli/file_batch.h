// Running a command over many inputs, as pre-commit and CI pass them:
// `mmacheck prove a.txt b.txt`, `mmacheck prove examples/` (every .txt and
// .py under the folder, sorted; --include/--exclude globs on the paths
// relative to the folder), `-` for standard input.  A file that names no
// gemm (mentions_gemm, core/program/read/read_program.h) is "no gemm" under
// --skip-no-gemm, the default when a folder is given: counted, exit 0.
//
// Each input gets its own report, printed whole and in input order however
// many run at once (-j N).  Bad input in one file is that file's report
// (exit status 2) and the others still run.  The exit status is the worst
// one.  A single input prints without heading or summary (its bad input exits
// 2 through main()); several print `== FILE ==` before each text report and
// end with a summary line.  Bad input's text goes to stderr either way.  With
// --json each input is one line of JSON (JSON Lines) in the shape of
// cli/json_shape.h, however many inputs.
//
//     int status = run_batch(expand_inputs(files), {.jobs = 2, .json = true},
//                            [&](const std::string& path, std::ostream& text) { ... return FileOutcome{...}; });
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "core/base/json.h"

namespace mmacheck::cli {

// One input's result.  `label` is what the summary counts ("proved",
// "refuted", "passed", ...); `json` the report object when --json, or an
// array of them (a test file's kernels, docs/tvmscript.md), each its own line.
struct FileOutcome {
  int status = 0;
  std::string label;
  Json json;
};

// Checks one input; text reports go to `text` (ignored with --json).
using FileCheck = std::function<FileOutcome(const std::string& path, std::ostream& text)>;

struct BatchOptions {
  int jobs = 1;       // inputs checked at once
  bool json = false;  // JSON Lines instead of text
  // A file whose text names no gemm is reported "no gemm" (exit status 0,
  // JSON {"verdict": "no_gemm"}) instead of being checked — unless
  // `also_checks` says the command checks it all the same (prove: a file of
  // a family's kind, cli/input_kinds.h).
  bool skip_no_gemm = false;
  bool (*also_checks)(std::string_view path, std::string_view text) = nullptr;
};

// Which files of a folder are inputs: glob patterns on the path relative to
// the folder given, '/'-separated (`*` and `?` within a name, `**/` any
// folders, `**` anything).  A file is taken when it matches some --include
// (or none is given) and no --exclude.  Files named on the command line are
// always taken.
struct InputSelection {
  std::vector<std::string> include, exclude;
};
bool glob_match(std::string_view pattern, std::string_view path);

// The operands as inputs: files as given, folders expanded to their files
// ending in one of `extensions` that `selection` takes (recursively, sorted,
// hidden entries skipped; `sim` takes .txt and .py, `prove` every kind the
// front door reads: cli/cmd_prove.cc).  A folder with no such file, a missing path
// and a second `-` are errors.
std::vector<std::string> expand_inputs(const std::vector<std::string>& operands, const InputSelection& selection = {},
                                       const std::vector<std::string>& extensions = {".txt", ".py"});

// --include, --exclude, --skip-no-gemm, --no-skip-no-gemm for the commands
// that take folders, and what they select; skip_no_gemm is on by default when
// an operand is a folder.
boost::program_options::options_description input_options();
InputSelection input_selection(const boost::program_options::variables_map& vm);
bool skip_no_gemm(const boost::program_options::variables_map& vm, const std::vector<std::string>& operands);

// Runs `check` over `inputs`; returns the worst exit status.
int run_batch(const std::vector<std::string>& inputs, const BatchOptions& options, const FileCheck& check);

// The -j value checked: 1 <= jobs <= 256 (0 means the hardware threads).
int checked_jobs(int jobs);

}  // namespace mmacheck::cli
