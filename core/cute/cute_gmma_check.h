// check_cute_warpgroup_atom() — a CuTe GMMA (sm_90 wgmma) or UMMA (sm_100
// tcgen05.mma) atom's layouts against what the instruction does with them.
//
// GMMA (ThrID: the 128 threads of a warpgroup):
//
//   C         the wgmma accumulator fragment (core/wgmma/wgmma_frame.h): value
//             v of thread t must be PTX's d_v of thread t — proved or refuted
//             with the (thread, value) and element, as for mma.sync;
//   A of RS   the wgmma A-from-registers fragment, likewise;
//   A of SS,  CuTe writes a shared-memory operand as every thread seeing the
//   B         whole tile, (128, (X, K)):(0, (1, X)): partitioning the smem
//             tensor by it hands each thread the tile, in (x, k) order, for
//             make_gmma_desc to describe.  That much is checked (each thread
//             holds every element of X x K once, value v at x = v % X,
//             k = v / X; refuted naming the (thread, value) otherwise), but
//             which element the instruction reads for (x, k) is the smem
//             layout's and the descriptor's, not the trait's: the operand is
//             `unchecked` (`mmacheck wgmma` checks descriptors), never proved.
//
// UMMA (ThrID: the CTA, or the two CTAs of a 2x1SM pair): M and N are
// template arguments, so only an atom list entry with Shape_MNK fixes the
// layouts.  A, B and C must split their first axis evenly over the CTAs, the
// rest of the tile in (x, y) order ((1, (M, N)):(0, (1, M)) for one CTA); for
// 2x1SM, the CTA that holds each row of C must be the one tcgen05's data path
// (core/tcgen05/tcgen05_tmem.h) writes it in.  Where in TMEM each element of D
// lies (lane, column) is FrgTypeC's (UMMA::tmem_frg), not the CLayout's, and
// A and B sit in shared or tensor memory behind descriptors: every operand
// that passes is `unchecked` with that reason; one that does not is refuted.
//
// Metadata first: Shape_MNK and ValTypeX against the name (ill_formed), a
// FrgTypeX that says a different operand source than the name (ill_formed).
#pragma once

#include "core/cute/cute_atom_name.h"
#include "core/cute/cute_check.h"
#include "core/cute/cute_traits.h"

namespace mmacheck {

// `inst` is the atom's decoded name, family wgmma or umma.
CuteAtomReport check_cute_warpgroup_atom(const CuteAtomTraits& atom, const CuteAtomName& inst);

}  // namespace mmacheck
