// dispatch_release — the released TIRx's PTX mma pattern
// (tvm_tirx/backend/cuda/tile/patterns/mma.py, apache-tvm-tirx 0.1.0a4) as
// a Plan, for a Program whose `release` is set (docs/tirx-release.md).
//
// T.cuda.tile.apply: per apply, on the regions of the images it names
// (ReleaseMmaStatement::regions), the pattern's checks in its order, each refusal one
// reason row "declined — <the pattern's message>": the instruction (m16n8k8 or
// m16n8k16, f16/bf16 inputs, f32 accumulation), the repeat axes, each
// operand's scope, atom shape and repeats, 32-bit elements, D's
// nonoverlapping register strides, then lane ownership of every register of
// A, B, D (and C) at every repeat: the element the PTX frame gives a lane
// must be owned by that lane.  That is all the pattern checks; the nest it
// emits (M, N, K loops over the region's repeats, K innermost; the first K
// step reads C) reads each register through the operand's layout at the
// region's origin plus the repeat, and the prover checks the rest.
// A lowered dump: no check is re-run; the nest is the dump's T.ptx.mma
// calls, register for register, so the prover checks what TVM emitted.
//
//     examples/tirx_refuse_lane.py -> plan.ok == false, plan.reasons ==
//       {"declined — A: incorrect laneid owner; expected atom_lane: word (0, 1) of the atom is in lane 8, not 1"}
//     examples/tirx_tiled_2x2x2.py -> plan.ok, 8 mma, tiles 2 x 2 x 2
#pragma once

#include "core/base/limits.h"
#include "core/gemm/dispatch.h"

namespace mmacheck {

// Throws Error on bad input (what the pattern asserts, a register index that
// depends on the lane, over the limits).
Plan dispatch_release(const Program& program, const Limits& limits);

}  // namespace mmacheck
