// GemmRunner — a gemm kernel compiled for one GPU, run on batches of cases.
//
//     const GemmRunner runner(gpu, Nvrtc::load(), nest, build_staging(program, nest));
//     std::vector<std::vector<std::uint64_t>> d = runner.run(cases);  // D per case
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/gemm/nest.h"
#include "cuda/gemm_kernel.h"
#include "cuda/gpu.h"
#include "cuda/nvrtc.h"
#include "sim/numerics/gemm_inputs.h"
#include "core/gemm/staging.h"

namespace mmacheck::cuda {

class GemmRunner {
 public:
  // Generates the kernel and compiles it with NVRTC for the GPU's sm.
  // Throws Error (with NVRTC's log) when it does not compile.
  GemmRunner(Gpu gpu, const Nvrtc& nvrtc, const Nest& nest, Staging staging);

  const Gpu& gpu() const { return gpu_; }
  const Staging& staging() const { return staging_; }
  const GemmKernel& kernel() const { return kernel_; }
  const std::string& cubin() const { return cubin_; }  // for gpu().info().sm

  // One launch, one CTA per case.  Returns each case's D buffer (row-major
  // element bits; elements the kernel does not store are 0).  Throws Error
  // when a case's matrices do not have the staged buffers' sizes.
  std::vector<std::vector<std::uint64_t>> run(std::span<const sim::GemmInputs> cases) const;

 private:
  Gpu gpu_;
  Staging staging_;
  GemmKernel kernel_;
  std::string cubin_;
};

}  // namespace mmacheck::cuda
