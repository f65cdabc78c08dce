// InputKind — the front door's table: every kind of file the instruction
// families read, how it is recognised by its content, and the check `prove`
// runs on it (README.md, "Commands").  The gemm programs
// (layout files, TVMScript, the released TIRx) are the door's default: a
// file that no row recognises and that names a gemm is read as a program
// (core/program/read/read_program.h).  A new front end is a folder and one
// row here.
//
// Recognition is by content, never by the extension alone, and first row
// first: a TMA file holds wgmma operand lines too, so `tma` comes before
// `wgmma`.
//
//     const InputKind* k = recognise("examples/tma/bad_coverage.txt", text);
//     k->name == "tma"
//     k->check("examples/tma/bad_coverage.txt", text, {.json = false}, std::cout).status == kFails
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/file_batch.h"
#include "core/base/limits.h"
#include "core/ptx/ptx_launch.h"

namespace mmacheck::cli {

struct KindOptions {
  bool json = false;   // the report object instead of text
  bool allow = false;  // --allow-unchecked
  Limits limits{};
  // sim's: random cases (distributions taking turns), mismatches shown.
  int cases = 64;
  std::uint64_t seed = 1;
  std::string inputs = "standard";
  int show = 10;
  std::optional<std::string> arch = std::nullopt;  // sim's --arch for vector files (else their family's)
  ptx::LaunchChoice launch{};                      // a PTX or CUDA kernel's launch options
};

// The CTA machine's options for a PTX or CUDA kernel's run: every hardware
// thread, the launch's --max-steps.
ptx::RunOptions run_options(const KindOptions& options);

struct InputKind {
  std::string_view name;  // the family command that checks it alone: "tma"
  std::string_view what;  // "TMA copy and wgmma operand files", for --help and errors
  bool (*recognises)(std::string_view path, std::string_view text);
  // The file's text is read once, by the caller (standard input can be read
  // only once).
  FileOutcome (*check)(const std::string& path, const std::string& text, const KindOptions& options, std::ostream& out);
  // What `mmacheck sim` runs on it, where the family has an arithmetic model
  // to run it with; nullptr where it has none yet (sim says so, exit 2).
  FileOutcome (*simulate)(const std::string& path, const std::string& text, const KindOptions& options,
                          std::ostream& out) = nullptr;
  // What `mmacheck gpu` runs on it (a build with the cuda layer), nullptr
  // where the device has no run of the family's files yet.
  FileOutcome (*gpu)(const std::string& path, const std::string& text, const KindOptions& options,
                     std::ostream& out) = nullptr;
  // Whether the kind is a kernel launched as KindOptions::launch says (the
  // launch options are an error on any other file).
  bool launched = false;
};

// Throws Error at `path` when launch options were given for a file that is
// not a launched kernel (`kind` nullptr: a gemm program).
void check_launch_options(const ptx::LaunchChoice& launch, const InputKind* kind, const std::string& path);

// The jobs that read files of every kind through the door, each a column
// of the table (prove: check; sim: simulate; gpu: gpu).
enum class Job { prove, sim, gpu };
// Whether `kind` has `job`'s column (a build without the cuda layer has no
// gpu column).
bool supports(const InputKind& kind, Job job);
// The files a folder operand gives `job` (cli/file_batch.h's expand_inputs):
// prove takes every extension the door reads, sim the programs and vector
// files, gpu the programs and wgmma files.
const std::vector<std::string>& folder_extensions(Job job);
// "reads: ..." for `mmacheck JOB --help`: the gemm programs and each kind
// with the job's column, and what a folder gives.
std::string reads_text(Job job);

// The rows, in the order they are tried.
std::span<const InputKind> input_kinds();

// The first row recognising the file; nullptr when none does (a program, or
// a file mmacheck does not read).
const InputKind* recognise(std::string_view path, std::string_view text);
// The same, where the command line gives launch options: a file a launched
// row (PTX, CUDA) also recognises goes to that row (a kernel's PTX with
// wgmma and no launch file beside it, given --launch, runs the launch).
const InputKind* recognise(std::string_view path, std::string_view text, const ptx::LaunchChoice& launch);

// "TMA copy files (...), ..., CuTe headers, atom lists and DSL prints": the
// rows' kinds, for the error of a file no row recognises.
std::string kind_names();

}  // namespace mmacheck::cli
