// read_tcgen05_tirx() — a TIRx lowered dump's tcgen05.mma as a Tcgen05Case
// (core/tcgen05/tcgen05_check.h): what TVM 0.1.0a4 (apache-tvm-tirx) printed
// after TileDispatch for a `T.cuda.tile.apply("tcgen05.mma...", D, A, B,
// instruction_shape=...)` (scripts/tirx-oracle/tcgen05_programs.py makes
// them).  The file is the printed module:
//
//     @T.ir_module / class Module: / @T.function / def main():
//         with T.device_scope(...):
//             sa = T.alloc_tensor(ty_args=[T.Tensor((1, 4, 128, 16), T.bfloat16, scope="shared",
//                                 data_alignment=1024, layout=T.ComposeLayout(3, 3, 3, ...))])
//             td = T.alloc_tensor((0,), ty_args=[T.Tensor((1, 1, 128, 256), T.float32, scope="tmem", layout=...)])
//             for repeat_2 in T.unroll(0, 4):
//                 T.ptx.tcgen05(T.cuda.get_tmem_addr(T.Cast("uint32", T.reinterpret(td.data, ty=T.uint64)), 0, 0),
//                               A_DESC, B_DESC, T.uint32(IDESC), T.uint32(0) x 4 per CTA, ENABLE,
//                               "mma", "cta_group::1", "kind::f16", "", "p8")
//
// Read from it, for every value of the T.unroll loops around the call:
//
//   instruction  kind and CTA group from the call's strings; per-CTA M and N
//                from D's buffer (its last two extents: M / cta_group x N),
//                K from A's (the kind's K, else an Error); the formats from
//                the buffers' dtypes (float32 is tf32 under kind::tf32).
//                Major-ness is not in the dump (TIRx folded it into the
//                idesc): it is taken from the idesc's transpose bits, so a
//                wrong one shows as the operand read wrongly, its fix the
//                other major-ness.
//   idesc        the call's 4th argument, evaluated.
//   operands     A and B: each descriptor argument evaluated at the loop
//                values (core/tcgen05/tirx_lowered_expr.h) and decoded; the
//                tile is the buffer's atom (last two extents) of the K block
//                the K loop needs in that repeat, each element's byte
//                address the buffer's layout gives it, the buffer at shared
//                address 0 (TIRx aligns a swizzled buffer to its whole
//                swizzle period, so any aligned base reads alike).
//   k loop       every value of the loops is one repeat of one output tile's
//                K loop (D does not move): the K block each repeat's
//                descriptors read (the block whose first element the
//                decoded descriptor reads first; never the T.address_of
//                indices, which are what is under test) and its
//                enable-input-D (the call's last argument before the
//                modifiers, `T.Or(repeat_2 != 0, T.bool(False))`), for
//                check_tcgen05's whole-loop check.
//   flags        negate A/B and saturate: TIRx folds the tile op's neg_a,
//                neg_b, sat_d into the idesc, so they are read from the
//                program before lowering beside the dump (NAME.py for
//                NAME.lowered.py, with accum) and the idesc must agree;
//                without it, the idesc's bits are the statement.
//   tmem         D's buffer layout at the region's origin, against the data
//                path of M and cta_group, D at get_tmem_addr's lane and
//                column offsets from the allocation.
//
// Anything else is an Error at FILE:LINE:COL: another statement, a
// T.ptx.tcgen05 form other than shared A and B (A in TMEM, .ws, block
// scaling, sparsity), a nonzero disable-output-lane mask, a second call,
// D's address moving between loop values.
#pragma once

#include <string>
#include <string_view>

#include "core/tcgen05/tcgen05_check.h"

namespace mmacheck {

// Does the text look like a TIRx program or dump with tcgen05 (a kernel
// decorator and "tcgen05" in it)?  `mmacheck tcgen05` reads such files here.
bool is_tcgen05_tirx(std::string_view text);

Tcgen05Case read_tcgen05_tirx(std::string_view text, const std::string& path);

}  // namespace mmacheck
