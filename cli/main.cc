// mmacheck — verify and simulate warp-level tensor-core GEMM.
//
// `mmacheck FILE ...` is `mmacheck prove FILE ...`; otherwise the first
// argument names a command (see `mmacheck help`).  Every Error reaching this
// boundary is bad input: printed once (with the source line and a caret, and
// as a JSON object when --json was asked for), exit status 2.
#include <algorithm>
#include <csignal>
#include <exception>
#include <filesystem>
#include <new>
#include <iostream>

#include "cli/command.h"
#include "cli/error_report.h"
#include "cli/help.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/heap_tuning.h"
#include "mmacheck_version.h"

namespace mmacheck::cli {
namespace {

// `mmacheck WORD` proves the file WORD; a bare word that names no file and
// has no path or extension in it is taken for a mistyped command instead.
bool looks_like_command(const std::string& word) {
  if (word.empty() || word.front() == '-' || word.find_first_of("./\\") != std::string::npos) return false;
  std::error_code ec;
  return !std::filesystem::exists(word, ec);
}

int dispatch(const Args& args) {
  if (args.empty()) {
    print_overview(std::cerr);
    return kBadInput;
  }
  const std::string& first = args.front();
  if (first == "--help" || first == "-h") return run_help({});
  if (first == "--version") {
    std::cout << "mmacheck " << kVersion << " (git " << kGitRevision << ")\n";
    return kHolds;
  }
  if (const Command* cmd = find_command(first)) return run_command(*cmd, Args(args.begin() + 1, args.end()));
  if (looks_like_command(first)) {
    std::string message = "unknown command '" + first + "'";
    if (const Command* near = nearest_command(first)) message += "; did you mean '" + std::string(near->name) + "'?";
    message += " (commands:";
    for (const Command& c : commands())
      if (c.alias_of.empty()) message += " " + std::string(c.name);
    throw Error(message + ")");
  }
  return run_prove(args);
}

}  // namespace
}  // namespace mmacheck::cli

int main(int argc, char** argv) {
  using namespace mmacheck::cli;
  mmacheck::keep_large_blocks_in_heap();
  // Past `ulimit -f` a write fails with EFBIG and is reported (exit 2)
  // instead of the signal killing the process mid-output.
  std::signal(SIGXFSZ, SIG_IGN);
  const Args args(argv + 1, argv + argc);
  const bool json = std::find(args.begin(), args.end(), "--json") != args.end();
  try {
    const int status = dispatch(args);
    mmacheck::finish_standard_output();  // a result lost to a full disk is not a success
    return status;
  } catch (const HelpShown&) {
    return kHolds;
  } catch (const mmacheck::Error& e) {
    report_error(std::cerr, std::cout, e, json);
  } catch (const std::bad_alloc&) {
    // The limits (docs/reliability.md) keep every default run far from this.
    report_error(std::cerr, std::cout, mmacheck::Error("out of memory (a --max-* limit raised too far?)"), json);
  } catch (const std::exception& e) {
    report_error(std::cerr, std::cout, mmacheck::Error(e.what()), json);
  }
  return kBadInput;
}
