// Simulator throughput: how many mma instructions per second the bit-exact
// model (mma_tile) computes, against Eigen float32 doing the same products
// (D = A * B + C with fixed-size float matrices, AVX2+FMA when the processor
// has it: sim/numerics/eigen_baseline.h), both on T threads.
//
// Every measurement is a list of phases run *interleaved*: A, B, C, A, B,
// C, ... in slices of a tenth of a second, until each phase has had its
// `seconds`.  A load that comes and goes on the machine then falls on every
// phase alike, and a ratio of two phases is taken slice pair by slice pair
// (the two slices of one round, a fraction of a second apart) and its median
// reported, per CPU-second of the phases' threads: the ratio of two
// wall-clock rates taken seconds apart moved by a factor of two on a shared
// 2-core machine (issue 24).
//
// The kernel's phases: each thread works through its own batch of random
// tiles (finite values of moderate exponent, random signs: the common case,
// no NaN/Inf), the same tiles with one Inf or NaN each, and the Eigen batch
// holding the same values as floats.
//
//     std::vector<Phase> phases = kernel_phases(inst, arch_params("sm_90"), 2);
//     std::vector<PhaseResult> r = interleaved(phases, 2, 2.0);
//     Ratio q = paired_ratio(r[0], r[2]);   // simulator / Eigen, per round
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/gemm/mma_inst.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// One phase: `work(thread)` does one round on that thread (each thread owns
// its data) and returns the instructions it did.
struct Phase {
  std::string name;
  std::function<std::uint64_t(int thread)> work;
};

// A phase's wall time and its threads' CPU time (on a busy machine mma per
// CPU-second estimates what a quiet one would do per thread), summed over
// its slices, and each slice's rates.
struct PhaseResult {
  double wall_seconds = 0;
  double cpu_seconds = 0;
  std::uint64_t mma = 0;                // instructions done, all threads, all slices
  std::vector<double> slice_rates;      // mma per wall second, slice by slice (round order)
  std::vector<double> slice_cpu_rates;  // mma per CPU-second of the phase's threads, likewise

  // The median slice rate (mma / wall_seconds when there are no slices).
  double per_second() const;
  double per_cpu_second() const { return mma / cpu_seconds; }
  // (q3 - q1) / median of the slice rates: 0 when every slice ran alike.
  double spread() const;
};

// The median of a ratio over the rounds, and its quartiles.
struct Ratio {
  double median = 0, q1 = 0, q3 = 0;
  double spread() const { return median > 0 ? (q3 - q1) / median : 0; }
};

// The median and quartiles (linear interpolation) of `values`; zeros when empty.
Ratio quartiles(std::vector<double> values);

// numerator.slice_cpu_rates[i] / denominator.slice_cpu_rates[i] over the
// rounds i both ran (the two phases of one interleaved() call).  Per
// CPU-second of the phases' own threads, round by round: what another
// process takes from the cores leaves it alone (wall-clock rates of slices
// a tenth of a second apart still moved by 40% under a load of 16 on 2
// cores, docs/performance.md).
Ratio paired_ratio(const PhaseResult& numerator, const PhaseResult& denominator);

// Runs `work(thread)` round after round on each of `threads` threads until
// `seconds` have passed; work returns the instructions one round did.
// Throws Error for threads < 1, seconds <= 0 or over a day (inf included),
// or a thread that cannot be started (the ones started are stopped first: a
// std::thread left joinable would terminate the program).
PhaseResult timed(int threads, double seconds, const std::function<std::uint64_t(int thread)>& work);

// The phases in turn, one slice of min(slice, seconds) each per round,
// ceil(seconds / slice) rounds: result i is phases[i]'s.  Throws as timed().
std::vector<PhaseResult> interleaved(std::span<const Phase> phases, int threads, double seconds, double slice = 0.1);

// The kernel on finite tiles ("kernel"), on tiles with special values
// ("kernel (special values)"), and the float32 baseline (named by the
// baseline, e.g. "Eigen float32 AVX2"), for `threads` threads.  Throws
// Error for threads < 1 or an instruction without a baseline.
std::vector<Phase> kernel_phases(const MmaInst& inst, const ArchParams& arch, int threads);

// The comparisons behind the kernel's instruction-set choice: the fast path
// (sim/numerics/fused_tile_fast.h) with each vector instruction set the
// processor runs ("fast path, AVX2 kernels", "fast path, AVX-512 kernels"),
// called directly so that they differ only in their kernels, and the
// float32 baseline's other builds ("Eigen float32 AVX-512" beside the AVX2
// one kernel_phases uses).  Empty of the fast-path phases for an
// instruction the fast path does not take.
std::vector<Phase> isa_phases(const MmaInst& inst, const ArchParams& arch, int threads);

}  // namespace mmacheck::sim
