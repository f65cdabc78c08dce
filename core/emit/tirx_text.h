// Layer core/emit: TIRx and CUDA printers (tirx_text.h, cuda_source.h), SVG pictures
// (svg.h). Uses all of core; nothing of sim, cuda or cli.
//
// emit_tirx — a dispatched Plan as the TIRx IR TVM's lowering produces
// after unrolling: the text `mmacheck emit --tirx` prints.
//
// A comment header names the gemm, the instruction and the tiling, and
// declares the register views as TVM's implementation does
// (`d_local = D.local(Mo, No, rM, rN, layout=...)`).  Then, per output tile,
// the accumulator initialization, one line per slot, and one `T.ptx[...]`
// call per K tile, registers in PTX operand order (D, A, B, C = D):
//
//     # tile m=0 n=0
//     d_local[0] = T.float32(0)                      (beta = 0)
//     d_local[0] = c_local[0]                        (beta = 1)
//     T.ptx["mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"](d_local[0], d_local[1],
//         d_local[2], d_local[3], a_words[0], a_words[1], a_words[2], a_words[3],
//         b_words[0], b_words[1], d_local[0], d_local[1], d_local[2], d_local[3])
//
// (the call is one line).  Indices are flat storage positions, the same in
// every lane: `x_local[s]` is element slot s; registers that pack several
// elements are words of a uint32 view, `x_words[r]` (TVM's a_words /
// b_words; also d_words / c_words for f16 accumulators); 64-bit registers
// (f64) are elements, `x_local[s]`.
#pragma once

#include <string>

#include "core/gemm/dispatch.h"

namespace mmacheck {

// Throws Error when the plan did not dispatch (plan.ok is false).
std::string emit_tirx(const Plan& plan);

}  // namespace mmacheck
