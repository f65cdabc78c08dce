// The CUDA source of a kernel that runs one mma.sp (core/gemm/sparse_inst.h)
// per warp on registers the host packed by the PTX frames:
//
//     extern "C" __global__ void mmacheck_sparse(
//         const unsigned* a, const unsigned* b, const unsigned* c,
//         const unsigned* e, unsigned* d);
//
// One warp (CTA) per case.  a, b, c hold, case after case and lane after lane
// (lane 0 first), each lane's registers of the compressed A, B and C frames
// (a_frame().regs, b_frame().regs, c_frame().regs words); e one metadata
// register per lane; d receives each lane's D registers.  The selector is an
// immediate of the instruction (PTX wants a constant), so a kernel is per
// selector.
//
//     std::string src = sparse_kernel_source(*find_sparse_inst("sp.m16n8k32.f16"), 1, true);
#pragma once

#include <string>

#include "core/gemm/sparse_inst.h"

namespace mmacheck::cuda {

inline constexpr const char* kSparseEntry = "mmacheck_sparse";

std::string sparse_kernel_source(const SparseMmaInst& inst, int selector, bool ordered);

}  // namespace mmacheck::cuda
