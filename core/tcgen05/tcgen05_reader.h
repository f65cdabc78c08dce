// read_tcgen05_file() — the input of `mmacheck tcgen05`: one tcgen05.mma as
// the program means it, the descriptors it passes, the shared buffers they
// read and (optionally) where it reads D in TMEM.  One statement a line, `#`
// comments, blank lines ignored (core/wgmma/statement.h):
//
//     instr kind=f16 cta_group=1 m=128 n=256 d=f32 a=bf16 b=bf16 a_major=K b_major=K
//     idesc 0x08400490
//     operand A
//     descriptor start=0x400 lbo=16 sbo=1024 swizzle=128B      # or: descriptor 0x4000404000010040
//     smem base=0x400 layout=ComposeLayout(3, 3, 3, S[(128, 64) : (64, 1)]) shape=128x64 at=0,0
//     operand B
//     descriptor ...
//     smem ...
//     tmem D lane=0 column=0 layout=S[(128, 256) : (1@TLane, 1@TCol)]
//
//   instr       kind= tf32|f16|f8f6f4|i8; cta_group= 1|2 (default 1); m= n=;
//               d= a= b= (the kind's formats, core/tcgen05/tcgen05_instr.h);
//               a_major= b_major= K|MN (default K); negate_a= negate_b=
//               saturate= 0|1 (default 0).  First, exactly once.
//   idesc       the 32-bit instruction descriptor the program passes.  Once.
//   operand A|B then its descriptor and smem lines as every descriptor file
//               writes them (core/wgmma/operand_lines.h) — the descriptor
//               in tcgen05's encoding, swizzle= none|128B|64B|32B|128B_base32B,
//               lbo_mode= relative|absolute — for the CTA's tile: A is
//               (M / cta_group) x K, B (N / cta_group) x K, in the instr's
//               formats and major-ness.  Any number.
//   tmem D      lane= column= (D's TMEM address; default 0) and layout= a
//               TileLayout over D's M x N on TLane, TCol (and cbx: the CTA
//               of a pair).  At most once.
//
// Anything else is an Error at FILE:LINE:COL.
#pragma once

#include <string>
#include <string_view>

#include "core/tcgen05/tcgen05_check.h"

namespace mmacheck {

Tcgen05Case read_tcgen05_file(std::string_view text, const std::string& path);

}  // namespace mmacheck
