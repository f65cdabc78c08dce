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

#include "core/prove/cute_check.h"

namespace mmacheck {

CuteAtomReport check_cute_tiled(const CuteAtomTraits& tiled);

}  // namespace mmacheck
