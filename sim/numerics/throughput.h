// Simulator throughput: how many mma instructions per second the bit-exact
// model (mma_tile) computes, against Eigen float32 doing the same products
// (D = A * B + C with fixed-size float matrices, AVX2+FMA when the processor
// has it: sim/numerics/eigen_baseline.h), both on T threads.
//
// Each thread works through its own batch of random tiles (finite values of
// moderate exponent, random signs: the common case, no NaN/Inf) for the
// given wall-clock time; the Eigen batch holds the same values as floats.
//
//     ThroughputResult r = measure_throughput(inst, arch_params("sm_90"), 2.0, 2);
//     r.sim.per_second() / r.eigen.per_second()
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "core/gemm/mma_inst.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// A phase's wall time and the process's CPU time during it: on a busy
// machine mma per CPU-second estimates what a quiet one would do per thread.
struct PhaseResult {
  double wall_seconds = 0;
  double cpu_seconds = 0;
  std::uint64_t mma = 0;  // instructions done, all threads

  double per_second() const { return mma / wall_seconds; }
  double per_cpu_second() const { return mma / cpu_seconds; }
};

struct ThroughputResult {
  int threads = 0;
  PhaseResult sim;           // finite inputs: the fast path
  PhaseResult sim_specials;  // every tile holds one Inf or NaN: the reference path
  PhaseResult eigen;          // the float32 baseline (eigen_baseline.h)
  std::string_view baseline;  // its name, e.g. "Eigen float32 AVX2"
};

// Runs `work(thread)` round after round on each of `threads` threads until
// `seconds` have passed; work returns the instructions one round did.
// Throws Error for threads < 1, seconds <= 0 or over a day (inf included),
// or a thread that cannot be started (the ones started are stopped first: a
// std::thread left joinable would terminate the program).
PhaseResult timed(int threads, double seconds, const std::function<std::uint64_t(int thread)>& work);

// Runs the simulator for `seconds` on finite tiles, for `seconds` on tiles
// with special values, then the baseline for `seconds`, each on `threads`
// threads.  Throws Error as timed() does.
ThroughputResult measure_throughput(const MmaInst& inst, const ArchParams& arch, double seconds,
                                    int threads);

}  // namespace mmacheck::sim
