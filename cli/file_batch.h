// Running a command over many inputs, as pre-commit and CI pass them:
// `mmacheck prove a.txt b.txt`, `mmacheck prove examples/` (every .txt and
// .py under the folder, sorted), `-` for standard input.
//
// Each input gets its own report, printed whole and in input order however
// many run at once (-j N).  Bad input in one file is that file's report
// (exit status 2) and the others still run.  The exit status is the worst
// one.  A single input prints exactly as before (no heading, no summary, its
// bad input exits 2 through main()); several print `== FILE ==` before each
// text report and end with a summary line; with --json each input is one
// line of JSON (JSON Lines) with "file" first.
//
//     int status = run_batch(expand_inputs(files), {.jobs = 2, .json = true},
//                            [&](const std::string& path, std::ostream& text) { ... return FileOutcome{...}; });
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "core/base/json.h"

namespace mmacheck::cli {

// One input's result.  `label` is what the summary counts ("proved",
// "refuted", "passed", ...); `json` the report object when --json.
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
};

// The operands as inputs: files as given, folders expanded to their files
// ending in one of `extensions` (recursively, sorted, hidden entries
// skipped; `prove` and `sim` take .txt and .py, `cute` .hpp, .h and .txt,
// `triton` .json).  A folder with no such file, a missing
// path and a second `-` are errors.
std::vector<std::string> expand_inputs(const std::vector<std::string>& operands,
                                       const std::vector<std::string>& extensions = {".txt", ".py"});

// Runs `check` over `inputs`; returns the worst exit status.
int run_batch(const std::vector<std::string>& inputs, const BatchOptions& options, const FileCheck& check);

// The -j value checked: 1 <= jobs <= 256 (0 means the hardware threads).
int checked_jobs(int jobs);

}  // namespace mmacheck::cli
