// The differential run: a gemm on the GPU against the lane-accurate
// simulator, bit for bit, on random inputs (sim/numerics/random_inputs.h).
//
// The simulator is a hook, so that this layer does not fix how the warp
// machine is driven.  It receives the program, its nest and one case's
// inputs, and returns the D buffer the kernel would write: row-major element
// bits of D's whole buffer, elements no thread stores 0.  The kernel stages
// through the program's Staging (core/gemm/staging.h), so a simulator starting
// from the same tables computes what the kernel writes; sim::simulate
// (sim/machine/warp_machine.h) is such a hook.
//
//     DiffReport r = run_differential(runner, program, nest, sim::simulate, {.cases = 64, .seed = 1});
//     // r.mismatches: (case, distribution, row, col, expected, got)
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/gemm/nest.h"
#include "core/program/program.h"
#include "cuda/gemm_runner.h"
#include "sim/numerics/gemm_inputs.h"
#include "sim/check/input_specs.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::cuda {

using Simulator =
    std::function<std::vector<std::uint64_t>(const Program&, const Nest&, const sim::GemmInputs&)>;

struct DiffOptions {
  int cases = 64;
  std::uint64_t seed = 1;
  std::size_t max_mismatches = 20;  // mismatches kept in the report
  sim::InputSet inputs = sim::InputSet::standard;  // the distributions the cases take turns over
};

struct DiffMismatch {
  int case_index = 0;
  sim::Distribution dist = sim::Distribution::normal;
  std::int64_t row = 0, col = 0;  // in D's buffer
  std::uint64_t expected = 0;     // the simulator's bits
  std::uint64_t got = 0;          // the GPU's bits
};

struct DiffReport {
  int cases = 0;
  int failed_cases = 0;
  std::int64_t mismatched_elements = 0;
  std::vector<DiffMismatch> mismatches;  // the first max_mismatches
};

// The cases run_differential draws: case i uses sim::case_distribution(i, inputs).
std::vector<sim::GemmInputs> random_cases(const sim::InputSpecs& specs, int cases, std::uint64_t seed,
                                          sim::InputSet inputs = sim::InputSet::standard);

// Runs options.cases random cases on the GPU (one launch) and through
// `simulate`, and compares every D element.  Throws Error when the
// simulator returns a D of the wrong size.
DiffReport run_differential(const GemmRunner& runner, const Program& program, const Nest& nest,
                            const Simulator& simulate, const DiffOptions& options);

}  // namespace mmacheck::cuda
