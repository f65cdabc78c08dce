// Layer core/gemm: instruction table, PTX frames, dispatch, nest, geometry, staging.
// Uses core/base, core/layout, core/program; knows nothing of proofs or printers.
//
// Plan — what the gemm dispatch makes of a Program: either the instruction,
// the per-operand register views and the unrolled Nest, or TVM's reasons for
// declining.
//
// dispatch() mirrors TVM's CUDA `gemm` variant "mma.m16n8k*"
// (python/tvm/backend/cuda/tile_primitive/gemm/mma_m16n8k_.py) under TVM's
// rich dispatcher:
//   1. the predicates full_active_lanes and no_replica are all evaluated; each
//      failing one is a row "rejected: <pred> — <reason>" (TVM joins the rows
//      of one variant with "; "; here they stay separate entries);
//   2. otherwise the implementation's checks, in TVM's order, may decline
//      with one row "declined — <TVM's message>": operand scopes, alpha,
//      beta, 2-D extents, slicing/grouping each operand, anchor alignment,
//      and finally "no mma instruction fits M=.., N=.., K=.., dtypes=(..)";
//   3. the first instruction of mma_instructions() (filtered by the InstSet)
//      whose shape divides (M, N, K), whose (A, B, C, D) dtypes are the
//      buffers' and whose fragment grouping and warp tiling fit, wins.
// Facts TVM asserts (A's K equals B's K, D and C are M x N) are bad input
// here: dispatch() throws Error at the offending operand, as it does for a
// missing gemm call, an unknown buffer or a region outside its buffer.
//
// Example, the seed program (one m16n8k16 tile, beta = 0):
//   plan.ok == true, plan.inst->ptx() == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
//   plan.tiles_m == plan.tiles_n == plan.tiles_k == 1
//   plan.a.shape == {1, 1, 2, 2, 2}, plan.a.slot({0, 0, 1, 0, 1}) == 3  (slot = 4 kHi + 2 rM + kp)
//   plan.nest.stmts == {Init{d_slots {0,1,2,3}},
//                       Mma{d {0,1,2,3}, a {0,1,2,3}, b {0,1}, c {0,1,2,3}}}
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/limits.h"
#include "core/gemm/mma_inst.h"
#include "core/gemm/nest.h"
#include "core/program/program.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

// One operand's thread-local storage as the nest indexes it: TVM's
// `buf.local(*shape, layout=layout)`.  A view coordinate is flattened
// row-major over `shape` and mapped by `layout` to a storage slot, its `m`
// coordinate: an element index into the thread's storage of the buffer.
// `layout` is TVM's _reg_layout: the non-unit iters of the dims' groups
// (register iters for every layout TVM's tests use) and the operand's
// memory-axis offset (a region's start); thread-axis offsets are dropped.
//   D, C: [Mo, No, rM, rN]    (M and N tiles per warp, then the frame's registers)
//   A:    [Mo, Ko, rM, kHi, k_pack]
//   B:    [Ko, No, kHi, k_pack]
// Within one tile the frame coordinates are those of core/gemm/mma_inst.h.
struct RegisterView {
  std::string buffer;  // the program's buffer name
  Shape shape;
  TileLayout layout{std::vector<Iter>{}};

  // Storage slot of `coord` (one index per dimension of `shape`).
  std::int64_t slot(std::span<const std::int64_t> coord) const;
};

struct Plan {
  bool ok = false;                   // dispatch succeeded
  std::vector<std::string> reasons;  // why not (empty when ok), TVM's wording
  const MmaInst* inst = nullptr;     // the chosen instruction; nullptr when !ok

  // The remaining fields are meaningful only when ok.
  std::int64_t m = 0, n = 0, k = 0;           // the gemm's logical extents
  int tiles_m = 0, tiles_n = 0, tiles_k = 0;  // instruction tiles per warp
  RegisterView d, a, b, c;
  Nest nest;
};

// Dispatch the program's gemm call.  `set` chooses the instruction table
// (InstSet::tvm: TVM's four rows, as TVM would; extended: every row).
// Throws Error on bad input (see above); a gemm TVM would not lower is a
// Plan with ok == false, not an error.  Before any work the program's sizes
// are checked against `limits` (core/gemm/resources.h), and the nest's mma
// count before the nest is built: over a limit is bad input too.
Plan dispatch(const Program& program, InstSet set = InstSet::tvm, const Limits& limits = Limits{});

// "tvm" or "extended" (the commands' --inst-set); throws Error otherwise.
InstSet parse_inst_set(std::string_view name);

}  // namespace mmacheck
