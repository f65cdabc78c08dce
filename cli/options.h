// The resource limits (core/base/limits.h) as options of the commands that
// dispatch: --max-mma, --max-elements, --max-span, --max-replicas,
// --max-output-bytes, one per row of kLimits, with their defaults.
//
//     options.add(limit_options());
//     ProveOptions opts;
//     opts.limits = limits_from(vm);
//
// They are unsigned, so parse_options (cli/command.h) refuses a minus sign.
//
// --threads and --show mean the same in every command that has them:
// --threads N runs N threads, 0 (the default everywhere) every hardware
// thread; --show N prints at most N failing elements per file (default 10).
//
//     options.add(threads_option("simulator threads"));
//     options.add(show_option("mismatching elements to print per file"));
//     const int t = hardware_if_zero(vm["threads"].as<int>());
#pragma once

#include <string>

#include <boost/program_options.hpp>

#include "core/base/limits.h"
#include "core/ptx/ptx_launch.h"

namespace mmacheck::cli {

boost::program_options::options_description limit_options();

// --threads N (default 0: every hardware thread) and --show N (default 10),
// with the command's own words for what the threads or elements are.
boost::program_options::options_description threads_option(const std::string& what);
boost::program_options::options_description show_option(const std::string& what);
// `threads`, or every hardware thread for 0; an Error outside 0..kMaxThreads.
constexpr int kMaxThreads = 1024;
int hardware_if_zero(int threads);
Limits limits_from(const boost::program_options::variables_map& vm);

// A kernel's launch on the command line (prove, sim and gpu of a .ptx or
// .cu file): --launch FILE, --kernel NAME, --grid X[,Y[,Z]], --block
// X[,Y[,Z]], --dynamic-shared BYTES, each over the launch file's value
// (core/ptx/ptx_launch.h), and the run's --max-steps.
boost::program_options::options_description launch_options();
ptx::LaunchChoice launch_choice_from(const boost::program_options::variables_map& vm);

// Throws the limit's Error when `text` is longer than --max-output-bytes;
// `what` names the output ("the CUDA source").
void check_output_size(const std::string& text, const Limits& limits, const std::string& what);

}  // namespace mmacheck::cli
