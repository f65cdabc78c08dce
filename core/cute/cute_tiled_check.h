// check_cute_tiled() — is a CuTe TiledMMA's (thread, value) -> index layout
// of A, B and C a tiling of the tile (M, N, K) by the atom's mma.sync?
//
// The TiledMMA is read as CuTe builds it (mma_atom.hpp, thrfrg_A/B/C):
// ThrLayoutVMNK maps (lane, warp m, warp n, warp k) to the thread index; A's
// value mode is ((FrgV), (RestM, RestK)), B's ((FrgV), (RestN, RestK)), C's
// ((FrgV), (RestM, RestN)), FrgV being the atom's values.  One mma instance
// is a warp (wm, wn, wk) with reps (rm, rn, rk); it feeds A's values
// (wm, wn, wk; rm, rk), B's (.; rn, rk) and C's (.; rm, rn) to one
// mma.sync.  The instance is right when there are maps rho_M, rho_N, rho_K
// from the instruction's rows, columns and k to the tile such that every
// value lane l, element e holds what the PTX frame puts there, through them
// (A: (rho_M(row), rho_K(col)); B: (rho_K(row), rho_N(col)); C: (rho_M(row),
// rho_N(col))) — the same maps for A, B and C.  Then every C element must
// belong to exactly one (warp, rm, rn), and its K must be summed exactly once
// over rk.  K split over warps (wk > 1) needs a reduction CuTe leaves to the
// kernel: unchecked.
//
// Verdicts and reports as for check_cute_atom(); a disagreement is charged to
// the operand where it shows, its counterexample's `ptx` being the
// coordinate the other operands and the frame imply.
#pragma once

#include <array>
#include <vector>

#include "core/base/limits.h"
#include "core/cute/cute_atom_name.h"
#include "core/cute/cute_check.h"

namespace mmacheck {

// A tile past Resource::elements per operand, or more mma than
// Resource::mma, is the limit's located Error.
CuteAtomReport check_cute_tiled(const CuteAtomTraits& tiled, const Limits& limits = Limits());

// The TiledMMA as tables: per operand, index[thread + threads * value] over
// its tile dims, and the value mode's (rest, rest) extents.  Built from the
// tiled TV layouts given, or — with AtomLayout — as make_tiled_mma builds
// them (mma_atom.hpp): value (e, (r0, r1)) of thread (lane, wm, wn, wk) is
// atom index a = TV(lane, e), at i = a % atom_d0 + atom_d0 (w_d0 + W_d0 r0),
// j = a / atom_d0 + atom_d1 (w_d1 + W_d1 r1), then through the permutations:
// P_d0(i) + tile_d0 P_d1(j).
struct TiledOperand {
  Operand op = Operand::A;
  const Frame* frame = nullptr;
  std::int64_t rest0 = 1, rest1 = 1;  // (RestM, RestK), (RestN, RestK) or (RestM, RestN)
  std::int64_t dim0 = 0;              // the tile's extent along the operand's first dim
  std::vector<std::int64_t> table;
};
struct TiledTables {
  CuteLayout vmnk;  // (lane, wm, wn, wk) -> thread
  std::int64_t threads = 0;
  std::vector<std::int64_t> thread_of;  // coordinate index -> thread
  std::array<std::int64_t, 3> tile{};   // M, N, K
  std::array<TiledOperand, 3> ops;      // A, B, C
};
// "" on success, else why the TiledMMA cannot be read.
std::string tiled_tables(const CuteAtomTraits& tiled, const CuteAtomName& inst, TiledTables& out,
                         const Limits& limits = Limits());

}  // namespace mmacheck
