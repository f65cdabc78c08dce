// The wgmma differential: random cases of one WgmmaRun run on the device
// (cuda/wgmma_kernel.h, NVRTC for sm_90a) and in the simulator
// (sim/wgmma/wgmma_machine.h: the same shared-memory image through the
// same descriptors, the same accumulator words), compared bit for bit.
//
// Case i draws A, B and C with sim/numerics/random_inputs.h's kinds (every
// kind in turn over InputSet `inputs`, Philox keyed by the seed and counted
// by i: the same cases on every machine), stages A and B into the image at
// the addresses the descriptors read and C into the accumulator words.
// Every case is kept as a wgmma vector (sim/wgmma/wgmma_vectors.h) with the
// device's D, for --capture.
//
//     WgmmaDiffReport r = wgmma_differential(session, run, wgmma_arith("sm_90"), {.cases = 256, .seed = 1});
//     r.failed_cases == 0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/gpu_session.h"
#include "sim/numerics/random_inputs.h"
#include "sim/wgmma/wgmma_vectors.h"

namespace mmacheck::cuda {

struct WgmmaDiffOptions {
  int cases = 256;
  std::uint64_t seed = 1;
  sim::InputSet inputs = sim::InputSet::all;
  int show = 10;  // mismatching elements kept
};

struct WgmmaDiffMismatch {
  int case_index = 0;
  sim::Distribution dist = sim::Distribution::normal;
  int row = 0, col = 0;
  std::uint64_t expected = 0, got = 0;  // simulator, device
};

struct WgmmaDiffReport {
  int cases = 0;
  int failed_cases = 0;
  std::int64_t outputs = 0;
  std::int64_t mismatched_elements = 0;
  std::vector<WgmmaDiffMismatch> mismatches;
  std::vector<sim::WgmmaVectorCase> vectors;  // every case with the device's D
};

// One case's inputs: logical tiles, the image and the accumulator words.
struct WgmmaCaseInputs {
  sim::Distribution dist;
  std::vector<std::uint64_t> a, b, c;  // 64 x K, K x N, 64 x N
  std::vector<std::byte> image;
  std::vector<std::uint32_t> c_words;
};
WgmmaCaseInputs draw_wgmma_case(const sim::WgmmaRun& run, const WgmmaDiffOptions& options, int index);

// Throws Error when the kernel does not compile or the device faults.
WgmmaDiffReport wgmma_differential(const GpuSession& session, const sim::WgmmaRun& run, const sim::ArchParams& arith,
                                   const WgmmaDiffOptions& options);
// The same with the run's kernel already compiled (compile_wgmma_kernels).
WgmmaDiffReport wgmma_differential(const GpuSession& session, const sim::WgmmaRun& run, const sim::ArchParams& arith,
                                   const WgmmaDiffOptions& options, const std::string& cubin);

// The CUBINs (sm_90a) of the runs' kernels, `threads` NVRTC compilations at
// once (hundreds of runs: compiling dominates); the first failure is thrown.
std::vector<std::string> compile_wgmma_kernels(const Nvrtc& nvrtc, const std::vector<sim::WgmmaRun>& runs, int threads);

}  // namespace mmacheck::cuda
