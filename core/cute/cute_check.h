// check_cute_atom() — is a CuTe MMA atom's (thread, value) -> index layout of
// each operand exactly the PTX register frame of the instruction its name
// names?
//
// CuTe (mma_traits.hpp): ALayout maps (thread, value) to m + M*k over the
// atom's (M, K), BLayout to n + N*k over (N, K), CLayout to m + M*n over
// (M, N); ThrID maps the atom's thread index to the lane.  Value v of a thread
// is the v-th element of its fragment, which CuTe packs into the registers
// it passes to mma.sync in order, so it must be PTX's element v (a_v, b_v,
// c_v).  The operand is
//
//   proved     for every thread t < 32 and value v, the coordinate the layout
//              gives is the one PTX's frame gives lane ThrID(t), element v
//              (then it is also one-to-one and onto the tile);
//   refuted    somewhere it is not: the counterexample is the first (t, v)
//              that differs, the message adds injectivity and coverage;
//   ill_formed the layout, read, is no TV layout (shape and stride not
//              congruent, not two modes), or the declared metadata disagrees
//              with the name's instruction (Shape_MNK, a ValTypeX);
//   unchecked  the instruction or its frame is not in mmacheck's tables, the
//              atom is a partial specialization the reader does not resolve
//              (UMMA, sm_120: not read), it gives a FrgTypeX (fragment types
//              are not modelled), or ThrID is not the 32 lanes of one warp.
// GMMA (wgmma) and UMMA (tcgen05) atoms go to check_cute_warpgroup_atom()
// (core/cute/cute_gmma_check.h): the 128 threads of a warpgroup, or the CTA.
// (What cannot be read at all — a missing member, an undefined alias, a
// malformed layout — is the reader's located Error, never a verdict.)
//
// Proved therefore covers, per operand: coverage (every element of the tile
// is some (thread, value)'s), distinctness (no two (thread, value) pairs
// share one), and the register order (value v is PTX's element v).
//
// The domain is at most 32 x 128 points, so the check enumerates it: the
// verdict is a proof, not a sample.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gemm/ptx_frame.h"
#include "core/cute/cute_atom_name.h"
#include "core/cute/cute_traits.h"
#include "core/cute/cute_tv_compare.h"
#include "core/prove/frame_verdict.h"  // an atom's verdict is its worst operand's

namespace mmacheck {

struct CuteAtomReport {
  std::string atom;
  SourceLoc loc;
  std::optional<std::string> instruction;   // the PTX name, when the atom names one
  std::vector<CuteOperandReport> operands;  // A, B, C
  FrameVerdict result = FrameVerdict::unchecked;
  std::string note;  // e.g. complex atoms composed of real ones (also ends each operand's message)
};

CuteAtomReport check_cute_atom(const CuteAtomTraits& atom);

// Why the atom's declared metadata for `op` disagrees with its name's
// instruction ("" when it agrees): Shape_MNK against M, N, K; ValTypeA
// (A), ValTypeB (B), ValTypeC and ValTypeD (C) against the name's types.
std::string metadata_problem(const CuteAtomTraits& atom, const CuteAtomName& inst, Operand op);

}  // namespace mmacheck
