// Layer core/prove: proof set-up, checks, the Z3 and exhaustive engines, witnesses,
// complete mismatch sets (mismatch.h), the diagnosis of declined layouts and
// the fix search (diagnosis.h, fix_search.h).  Uses core/base..core/gemm;
// knows nothing of core/emit.
//
// prove() — does the nest the dispatch emits compute D = A@B (+ C)?
//
// The specification is the program, not the dispatch: the operands' buffer
// layouts (with the gemm's regions and transposes) and the PTX fragment
// frames (core/gemm/ptx_frame.h).  The nest is only trusted for what it *is* (its
// statements and register numbers).  Each property is a named check over
// every warp of the scope, every lane and every register slot:
//
//   "A frame", "B frame", "C frame", "D frame" — for every mma statement,
//       warp and lane, the register the nest passes holds the element the
//       instruction's frame requires at the statement's tile: A[m0 + row,
//       k0 + col], B[k0 + row, n0 + col], D[m0 + row, n0 + col] for the
//       accumulator input ("C", the mma's C operand: registers of D,
//       accumulated in place) and output ("D"); register r holds slots
//       [r * per_reg, (r + 1) * per_reg).  The tile origins of a statement in
//       a warp are read off the layouts: (m0, n0) from D's element in lane
//       0's first accumulator slot, k0 from A's in lane 0's first A slot
//       (falling back to A's row and B's element where D's or A's slot holds
//       nothing); where two anchors of one coordinate disagree (m: D, A;
//       n: D, B; k: A, B), the one that agrees with the statement's tile
//       index wins (the released TIRx: tile (m, n, k) at (16m, 8n, k·K);
//       else the first statement's origin plus the tile times the extent),
//       so the counterexample names the operand whose register is wrong.
//       Operands that disagree refute the disagreeing operand's
//       frame; a warp where no operand gives a tile (a CTA larger than its
//       layouts) refutes every frame.
//   "A fragment", ... — each operand's layout places the elements of its
//       region injectively, in threads of the scope, at slots of the buffer's
//       storage span, on no memory axis but `m` ("C fragment" only when
//       beta = 1).
//   "accumulation" — every warp holding D[i][j] forms A[i][k]·B[k][j]
//       (per the tile origins) exactly once for each k, starts from C[i][j]
//       (beta = 1, copied from the slot of the same thread that C's layout
//       assigns) or zero (beta = 0), and initialises the element's slot
//       before the first mma covering it, never after.  Warps that split K
//       each holding a copy of D fail here.
//   "swizzle S", "fill S", "rows X", "ldmatrix X", "stmatrix X", ... — for
//       programs that stage through shared memory: core/prove/shared_checks.h
//       (decided by enumeration, method exhaustive, under either method).
//   "stage X", "store X" — for the program's stage/store statements: every
//       warp, lane and slot of X's storage span (0 .. span(m) - 1) loads
//       (writes) exactly the element X's layout places there; a slot that
//       holds nothing, or an element outside X, refutes it.
//
// Three methods decide the same checks: z3 (symbolic warp, lane, slot,
// element and tile indices; bit-vector queries whose size does not grow
// with the tile count, after a concrete check that the nest is the
// unrolling of the dispatch's register views), z3-unrolled (the same with
// the statements unrolled into the queries: symbolic statement groups, as
// before the tile-symbolic encoding; kept as a cross-check) and exhaustive
// (concrete enumeration, no Z3).  All report the *first* violation in the
// same order (core/prove/witness.h), so their counterexamples coincide;
// only the Z3 methods can end `unknown` (their time limit).
//
//     ProofReport r = prove(load_program("examples/seed.txt"), {});
//     r.verdict == Verdict::refuted
//     r.counterexamples[0].check.name() == "stage A", .lane == 0, .slot == 2,
//     .expected == {8, 0}, .actual == {0, 8}
//     .message == "lane 0, slot 2: stage A loads A_g[0][8] but A_FRAG places A[8][0]"
//     .mismatches.size() == 128, .summary ends "(kHi and rM swapped)"
//
// With options.explain (the default), a refuted check also gets every
// mismatch and a summary (frame, staging) and a layout fix (frame,
// fragment); a failed dispatch gets ProofReport::diagnosis.
#pragma once

#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/prove/prove_options.h"
#include "core/prove/report.h"

namespace mmacheck {

// Dispatch the program's gemm and prove its nest.  Throws Error on bad input
// (the dispatch's, a stage/store on a non-local buffer or with a source of
// another shape, a layout on thread axes other than laneid, warpid and tx).
ProofReport prove(const Program& program, const ProveOptions& options);
// Prove a given plan (tests hand-edit nests); `plan` must come from
// dispatch(program) or be such an edit.
ProofReport prove(const Program& program, const Plan& plan, const ProveOptions& options);

}  // namespace mmacheck
