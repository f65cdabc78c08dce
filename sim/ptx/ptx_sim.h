// simulate_ptx_case() — one case of a PTX launch on the CPU with numbers:
// the CTA machine of core/ptx run with `arch`'s bit-exact mma.sync
// arithmetic (sim/numerics/mma_model.h) on inputs drawn as every sim case
// draws them (random_gemm_inputs: Philox keyed by the seed, counted by the
// case), so the GPU run of the same case (`gpu FILE.ptx`) gets the same
// bytes and its D can be compared bit for bit.
//
// A, B and C take the drawn matrices through their strides; other input
// tensors are zero.  D's bytes are what the kernel stored (zero where it
// stored nothing).  The case also checks D against an f64 reference of
// A·B (+ C): |D - ref| within (K + 2)·u·Σ|A||B| (u: D's unit roundoff,
// at least f32's), which any correct kernel keeps, whatever its order of
// summation.
//
//     const PtxCase c = simulate_ptx_case(kernel, launch, arch_params("sm_90"), 1, 0, InputSet::standard);
//     c.outside_bound == 0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/ptx/cta_machine.h"
#include "core/ptx/ptx_launch.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::sim {

struct PtxCase {
  Distribution dist = Distribution::normal;
  std::vector<std::vector<std::uint8_t>> tensors;  // each tensor's bytes before the run (D: zero)
  std::vector<std::uint8_t> d;                     // D's bytes after the run
  std::optional<ptx::Finding> refutation;          // the machine's refutation, if any
  std::optional<ptx::Finding> unfollowed;
  std::int64_t outside_bound = 0;  // D elements farther from the f64 reference than the bound
  double max_error = 0;            // the largest |D - ref| / bound seen (<= 1 inside)
  std::uint64_t steps = 0;
};

// `launch` bound to `kernel` (ptx::bind_launch); `run`: its threads (CTAs
// at once; the outcome is the same for any count) and step bound (its
// arithmetic and sums are the case's).  Throws Error when `arch` has no
// model of an mma.sync the kernel executes.
PtxCase simulate_ptx_case(const ptx::PtxKernel& kernel, const ptx::PtxLaunch& launch, const ArchParams& arch,
                          std::uint64_t seed, int index, InputSet inputs, ptx::RunOptions run = {});

}  // namespace mmacheck::sim
