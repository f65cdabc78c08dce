// Diagnosis of a declined gemm: why each operand's layout does not fit an
// instruction the dtypes and the shape admit, and the fix.  Private to
// core/prove*.cc; the result is ProofReport::diagnosis (core/prove/prove.h).
//
// TVM's verdict stands (dispatch_failed, its reasons word for word); the
// diagnosis checks every operand as if the instruction had been chosen, in
// this order, and reports the first property that fails:
//
//   lane range     every owner lies in a lane (and warp) of the scope
//   register span  every owner is a register slot >= 0 on `m` (registers
//                  have no other memory axis)
//   injectivity    no (thread, slot) holds two elements of the operand
//   coverage       every lane of a warp holding the operand holds as many of
//                  its elements as the others
//   frame          tile by tile, every lane holds the elements the PTX frame
//                  gives it, each frame element at one slot in every lane
//                  (mma.sync names registers, not slots per lane: the slot
//                  sigma(e) is where lane 0 keeps element e), and the
//                  elements TVM packs together (k_pack along K of A and B,
//                  the two rN of C and D) at consecutive slots, the first at
//                  a register boundary
//
// The frame property is what a nest needs to exist, so a layout TVM accepts
// and the prover proves passes it; a declined program whose operands all
// pass gets one "fits" finding naming TVM's reason instead.
//
//     D_FRAG = S[(2, 8, 4, 2) : (1, 4 @ laneid, 1 @ laneid, 2)]  (registers swapped)
//     -> {instruction m16n8k16..., operand "D", property "frame",
//         "lane 0, slot 1 holds D[8][0]; the m16n8k16 frame puts D[0][1] there",
//         fix "S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]"}
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/gemm/geometry.h"
#include "core/gemm/mma_inst.h"
#include "core/program/program.h"
#include "core/prove/prove_options.h"
#include "core/prove/report.h"
#include "core/prove/setup.h"

namespace mmacheck::prove_detail {

struct Finding {
  DiagnosisProperty property;
  Counterexample cx;  // check "diagnosis", operand, lane, slot, expected, actual, message
};

// The first property of `op`'s layout that fails for `inst` (nullopt: it
// fits).  `op` is A, B, C or D of the program's gemm; C only when it is
// another buffer than D.
std::optional<Finding> operand_fit(const Program& program, const GemmGeometry& geometry, GemmOperand op,
                                   const MmaInst& inst);

// Every finding for a program whose dispatch failed, with fixes.
std::vector<Diagnosis> diagnose(const Program& program, const ProveOptions& options,
                                const std::vector<std::string>& reasons);

// The name of the register iter that moves an operand's element by (di, dj)
// logical rows and columns (exactly one nonzero): kp, kHi, Ko along K; rM,
// Mo along M; rN, No along N (core/gemm/mma_inst.h's names).
std::string register_role(GemmOperand op, const MmaInst& inst, std::int64_t di, std::int64_t dj);
// The role of shard iter `index` of the operand's buffer layout: a register
// role, or g / t for the lane iters (lane / 4, lane % 4); "" when the iter
// moves along both dims or leaves the operand.
std::string iter_role(const Program& program, const OperandPlace& view, GemmOperand op, const MmaInst& inst, int index);

// The layout text as a user writes it: "4 @ laneid", not "4@laneid".
std::string user_layout_text(const TileLayout& layout);

}  // namespace mmacheck::prove_detail
