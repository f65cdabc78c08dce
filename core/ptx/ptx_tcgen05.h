// tcgen05 in the CTA machine: the semantics of the opcode table's rows for
// Blackwell's fifth-generation tensor core (PTX ISA §9.7.16, sm_100a) and
// the CTA's tensor memory (TMEM) they work on.
//
//   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 128;   a warp: columns, address to smem
//   tcgen05.mma.cta_group::1.kind::f16 [%r_d], %rd_a, %rd_b, %r_idesc, %p;  one thread: D (+)= A·B in TMEM
//   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [bar];  arrives when its mmas are done
//   tcgen05.ld.sync.aligned.32x32b.x16.b32 {%r1, ..}, [%r_t];              a warp: TMEM -> registers
//   tcgen05.wait::ld.sync.aligned;                                          the loaded registers may be used
//   tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r_t, 128;               a warp: the columns back
//
// TMEM is 128 lanes x 512 columns of 32-bit cells per CTA, each byte with a
// provenance tag as registers have (core/ptx/provenance.h), so a proof
// follows D through it.  tcgen05.mma reuses the tcgen05 wing: the
// instruction descriptor is read by instr_of_idesc (core/tcgen05/
// tcgen05_instr.h), the shared-memory descriptors by Tcgen05SmemDescriptor
// and wgmma's canonical layouts, D's place in TMEM by tmem_position
// (core/tcgen05/tcgen05_tmem.h); the numbers come from
// RunOptions::tcgen05_arithmetic (sim/tcgen05's, MMA-Sim's model).  The
// mma computes when it is issued; its cells count as written by it until a
// tcgen05.commit of the issuing thread takes them to the commit's mbarrier
// phase.  The refutations, each at its PTX line:
//   - TMEM accessed (mma, ld, st) in columns no live tcgen05.alloc holds
//     (before the alloc, after the dealloc, past its columns);
//   - a tcgen05.ld of cells an mma wrote before the reading thread has seen
//     the mbarrier phase of the commit that tracked the mma (or with no
//     commit at all);
//   - a register a tcgen05.ld wrote, read or written before the thread's
//     tcgen05.wait::ld;
//   - a warp's tcgen05.ld/st past its lane quarter (warp w: lanes
//     32 (w % 4) .. + 31; the address's quarter bits are not read, as the
//     hardware ignores them: DeepGEMM's and TileLang's kernels rely on it);
//   - an mma reading D (enable-input-d) from cells never written;
//   - a dealloc that matches no allocation, an alloc after the warp's CTA
//     relinquished its permit, columns still allocated when the CTA ends.
// Not modelled (located errors): cta_group::2, A from TMEM, tcgen05.cp,
// tcgen05.shift, the .ws and block-scaled forms, .16x32bx2, pack/unpack.
//   - a write of shared bytes an mma reads before the writer has seen the
//     phase of the commit that tracked the mma.
// Not checked: the order tcgen05.wait::st gives to tcgen05.st, the fences
// (before/after_thread_sync are read and have no effect), fence.proxy.async
// between a generic write of an operand and the mma.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/error.h"
#include "core/ptx/provenance.h"
#include "core/ptx/ptx_module.h"

namespace mmacheck::ptx {

class ThreadContext;
class WarpContext;

// One CTA's TMEM and its allocations (empty in kernels without tcgen05).
struct TmemState {
  static constexpr int kLanes = 128, kColumns = 512;
  bool used = false;
  std::vector<std::uint32_t> bits;  // per cell (lane * kColumns + column)
  std::vector<Tag> tags;            // 4 per cell
  // Per cell: the tcgen05.mma that last wrote it (-1: none), and the
  // mbarrier (index in CtaState::mbarriers) and phase count a reader must
  // have seen: -1 while no commit has tracked the mma, -2 when no mma wrote
  // it (tcgen05.st's cells, or none).
  std::vector<std::int32_t> mma;
  std::vector<std::int32_t> mbarrier;
  std::vector<std::uint32_t> phase;
  struct Allocation {
    int column = 0, columns = 0;
    int inst = -1;  // the tcgen05.alloc
  };
  std::vector<Allocation> allocations;  // live
  int freed_by = -1;                    // the last tcgen05.dealloc (for messages)
  bool relinquished = false;
  // Per thread: the cells its tcgen05.mmas wrote, and the shared bytes they
  // read, since its last commit.
  std::vector<std::vector<std::uint32_t>> uncommitted;
  std::vector<std::vector<std::uint32_t>> uncommitted_reads;
  // Per shared byte an mma read: 0 none, -1 while no commit tracks the mma,
  // else 1 + the commit's mbarrier, with the phase count a writer must have
  // seen and the mma.
  std::vector<std::int32_t> read_mbarrier;
  std::vector<std::uint32_t> read_phase;
  std::vector<std::int32_t> read_inst;
  void init(int threads, std::size_t shared_bytes);
  static std::size_t cell(int lane, int column) {
    return static_cast<std::size_t>(lane) * kColumns + static_cast<std::size_t>(column);
  }
  // The live allocation holding `column`, or nullptr.
  const Allocation* holding(int column) const;
};

// Reads a tcgen05 opcode's modifiers into inst.tcgen05; an Error at `at`
// for a form the machine does not model.
void decode_tcgen05(Instruction& inst, const SourceLoc& at);
// The operands of each tcgen05 row.
void check_tcgen05_operands(Instruction& inst, const PtxKernel& kernel);

void exec_tcgen05_alloc(const Instruction& inst, WarpContext& w);
void exec_tcgen05_dealloc(const Instruction& inst, WarpContext& w);
void exec_tcgen05_relinquish(const Instruction& inst, WarpContext& w);
void exec_tcgen05_mma(const Instruction& inst, ThreadContext& t);
void exec_tcgen05_commit(const Instruction& inst, ThreadContext& t);
void exec_tcgen05_ld(const Instruction& inst, WarpContext& w);
void exec_tcgen05_st(const Instruction& inst, WarpContext& w);
void exec_tcgen05_wait_ld(const Instruction& inst, ThreadContext& t);
void exec_tcgen05_wait_st(const Instruction& inst, ThreadContext& t);
// A write of shared byte `byte`, which a tcgen05.mma reads: the writer must
// have seen the phase of the commit that tracked the mma (else a refutation).
void tcgen05_shared_write(ThreadContext& t, const Instruction& inst, std::uint64_t byte);
// The CTA's end: columns still allocated are a refutation at their alloc.
void tcgen05_at_exit(ThreadContext& t);

}  // namespace mmacheck::ptx
