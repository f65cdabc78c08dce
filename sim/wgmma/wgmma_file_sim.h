// simulate_wgmma_operand() — `mmacheck sim` on a wgmma operand file: the
// operand's buffer as the program placed it, read by the instruction
// through the program's descriptor, with numbers.
//
// The file (core/wgmma/wgmma_reader.h) says where the program put each
// element of one operand tile in shared memory (its `smem` line) and the
// descriptor the wgmma is issued with.  Each random case writes a logical A,
// B and C, the operand at the addresses the buffer gives (`placed`), its
// partner densely K-major beside it (partnered_wgmma_run), and runs the whole
// wgmma (sim/wgmma/wgmma_machine.h) through the descriptors; the reference
// is the same instruction with both operands packed densely, so that D
// agrees bit for bit exactly when the descriptor reads every element where
// the buffer placed it.  What prove decides for every element, this shows
// with values: a refuted descriptor gives wrong D elements (unless the
// values it confuses are equal), a proved one none.
//
//     const WgmmaOperandSim r = simulate_wgmma_operand(c, wgmma_arith("sm_90"), {.cases = 64});
//     r.failed_cases == 0  // the descriptor reads the buffer right
#pragma once

#include "core/wgmma/wgmma_check.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/tile_diff.h"
#include "sim/wgmma/wgmma_machine.h"

namespace mmacheck::sim {

struct WgmmaOperandSim : TileDiff {
  WgmmaRun run;  // the instruction and layouts simulated
};

// The instruction of the operand's case: A with N = 64, B with N its rows;
// D f32 (s32 for integer inputs).
WgmmaInst wgmma_inst_of(const WgmmaCase& c);

WgmmaOperandSim simulate_wgmma_operand(const WgmmaCase& c, const ArchParams& arith, const FileSimOptions& options);

}  // namespace mmacheck::sim
