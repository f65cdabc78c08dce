// The shared-memory part of a gemm kernel (cuda/gemm_kernel.h): for an
// operand staged through shared memory (core/gemm/shared_staging.h), the
// CUDA that does what the file says — a __shared__ allocation, the fill
// (every thread copies its share of the global matrix to the offsets the
// fill table gives), __syncthreads, then the ldmatrix/stmatrix
// instructions as inline PTX with each lane's row address, or the plain
// shared loads/stores; for D, the drain after the stores.  Each piece reads
// its tables from the kernel's index table at the offsets it appends there.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/emit/cuda_source.h"
#include "core/gemm/shared_staging.h"

namespace mmacheck::cuda {

struct SharedKernelPart {
  std::string name;    // the __shared__ array, "smem_a"
  std::string array;   // the register array it fills or empties, "a"
  std::string global;  // "a_g"
  CudaBufferAbi abi;
};

// `__shared__` declaration of the part's allocation (kernel scope).
void emit_shared_declaration(std::ostream& os, const SharedKernelPart& part, const SharedStage& stage);
// Loads: zero, fill, sync, copies into the register array.  Appends the
// tables it reads to `table`.
void emit_shared_load(std::ostream& os, const SharedKernelPart& part, const SharedStage& stage, int threads,
                      std::vector<std::int32_t>& table);
// Stores: copies out of the register array, sync, drain to the global matrix.
void emit_shared_store(std::ostream& os, const SharedKernelPart& part, const SharedStage& stage, int threads,
                       std::vector<std::int32_t>& table);

}  // namespace mmacheck::cuda
