// wgmma in the CTA machine: the semantics of the opcode table's rows
// wgmma.fence, wgmma.mma_async, wgmma.commit_group and wgmma.wait_group
// (PTX ISA §9.7.15.5), each a warpgroup's collective (128 threads, the
// scheduler's Collective::warpgroup).
//
//   wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16 {d..}, descA, descB, p, 1, 1, tA, tB;
//
// The descriptors are the kernel's own 64-bit values, one for the whole
// warpgroup, decoded by core/wgmma/descriptor.h and read through the
// canonical layouts of core/wgmma/canonical_layout.h (tA, tB: MN-major);
// A may come from registers instead (`{a0, a1, a2, a3}, descB, p, 1, 1, tB`),
// read through core/wgmma/wgmma_frame.h's A fragment.
// The instruction computes when it is issued — the products go into sums as
// mma.sync's do (core/ptx/provenance.h), the numbers from
// RunOptions::wgmma_arithmetic — and is in flight until the
// wgmma.wait_group that completes its commit group: then D reaches its
// registers (the accumulator fragment of core/wgmma/wgmma_frame.h).  While
// in flight, another instruction's access of its accumulator (or A) registers, a
// write of the shared bytes it reads, and the thread's end are refutations
// (core/ptx/machine_context.h); so is a wgmma.mma_async whose accumulator
// registers another instruction wrote since the thread's last wgmma.fence.
// A chain of wgmma.mma_asyncs on one accumulator reads the one before it in
// flight, as the ISA allows.  A descriptor computed from tensor data, or
// with a base offset, ends the run unfollowed.
#pragma once

#include "core/base/error.h"
#include "core/ptx/ptx_module.h"

namespace mmacheck::ptx {

class WarpContext;

// Reads "wgmma.mma_async.sync.aligned.m64nNkK.D.A.B" into inst.wgmma; an
// Error at `at` for a form the machine does not model.
void decode_wgmma(Instruction& inst, const SourceLoc& at);
// The operands of wgmma.mma_async (D's registers, the descriptors, scale-d,
// the immediates) and wgmma.wait_group's N.
void check_wgmma_operands(Instruction& inst, const PtxKernel& kernel);

void exec_wgmma_fence(const Instruction& inst, WarpContext& w);
void exec_wgmma_mma(const Instruction& inst, WarpContext& w);
void exec_wgmma_commit(const Instruction& inst, WarpContext& w);
void exec_wgmma_wait(const Instruction& inst, WarpContext& w);

}  // namespace mmacheck::ptx
