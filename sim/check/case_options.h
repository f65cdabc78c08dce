// CaseOptions — how a run over random cases is asked for, the same for the
// `sim` check (sim/check/run_cases.h) and the GPU differential
// (cuda/gpu_check.h): how many cases, the seed, which input kinds take
// turns, how many threads and how many failing elements to keep.
//
// A case is a pure function of (seed, case index, inputs): the report is the
// same whatever the number of threads.
//
//     const CaseOptions o{.cases = 1 << 20, .seed = 7, .inputs = InputSet::all};
//     check_case_options(o, "sim");   // throws Error("sim: --cases must be >= 1") ...
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "sim/numerics/random_inputs.h"

namespace mmacheck::sim {

struct CaseOptions {
  std::int64_t cases = 64;
  std::uint64_t seed = 1;
  InputSet inputs = InputSet::standard;  // the distributions the cases take turns over
  int threads = 0;                       // 0: one per hardware thread
  int show = 20;                         // failing elements kept in the report
  // Called on the calling thread as the run goes, with the cases done so far.
  std::function<void(std::int64_t)> progress{};
};

// Throws Error, prefixed by `command` and naming the option as the command
// line spells it, unless cases >= 1, 0 <= threads <= 1024 and show >= 0.
void check_case_options(const CaseOptions& options, std::string_view command);

// The threads a run uses: options.threads, or every hardware thread for 0.
int case_threads(const CaseOptions& options);

}  // namespace mmacheck::sim
