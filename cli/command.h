// The mmacheck subcommands.  Each lives in its own cmd_*.cc and is a row of
// the table in commands.cc: name, operands, summary and an example.  The
// options come from the command's own Boost.Program_options description,
// which `mmacheck COMMAND --help` / `mmacheck help COMMAND` prints (with
// defaults), so nothing is described twice.
//
// Exit status, for every command: 0 what was checked holds, 1 it does not
// hold (refuted, dispatch failed, unknown, unchecked, a mismatch), 2 bad
// input or usage (or a command this build has no CUDA for), 3 no GPU (gpu
// command).  Unchecked is never success: only
// --allow-unchecked (cute, triton; cli/unchecked.h) accepts it.  A command reports bad input by throwing Error;
// main() prints it once and exits 2.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

namespace mmacheck::cli {

using Args = std::vector<std::string>;

enum Exit : int { kHolds = 0, kFails = 1, kBadInput = 2, kNoGpu = 3 };

enum class Needs { cpu, cuda };

struct Command {
  std::string_view name;
  std::string_view operands;     // "FILE...", "EXPR", "" (before "[options]")
  std::string_view summary;      // one line
  std::string_view example;      // the arguments after "mmacheck NAME"
  int (*run)(const Args& args);  // nullptr only where it needs CUDA and the build has none
  // What the command runs on.  Needs::cuda (gpu, capture): the cuda layer; a
  // build without it (-DMMACHECK_CUDA=OFF, or no toolkit found) keeps the
  // row, so help lists the command, and run_command refuses to run it.
  Needs needs = Needs::cpu;
  // A family command of earlier releases (wgmma, cute, mma, ...) kept for
  // one release as an alias of a verb: `run` is the verb's, and run_command
  // first tells standard error what to run instead ("prove FILE...").
  std::string_view alias_of = {};
  // What the command reads, for its --help: nothing listed, or the kinds
  // of the front door's table that have the job (cli/input_kinds.h).
  enum class Reads { unlisted, prove, sim, gpu } reads = Reads::unlisted;
};

std::span<const Command> commands();
// Whether this build has the cuda layer (cmake/cuda.cmake).
bool built_with_cuda();
// Runs the command, or throws Error when it needs a layer this build left
// out: "gpu: this mmacheck was built without CUDA (configure with
// -DMMACHECK_CUDA=ON)", exit status 2.  `mmacheck NAME` and `help NAME` both
// come here.  An alias prints "mmacheck: 'wgmma' is an alias kept for one
// release: run 'mmacheck prove FILE...'" on standard error, then runs the
// verb; its --help is two lines naming the verb.
int run_command(const Command& command, const Args& args);
const Command* find_command(std::string_view name);
// The command whose name is nearest to `word` (edit distance at most 2 and
// less than the word's length), or nullptr: `proove` -> prove.
const Command* nearest_command(std::string_view word);

// "mmacheck prove FILE... [options]": the usage line of help, errors and the
// README's command table.
std::string usage_line(const Command& command);
std::string usage_line(std::string_view command_name);

// Thrown by parse_options once it has printed a command's help; main()
// exits 0.
struct HelpShown {};

// Parse `args` (without the command name) with boost::program_options; the
// description's caption is "mmacheck NAME".  `--help`/`-h` prints the
// command's usage, options with defaults and example, then throws HelpShown.
// Boost's exceptions, and a negative value for an unsigned option (which
// Boost would wrap to 2^64 - 1), become Error, so bad usage exits 2.
boost::program_options::variables_map parse_options(
    const Args& args, const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description& positional);

// The commands.
int run_prove(const Args& args);
int run_layout(const Args& args);
int run_emit(const Args& args);
int run_sim(const Args& args);
int run_gpu(const Args& args);
int run_capture(const Args& args);
int run_draw(const Args& args);
int run_bench(const Args& args);
int run_help(const Args& args);
int run_replay(const Args& args);

}  // namespace mmacheck::cli
