// mbarrier in the CTA machine: the semantics of the opcode table's rows
// mbarrier.init, mbarrier.arrive, mbarrier.arrive.expect_tx,
// mbarrier.expect_tx, mbarrier.try_wait{.parity}, mbarrier.test_wait{.parity}
// and mbarrier.inval (PTX ISA §9.7.13.15), on an mbarrier object in shared
// memory (shared::cta; another CTA's, shared::cluster, is not modelled).
//
//   mbarrier.init.shared::cta.b64 [%r6], 1;
//   mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], 8192;
//   waitLoop: mbarrier.try_wait.parity.shared::cta.b64 complete, [%r32], %r185;
//             @!complete bra.uni waitLoop;
//
// A phase completes when its arrivals (init's count) have come and its
// transaction bytes (expect_tx, minus the bytes cp.async.bulk.tensor
// delivers: core/ptx/ptx_tma.h) are zero; then the next phase begins.
// try_wait.parity p is true once the phase of parity p before the current one
// has completed (on a fresh mbarrier, parity 1 at once: the ISA's "phase -1").
// A try_wait that would be false blocks the thread instead (the machine's
// schedule: the hardware's time limit may be any, so a loop around try_wait
// only waits); the thread runs it again when a phase completes.  A thread
// that sees a phase complete knows the bytes it delivered (the reads of
// core/ptx/ptx_tma.h); a barrier of the whole CTA passes that on.  A phase
// that never completes while every thread waits is a refutation (deadlock);
// test_wait that would be false ends the run unfollowed (its other path is
// not followed); an mbarrier used before init or after inval is a refutation.
#pragma once

#include "core/ptx/ptx_module.h"

namespace mmacheck::ptx {

class ThreadContext;

// The operands of the mbarrier rows (`name`: the row's).
void check_mbarrier_operands(Instruction& inst, std::string_view name, const PtxKernel& kernel);

void exec_mbarrier_init(const Instruction& inst, ThreadContext& t);
void exec_mbarrier_arrive(const Instruction& inst, ThreadContext& t);
void exec_mbarrier_arrive_expect_tx(const Instruction& inst, ThreadContext& t);
void exec_mbarrier_expect_tx(const Instruction& inst, ThreadContext& t);
void exec_mbarrier_try_wait(const Instruction& inst, ThreadContext& t);
void exec_mbarrier_test_wait(const Instruction& inst, ThreadContext& t);
void exec_mbarrier_inval(const Instruction& inst, ThreadContext& t);

}  // namespace mmacheck::ptx
