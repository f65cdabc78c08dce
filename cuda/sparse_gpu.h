// mma.sp on the GPU: cases (sim/vectors/sparse_vectors.h, D left empty) packed
// into lane registers by the PTX frames and the ISA's metadata placement,
// run by cuda/sparse_kernel.h, D gathered back through the C frame; then
// diffed bit for bit against every hypothesis of sim/numerics/sparse_model.h.
//
//     std::vector<SparseVectorCase> cases = sparse_gpu_cases(inst, 0, true, 512, 1);
//     run_sparse_on_gpu(gpu, nvrtc, cases);        // fills each case's d
//     SparseDiff diff = diff_sparse(cases, arch_params("sm_90"));
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/gemm/sparse_inst.h"
#include "cuda/gpu.h"
#include "cuda/nvrtc.h"
#include "sim/vectors/sparse_vectors.h"

namespace mmacheck::cuda {

// `count` cases of `inst` under `selector`: the edge and standard input kinds
// in turn (sim/numerics/random_inputs.h, InputSet::all), every third with
// Inf/NaN at pruned rows of B (sim/numerics/sparse_inputs.h); D empty.
std::vector<sim::SparseVectorCase> sparse_gpu_cases(const SparseMmaInst& inst, int selector, bool ordered, int count,
                                                    std::uint64_t seed);

// Runs every case (all of one instruction, selector and spelling) on the
// GPU, one warp each, and stores the GPU's D in each case.  Throws Error
// when the GPU lacks the instruction or the kernel fails.
void run_sparse_on_gpu(const Gpu& gpu, const Nvrtc& nvrtc, std::vector<sim::SparseVectorCase>& cases);

struct SparseDiff {
  // Per hypothesis (sim::kAllSparseArith's order): cases and outputs that differ.
  std::array<int, 3> cases_differ{};
  std::array<long, 3> outputs_differ{};
  int cases = 0;
};
SparseDiff diff_sparse(const std::vector<sim::SparseVectorCase>& cases, const sim::ArchParams& arch);

}  // namespace mmacheck::cuda
