// The differential run: a gemm on one or more devices against the
// lane-accurate simulator, bit for bit, on random inputs
// (sim/numerics/random_inputs.h), as a pipeline that keeps every core and
// every device busy.
//
// The cases go in batches (cuda/case_batches.h) round the devices' slots.
// For each batch the worker pool draws every case's inputs (a pure function
// of seed and case index), writes them into the slot's host buffers
// (cuda/case_words.h) and runs the simulator on them, keeping its D as the
// kernel would write it; then the batch is launched and the pool goes on to
// the next batch while the device runs.  A slot's batch is compared when
// the slot is needed again (or at the end), so batches finish in case
// order and the report is the same whatever the batch size, the number of
// devices or threads.
//
// The simulator is a hook, one per pool worker (each may keep its own
// state): it receives one case's inputs and returns the D buffer the kernel
// writes (row-major element bits of D's whole buffer, elements no thread
// stores 0).  A sim::WarpMachine built on the same Staging is such a hook.
//
//     std::vector<CaseSimulator> sims(pool.size(), ...);   // one WarpMachine each
//     DiffReport r = run_differential(devices, staging, specs, pool, sims, {.cases = 1 << 20, .seed = 1});
//     // r.mismatches: (case, distribution, row, col, expected, got); r.timing: where the time went
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/base/worker_pool.h"
#include "core/gemm/staging.h"
#include "cuda/batch_device.h"
#include "sim/check/input_specs.h"
#include "sim/numerics/gemm_inputs.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::cuda {

using CaseSimulator = std::function<std::vector<std::uint64_t>(const sim::GemmInputs&)>;

struct DiffOptions {
  std::int64_t cases = 64;
  std::uint64_t seed = 1;
  std::size_t max_mismatches = 20;                 // mismatches kept in the report
  sim::InputSet inputs = sim::InputSet::standard;  // the distributions the cases take turns over
  // Called on the calling thread after each batch is simulated, with the
  // number of cases simulated so far.
  std::function<void(std::int64_t)> progress{};
};

struct DiffMismatch {
  std::int64_t case_index = 0;
  sim::Distribution dist = sim::Distribution::normal;
  std::int64_t row = 0, col = 0;  // in D's buffer
  std::uint64_t expected = 0;     // the simulator's bits
  std::uint64_t got = 0;          // the device's bits
};

// Wall-clock seconds of the phases, as the calling thread saw them.
struct DiffTiming {
  double prepare = 0;  // the pool drawing inputs, packing them and simulating
  double wait = 0;     // waiting for devices to finish batches
  double compare = 0;  // comparing D
  double total = 0;    // the whole run
  std::int64_t batches = 0;
  std::int64_t batch_cases = 0;  // cases per launch (the last may be fewer)
};

struct DiffReport {
  std::int64_t cases = 0;
  std::int64_t failed_cases = 0;
  std::int64_t mismatched_elements = 0;
  std::vector<DiffMismatch> mismatches;  // the first max_mismatches, in case order
  DiffTiming timing;

  double cases_per_minute() const { return timing.total > 0 ? 60.0 * static_cast<double>(cases) / timing.total : 0; }
};

// Runs options.cases random cases through `devices` (the same capacity and
// number of slots each; at least one) and the simulators (one per worker of
// `pool`), comparing every element of D.  Throws Error when a simulator
// returns a D of the wrong size or wider bits than D's type, or a device fails.
DiffReport run_differential(std::span<BatchDevice* const> devices, const Staging& staging, const sim::InputSpecs& specs,
                            WorkerPool& pool, std::span<const CaseSimulator> simulators, const DiffOptions& options);

}  // namespace mmacheck::cuda
