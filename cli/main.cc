// mmacheck — verify and simulate warp-level tensor-core GEMM.
//
// `mmacheck FILE ...` is `mmacheck prove FILE ...`; otherwise the first
// argument names a command (see `mmacheck help`).  Every Error reaching this
// boundary is bad input: printed once, exit status 2.
#include <exception>
#include <filesystem>
#include <new>
#include <iostream>

#include "cli/command.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/heap_tuning.h"

namespace {

using mmacheck::cli::Args;

void print_usage(std::ostream& os) {
  os << "usage: mmacheck FILE [options]          (same as: mmacheck prove FILE)\n"
     << "       mmacheck COMMAND [arguments]\n\ncommands:\n";
  for (const mmacheck::cli::Command& c : mmacheck::cli::commands()) {
    std::string line = "  " + std::string(c.synopsis);
    if (line.size() < 52) line.resize(52, ' ');
    os << line << "  " << c.summary << "\n";
  }
  os << "\nexit status: 0 holds, 1 does not hold, 2 bad input or usage, 3 no GPU\n";
}

// `mmacheck WORD` proves the file WORD; a bare word that names no file and
// has no path or extension in it is taken for a mistyped command instead.
bool looks_like_command(const std::string& word) {
  if (word.empty() || word.front() == '-' || word.find_first_of("./\\") != std::string::npos) return false;
  std::error_code ec;
  return !std::filesystem::exists(word, ec);
}

int dispatch(const Args& args) {
  if (args.empty()) {
    print_usage(std::cerr);
    return mmacheck::cli::kBadInput;
  }
  const std::string& first = args.front();
  if (first == "help" || first == "--help" || first == "-h") {
    print_usage(std::cout);
    return mmacheck::cli::kHolds;
  }
  if (first == "--version") {
    std::cout << "mmacheck 0.1.0\n";
    return mmacheck::cli::kHolds;
  }
  if (const mmacheck::cli::Command* cmd = mmacheck::cli::find_command(first); cmd && cmd->run)
    return cmd->run(Args(args.begin() + 1, args.end()));
  if (looks_like_command(first)) {
    std::string message = "unknown command '" + first + "'";
    if (const mmacheck::cli::Command* near = mmacheck::cli::nearest_command(first))
      message += "; did you mean '" + std::string(near->name) + "'?";
    message += " (commands:";
    for (const mmacheck::cli::Command& c : mmacheck::cli::commands()) message += " " + std::string(c.name);
    throw mmacheck::Error(message + ")");
  }
  if (const mmacheck::cli::Command* prove = mmacheck::cli::find_command("prove"); prove && prove->run)
    return prove->run(args);
  throw mmacheck::Error("unknown command '" + first + "' (see 'mmacheck help')");
}

}  // namespace

int main(int argc, char** argv) {
  mmacheck::keep_large_blocks_in_heap();
  try {
    const int status = dispatch(Args(argv + 1, argv + argc));
    mmacheck::finish_standard_output();  // a result lost to a full disk is not a success
    return status;
  } catch (const mmacheck::Error& e) {
    std::cerr << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    // The limits (docs/reliability.md) keep every default run far from this.
    std::cerr << "error: out of memory (a --max-* limit raised too far?)\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return mmacheck::cli::kBadInput;
}
