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

#include <cstdint>
#include <string>
#include <vector>

#include "core/wgmma/wgmma_check.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/random_inputs.h"
#include "sim/wgmma/wgmma_machine.h"

namespace mmacheck::sim {

struct WgmmaSimOptions {
  int cases = 64;
  std::uint64_t seed = 1;
  InputSet inputs = InputSet::standard;  // the distributions the cases take turns over
  int show = 10;                         // mismatches kept
};

struct WgmmaSimMismatch {
  int case_index = 0;
  Distribution dist{};
  int row = 0, col = 0;        // of D
  std::uint64_t expected = 0;  // the reference's bits
  std::uint64_t got = 0;       // through the program's buffer and descriptor
};

struct WgmmaOperandSim {
  WgmmaRun run;  // the instruction and layouts simulated
  std::int64_t cases = 0, failed_cases = 0;
  std::int64_t outputs = 0, wrong_elements = 0;
  std::vector<WgmmaSimMismatch> mismatches;  // the first options.show
};

// The instruction of the operand's case: A with N = 64, B with N its rows;
// D f32 (s32 for integer inputs).
WgmmaInst wgmma_inst_of(const WgmmaCase& c);

WgmmaOperandSim simulate_wgmma_operand(const WgmmaCase& c, const ArchParams& arith, const WgmmaSimOptions& options);

}  // namespace mmacheck::sim
