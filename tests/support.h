// Helpers shared by the tests: paths into the source tree, running the
// mmacheck program, and skipping a test cleanly when there is no GPU.
#pragma once

#include <string>
#include <vector>

namespace mmacheck::test {

// Absolute path of `rel` inside the source tree ("examples/seed.txt").
std::string source_path(const std::string& rel);
// The shared H200 vectors folder (../shared/vectors beside the checkout),
// or "" when it does not exist.
std::string shared_vectors_dir();
std::string read_file(const std::string& path);

struct RunResult {
  int status = -1;  // exit status; -1 when the program did not exit normally
  std::string out;
  std::string err;
};
// Run build/bin/mmacheck with `args` (no shell), capturing both streams.
RunResult run_mmacheck(const std::vector<std::string>& args);
// Run any program (argv[0] is looked up in PATH) with `args`.
RunResult run_program(const std::vector<std::string>& argv);

// Whether this build has the cuda layer (MMACHECK_CUDA, cmake/cuda.cmake).
// Without it the tests that include a cuda/ header are not built, and the
// commands on it stay in help but refuse to run (test_cli_cuda_commands.cc).
constexpr bool kWithCuda = MMACHECK_WITH_CUDA;
// Whether this is the sanitizer build (MMACHECK_SANITIZE, scripts/sanitize.sh).
// A test that runs one code path over many random samples takes fewer
// there: the sanitizers look for memory and undefined-behaviour faults,
// which the same paths show in a few samples, at ten times the cost per
// sample; the README's suite (CI's first step) runs the full count.
constexpr bool kSanitized = MMACHECK_SANITIZED;
constexpr int samples(int full, int sanitized) { return kSanitized ? sanitized : full; }
// The commands that run on the cuda layer (Needs::cuda in cli/commands.cc).
inline const std::vector<std::string> kCudaCommands{"gpu", "capture", "wgmma-gpu", "sparse-gpu"};
// Whether this build can run `command`: all but kCudaCommands without CUDA.
bool runs_here(const std::string& command);

// Marks the running test as skipped: prints the marker ctest looks for.
// Use as: if (!has_gpu()) return skip("no CUDA device");
void skip(const std::string& reason);

}  // namespace mmacheck::test
