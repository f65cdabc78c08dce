// Direct evaluation — the gemm's arithmetic on logical matrices, no lanes:
// the specification the warp machine must meet bit for bit.
//
// For every instruction-sized output tile (m x n of the instruction), in
// any order: start from C's tile (beta = 1) or the scalar C's bits (beta = 0: g.c_bits, zero or GemmCall::c_scalar),
// then for each K tile in increasing K, D_tile = mma_tile(A_tile, B_tile,
// D_tile), the bit-exact model of one instruction (sim/numerics/mma_model.h).  This is
// the order TVM's nest accumulates in, so a correct program's warp machine
// result equals it exactly, however its fragments are laid out.
//
//     const Matrix d = direct_eval(gemm_geometry(program), *plan.inst, arch_params("sm_90"), inputs);
//     d.at(i, j)  // logical D[i][j]; in D's buffer at gemm_geometry(program).d.at(i, j)
#pragma once

#include "core/gemm/mma_inst.h"
#include "core/gemm/geometry.h"
#include "sim/numerics/gemm_inputs.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// D as an M x N matrix of D's element type.  Throws Error when M, N or K is
// not a multiple of the instruction's, or an input has the wrong size.
Matrix direct_eval(const GemmGeometry& gemm, const MmaInst& inst, const ArchParams& arch, const GemmInputs& inputs);

}  // namespace mmacheck::sim
