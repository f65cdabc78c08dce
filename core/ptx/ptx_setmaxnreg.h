// setmaxnreg in the CTA machine: the semantics of the opcode table's row
// setmaxnreg (PTX ISA §9.7.19.x, sm_90a): a warpgroup's collective that
// moves its per-thread register maximum to imm-reg-count, releasing
// registers to the CTA's pool (.dec) or taking them from it (.inc).
//
//   setmaxnreg.dec.sync.aligned.u32 40;    // a producer warpgroup gives registers back
//   setmaxnreg.inc.sync.aligned.u32 232;   // a consumer warpgroup takes them
//
// What the ISA requires and the machine checks:
//   - imm-reg-count is a constant in 24..256, a multiple of 8 (else the
//     module is bad input: an Error at the operand, as ptxas refuses it);
//   - every warp of the warpgroup executes the same setmaxnreg (.sync.aligned:
//     the scheduler's Collective::warpgroup, so warps at another instruction,
//     at a barrier or exited are a refutation at the instruction);
//   - .inc raises and .dec lowers the warpgroup's current maximum: once the
//     machine knows it (the kernel's .maxnreg, or an earlier setmaxnreg of the
//     warpgroup), an .inc below it or a .dec above it is a refutation.
// Not modelled (resting on ptxas and the hardware): the CTA's register pool
// (how many registers ptxas gave each thread is not in the PTX, so an .inc the
// pool cannot serve — which blocks on the hardware — is not found), and the
// new registers' undefined contents (PTX registers are virtual; ptxas keeps
// live values across the instruction).
#pragma once

#include "core/ptx/ptx_module.h"

namespace mmacheck::ptx {

class WarpContext;

// setmaxnreg's operand: a constant 24..256, a multiple of 8 (into inst.count);
// .inc or .dec (inst.trans: .inc).
void check_setmaxnreg_operands(Instruction& inst);

void exec_setmaxnreg(const Instruction& inst, WarpContext& w);

}  // namespace mmacheck::ptx
