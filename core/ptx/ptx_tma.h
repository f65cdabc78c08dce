// TMA in the CTA machine: the semantics of the opcode table's row
// cp.async.bulk.tensor (PTX ISA §9.7.9.25.5.1), the tiled form into shared
// memory completing on an mbarrier:
//
//   cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [dst], [tmap, {c0, c1}], [mbar];
//
// `tmap` is the generic address of a CUtensorMap parameter (`.param .align 64
// .b8 k_param_0[128]`, `mov.b32 %r, k_param_0; cvta.param.u64`), which the
// launch file gives as cuTensorMapEncodeTiled's arguments (core/ptx/ptx_launch.h,
// RunOptions::tensor_maps); {c0, ..} the box's tensor coordinates, innermost
// first.  When issued the copy reads the box from global memory (each byte with
// its provenance tag; elements past globalDim are the OOB fill, zeros, untagged)
// and places each element where core/tma/tma_copy.h's model writes it (the map's
// swizzle on the absolute shared address).  It is then in flight: its bytes land
// in shared memory, and count toward its mbarrier's transaction bytes
// (complete_tx), only when the CTA can go no further without them (every thread
// blocked or done) — the latest the hardware may deliver them, so a read of the
// destination before the mbarrier phase completes is found.  In flight, a read,
// a write or another copy of its shared bytes is a refutation; after it lands, a
// read by a thread that has not seen the phase complete (mbarrier.try_wait, or a
// barrier of the whole CTA after a thread that did) is one too.  Multicast,
// im2col, cache hints, a tensor map in global or const memory and copies from
// shared to global memory are not modelled (errors naming them).
#pragma once

#include <string_view>

#include "core/ptx/ptx_module.h"

namespace mmacheck::ptx {

class ThreadContext;

// The operands of cp.async.bulk.tensor: [dst], [tmap, {coords}], [mbar]; the
// rank from `.Nd` into inst.count.
void check_tma_operands(Instruction& inst, const PtxKernel& kernel);

void exec_tma_copy(const Instruction& inst, ThreadContext& t);

}  // namespace mmacheck::ptx
