// The CuTe DSL's print output (nvidia-cutlass-dsl 4.8; `print(op)`,
// `print(mma_atom)`, `print(tiled_mma)` inside @cute.jit), read as printed:
//
//     warp-level F16/BF16 MMA Operation
//       A/B data type         = Float16
//       Accumulator data type = Float32
//       Instruction shape MNK = (16, 8, 16)
//     MMA Atom
//       ThrID:       32:1
//       Shape MNK:   (16,8,16)
//       TV Layout A: ((4,8),(2,2,2)):((32,1),(16,8,128))
//       TV Layout B: ((4,8),(2,2)):((16,1),(8,64))
//       TV Layout C: ((4,8),(2,2)):((32,1),(16,8))
//     Tiled MMA
//       Thr Layout VMNK: (32,2,2,1):(1,32,64,0)
//       Permutation MNK: (32:1,(8,4):(4,1),16:1)
//     MMA Atom
//       ...
//
// The print of an atom names no element types, so an atom (or TiledMMA)
// takes its instruction from the op printed last before it: its kind (F16/
// BF16, TF32, FP8 (SM89)), A/B and accumulator types give the CUTLASS atom
// name the checks decode (SM80_16x8x16_F32F16F16F32_TN), and ValTypeD/A/B/C;
// the atom's own Shape MNK is checked against it.  A warpgroup (sm_90 wgmma)
// op prints `warpgroup F16/BF16 | F8 | I8 MMA Operation` with `A data type`,
// `B data type`, `A source location` (OperandSource.SMEM / RMEM) and both
// major modes, and names CUTLASS's GMMA atom (SM90_64x128x16_F32F16F16_SS,
// _TN for F8 and I8, whose MN-major operands are an Error).  A TiledMMA is
// its `Tiled MMA` block and the atom block after it; its AtomLayout is Thr
// Layout VMNK's modes M, N, K with the strides divided by the atom's threads
// (32, or a warpgroup's 128: CuTe's tiled_product(ThrID, AtomLayout)), and
// `_` permutation modes are the identity.  `#` lines are comments.  Strict: an unknown line, key, op or
// type, a block missing a field or giving one twice, an atom with no op
// before it, a malformed layout — each is a located Error.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/limits.h"
#include "core/cute/cute_traits.h"

namespace mmacheck {

// The text holds a line the DSL prints to open an op, atom or TiledMMA.
bool is_cute_dsl_print(std::string_view text);
// Every atom and TiledMMA printed, in order (a TiledMMA's own atom is part of it).
std::vector<CuteAtomTraits> read_cute_dsl_print(const std::string& text, const std::string& file,
                                                const Limits& limits = Limits());

}  // namespace mmacheck
