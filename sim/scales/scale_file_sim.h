// Layer sim/scales: the block-scaled mma wing's simulation.  Uses core (up
// to core/scales) and sim/numerics (sm_120's block-scaled arithmetic).
//
// simulate_scale_case() — `mmacheck sim` on a block-scaled mma file: the
// scale words as the program fills them, read by the instruction as the ISA
// says, with numbers.
//
// The file (core/scales/scale_reader.h) gives the instruction, the
// selectors the program passes and where it puts each scale factor: byte
// `byte` of lane `lane`'s scale word holds scale_A[row][block] (scale_B
// [block][col]) by its place line.  Each random case draws A, B and C
// (sim/numerics/random_inputs.h) and scale tiles of finite factors near 1
// (ue8m0 2^-8 .. 2^8; ue4m3 0.5 .. 3.75); the program's 32 scale words are
// filled by its place lines (a byte whose row or block lies outside the
// tile holds 0), the instruction reads each factor from the (lane, byte)
// where the ISA reads it (scale_place), and D is computed with sm_120's
// arithmetic (sim/numerics/block_scaled.h).  The reference is the same
// case with the true scale tiles, so D agrees bit for bit exactly when
// every factor reaches the instruction where it belongs (unless the
// factors a mistake confuses are equal).  An operand without a place line
// is not simulated: `unchecked`, never passed.
//
//     const ScaleCaseSim r = simulate_scale_case(read_scale_file(text, path)[0], arch_params("sm_120"), {});
//     r.failed_cases == 0
#pragma once

#include <string>

#include "core/scales/scale_reader.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/tile_diff.h"

namespace mmacheck::sim {

struct ScaleCaseSim : TileDiff {
  std::string unchecked;  // why the case was not run (an operand without a place line); empty when it ran
};

ScaleCaseSim simulate_scale_case(const ScaleCase& c, const ArchParams& arch, const FileSimOptions& options);

}  // namespace mmacheck::sim
