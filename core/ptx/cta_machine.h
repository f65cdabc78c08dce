// run_grid() — a PTX kernel executed thread by thread over a grid, on the
// CPU: every CTA in turn, every thread of it with its own registers and
// program counter, warps meeting at their collective instructions
// (mma.sync, ldmatrix, stmatrix, shfl.sync, vote.sync), warpgroups at
// theirs (wgmma: core/ptx/ptx_wgmma.h) and CTAs at their barriers.  Values carry their bits and their provenance
// (core/ptx/provenance.h), so one run is both the simulation (the bits of D)
// and the proof's evidence (D's tags).
//
// Scheduling: each thread runs until it reaches a warp-collective
// instruction, a barrier, or its end; a warp's collective runs when all its
// live lanes wait at that one instruction; a barrier (one of 16) opens when
// its thread count has arrived (bar.sync waits, bar.arrive goes on), or
// without a count when every live thread of the CTA waits at it.  Only a
// barrier every live thread waited at orders memory for the checks below; a
// race a barrier of part of the CTA may order ends the run unfollowed.
// Divergent lanes at a `.aligned` instruction, a collective some lanes have
// left, and threads waiting forever are refutations, as are:
//   - two threads writing one byte (shared memory between barriers, global
//     memory ever), one thread reading or overwriting a shared byte another
//     wrote or read with no barrier between, a CTA reading or writing a
//     global byte another CTA writes (nothing orders CTAs), or reading one
//     another thread of its CTA wrote since the last barrier;
//   - a register read as an address, a guard or an mma operand before any
//     write;
//   - a shared read of bytes a cp.async is still writing (before the
//     cp.async.wait_group that completes it);
//   - an access outside every tensor of the launch, outside the CTA's
//     shared memory or the thread's local memory (.local: every thread's
//     own, tagged as registers are); an address computed from data.
// Each names the instruction's line, the CTA and the thread.  What the run
// cannot follow (a branch or an address computed from tensor data) ends it
// as `unfollowed`; more steps than the bound is an Error.
//
// CTAs: RunOptions::threads of them run at once, each with its own shared
// memory, its writes to global memory kept apart (its own reads see them),
// its sums in its own provenance arena.  Then the grid is merged in its
// order (linear CTA index) as if the CTAs had run one after another: the
// first CTA with a finding of its own, or with an access of a global byte
// an earlier CTA accessed where either writes (at the later access), ends
// the run there — so the outcome does not depend on the threads.
//
//     GlobalMemory mem;  ... mem.add(...) per tensor argument ...
//     const RunResult r = run_grid(kernel, {{2, 4, 1}, {32, 1, 1}, 0}, params, mem, prov, {});
//     r.refutation == std::nullopt
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "core/ptx/provenance.h"
#include "core/ptx/ptx_module.h"
#include "core/tcgen05/tcgen05_instr.h"
#include "core/tma/tensor_map.h"

namespace mmacheck::ptx {

// A refutation the run found, where it found it.
struct Finding {
  SourceLoc loc;
  std::array<int, 3> cta{};
  int thread = 0;
  std::string message;
  SourceLoc source{};  // the instruction's line in the compiler's source, where the PTX says (Instruction::source)
};

// A tensor argument of the launch: its elements' bytes, shape and strides
// in elements (row-major when the launch gives none).
struct TensorArg {
  std::string name;
  DType dtype = DType::f32;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  // Elements the storage spans: 1 + Σ (shape_i - 1)·stride_i.
  std::int64_t storage_elements() const;
  int element_bytes() const { return std::max(1, dtype_bits(dtype) / 8); }
  // A 2-D tensor's (row, col) of storage element `storage`; nullopt for
  // padding, another rank or a position outside.
  std::optional<std::pair<std::int64_t, std::int64_t>> matrix_index(std::int64_t storage) const;
};

// The device's global memory as the run sees it: one region per tensor
// argument, each at its own base address.  Bytes carry tags; the regions
// the kernel writes keep who wrote each byte, to find two writers.
class GlobalMemory {
 public:
  struct Region {
    TensorArg tensor;
    std::uint64_t base = 0;
    std::vector<std::uint8_t> bytes;
    std::vector<Tag> tags;
    std::vector<std::uint32_t> writer;  // 1 + global thread id of the last write, 0: none
    std::vector<std::int32_t> where;    // the instruction of the last write
  };
  // Places `tensor` (zero bytes, every byte tagged `unwritten`); returns its
  // base address.
  std::uint64_t add(TensorArg tensor);
  const Region* find(std::uint64_t address, std::int64_t bytes) const;
  std::vector<Region>& regions() { return regions_; }
  const std::vector<Region>& regions() const { return regions_; }

 private:
  std::vector<Region> regions_;
};

// The arithmetic of one mma.sync on its logical tiles (row-major words),
// sim's bit-exact model; a run without one leaves D's bits zero (the
// provenance alone decides a proof).
using MmaArithmetic =
    std::function<void(const MmaInst& inst, std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                       std::span<const std::uint64_t> c, std::span<std::uint64_t> d)>;

// The arithmetic of one wgmma.mma_async on its logical tiles (row-major
// words: A 64 x K, B K x N, C and D 64 x N), sim's bit-exact model; a run
// without one leaves D's bits zero.
using WgmmaArithmetic =
    std::function<void(const WgmmaForm& form, std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                       std::span<const std::uint64_t> c, std::span<std::uint64_t> d)>;

// The arithmetic of one tcgen05.mma on its logical tiles (row-major
// words: A M x K, B K x N, C and D M x N), sim's bit-exact model; a run
// without one leaves D's bits zero.
using Tcgen05Arithmetic =
    std::function<void(const Tcgen05Instr& instr, std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                       std::span<const std::uint64_t> c, std::span<std::uint64_t> d)>;

struct GridShape {
  std::array<int, 3> grid{1, 1, 1};
  std::array<int, 3> block{32, 1, 1};
  std::int64_t dynamic_shared = 0;
};

// A CUtensorMap parameter (`.param .align 64 .b8 name[128]`): the map
// cuTensorMapEncodeTiled would encode, its globalAddress the tensor's base.
struct TensorMapParam {
  int param = -1;  // the parameter's index
  TensorMap map;
  std::string tensor;  // the tensor it maps, for messages
};

struct RunOptions {
  std::uint64_t max_steps = std::uint64_t{1} << 32;  // thread-instructions in all
  MmaArithmetic arithmetic;                          // called from several threads at once
  WgmmaArithmetic wgmma_arithmetic;                  // the same for wgmma.mma_async
  Tcgen05Arithmetic tcgen05_arithmetic;              // and for tcgen05.mma
  int threads = 1;                                   // CTAs run at once (at most the grid's)
  // mma.sync makes sums (the proof's evidence); off, its D elements are
  // opaque values (a run for the numbers alone: sim's).
  bool sums = true;
  // The launch's tensor-map parameters (cp.async.bulk.tensor reads them).
  std::vector<TensorMapParam> tensor_maps;
};

struct RunResult {
  std::optional<Finding> refutation;
  std::optional<Finding> unfollowed;  // what the run could not follow (a verdict of unchecked)
  std::uint64_t steps = 0;            // thread-instructions executed
};

// `params`: each parameter's bits, in the kernel's order (a tensor's: its
// base address).  Throws Error for what it cannot run (the step bound).
RunResult run_grid(const PtxKernel& kernel, const GridShape& shape, std::span<const std::uint64_t> params,
                   GlobalMemory& memory, Provenance& provenance, const RunOptions& options);

}  // namespace mmacheck::ptx
