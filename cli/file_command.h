// run_file_command() — the command line of a check over files of one kind:
//
//     mmacheck NAME FILE... [--json] [-j N] [--allow-unchecked]
//
// FILE a file, a folder (its files ending in one of `extensions`) or - for
// standard input; --json prints one JSON object per file (JSON Lines),
// -j the files checked at once, --allow-unchecked accepts unchecked items
// (cli/unchecked.h).  Each file goes to `check` with the --json and
// --allow-unchecked values; the status is run_batch's (cli/file_batch.h).
// tma, tcgen05, triton and wgmma are such commands.
//
//     return run_file_command(args, {"tma", "TMA copy and wgmma operand files ...",
//                                    "no FILE (tma, operand, descriptor and smem lines)", {".txt"}}, check_tma_file);
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/file_batch.h"

namespace mmacheck::cli {

struct FileCommand {
  std::string name;                     // "tma"
  std::string file_help;                // --help's line for FILE
  std::string no_file;                  // the error without FILE, after "NAME: "
  std::vector<std::string> extensions;  // the files a folder contributes
};

using FileChecker = std::function<FileOutcome(const std::string& path, bool json, bool allow, std::ostream& out)>;

int run_file_command(const Args& args, const FileCommand& command, const FileChecker& check);

}  // namespace mmacheck::cli
