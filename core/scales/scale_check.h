// Layer core/scales: the block-scaled mma wing, its reader and check side by
// side.  Uses core up to core/prove (the scale frames, core/gemm/
// scale_frame.h; index expressions; Z3; the verdict).
//
// check_scales() — does a program hand sm_120's block-scaled mma.sync its
// scale factors where the instruction reads them (core/gemm/scale_frame.h)?
//
// A ScalePlacement says, for one operand (A or B), which selectors the
// program passes ({byte-id, thread-id}) and what it puts in each lane's
// scale word: byte `byte` of lane `lane` holds scale_A[index][block] (A:
// index is the row) or scale_B[block][index] (B: the column), index and
// block integer expressions in `lane` (0..31) and `byte` (0..3).  The
// check proves, with Z3 over every lane and byte, that wherever the
// instruction reads a scale factor the program put exactly that one there;
// since the instruction reads each (row or column, K-block) of its operand
// exactly once (checked on the frame table), every scale factor then
// reaches its block exactly once.  Otherwise it is refuted at the first
// (lane, byte) that disagrees, naming what the instruction reads there
// and what the program put.
//
//     ScalePlacement a{Operand::A, {0, 0}, parse_index_expr("lane // 4 + 8 * (lane % 2)", "f"),
//                      parse_index_expr("byte", "f"), {}};
//     check_scales(inst, a).result == FrameVerdict::proved
#pragma once

#include <optional>
#include <string>

#include "core/base/error.h"
#include "core/gemm/scale_frame.h"
#include "core/program/index_expr.h"
#include "core/prove/frame_verdict.h"

namespace mmacheck {

struct ScalePlacement {
  Operand op;  // A or B
  ScaleSelector sel;
  IndexExpr index;  // row of A / column of B, over lane and byte (IndexEnv lane and slot)
  IndexExpr block;  // K-block
  SourceLoc at;     // its `place` line
};

// A disagreement: at (lane, byte) the instruction reads `want`; the program
// put (index, block) there.
struct ScaleWitness {
  int lane;
  int byte;
  ScaleRead want;
  std::int64_t index;
  std::int64_t block;
};

struct ScaleReport {
  Operand op;
  FrameVerdict result;
  std::string message;  // one line: what was proved, or the disagreement, or why unchecked
  std::optional<ScaleWitness> witness;
};

// Throws Error (located at the placement) when its selectors are not the
// instruction's or an expression divides by zero at some lane and byte.
ScaleReport check_scales(const MmaInst& inst, const ScalePlacement& placement);

}  // namespace mmacheck
