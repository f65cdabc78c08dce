// Capture — new tensor-core test vectors from a real GPU: one `mma.sync` per
// warp on its PTX frames (core/gemm/ptx_frame.h), random operands drawn as the
// shared vectors were (sim/numerics/random_inputs.h), the result bits recorded.
//
//     const Capture cap = capture_vectors(gpu, nvrtc, inst, {.cases = 384, .seed = 7});
//     write_file_atomic("new.mmav", format_mmav(cap.comments, cap.cases));
//
// The comments name the GPU, the driver, the CUDA and NVRTC versions (the
// fp8 instructions on sm_90 are emulated by the compiler, so its version is
// part of what was measured) and the seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/gemm/mma_inst.h"
#include "cuda/gpu.h"
#include "cuda/nvrtc.h"
#include "sim/numerics/random_inputs.h"
#include "sim/vectors/vector_file.h"

namespace mmacheck::cuda {

struct CaptureOptions {
  int cases = 384;
  std::uint64_t seed = 1;
  sim::InputSet inputs = sim::InputSet::standard;  // sim/numerics/random_inputs.h
};

struct Capture {
  std::vector<std::string> comments;
  std::vector<sim::VectorCase> cases;  // ids 0.., kinds from case_distribution(id, inputs)
};

// Throws Error when the GPU lacks the instruction (inst.min_sm) or the
// kernel does not compile or run.
Capture capture_vectors(const Gpu& gpu, const Nvrtc& nvrtc, const MmaInst& inst, const CaptureOptions& options);

}  // namespace mmacheck::cuda
