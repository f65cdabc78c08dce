// run_cases — the `sim` check over many random cases: every case's inputs
// drawn (SimCheck::random_case), run on the warp machine and checked against
// the direct evaluation and the Eigen reference (sim/check/sim_check.h), on
// case_threads(options) threads, each with its own copy of the check.  The
// failures come back in case order and the counts are the same for any
// number of threads; memory stays bounded (a round of cases at a time).
//
//     SimCheck check(program, plan.nest, arch_params("sm_90"));
//     const CaseRunReport r = run_cases(check, {.cases = 4096, .seed = 1});
//     // r.failed_cases, r.wrong_elements; r.failures: the first options.show
#pragma once

#include <cstdint>
#include <vector>

#include "sim/check/case_options.h"
#include "sim/check/sim_check.h"

namespace mmacheck::sim {

struct CaseFailure {
  std::int64_t case_index = 0;
  Distribution dist = Distribution::normal;
  ElementCheck element;
};

struct CaseRunReport {
  std::int64_t cases = 0;
  std::int64_t failed_cases = 0;
  std::int64_t wrong_elements = 0;    // failing elements, every case
  std::int64_t not_bit_exact = 0;     // of them: differ from the direct evaluation
  std::int64_t outside_bound = 0;     // of them: outside the reference bound
  std::vector<CaseFailure> failures;  // the first options.show, in case order

  bool passed() const { return failed_cases == 0; }
};

CaseRunReport run_cases(const SimCheck& check, const CaseOptions& options);

}  // namespace mmacheck::sim
