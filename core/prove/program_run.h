// ProgramRun — the program as executed, in the provenance domain: the
// whole-program check behind every "proved" of a Program (docs/soundness.md).
//
// run_program() executes the program's statements in the order they run
// (program_order: as written for TVMScript and the released TIRx, the
// declared order for layout files), thread by thread, slot by slot.  Every
// value is a provenance, not a number:
//
//   an input element      G[r][c] as the program loaded it (a global tensor
//                         starts as its own elements);
//   a constant            an accumulator the gemm zeroed or set to its scalar C,
//                         or a register a statement set to a constant;
//   a sum                 a base (a constant, or one C element) plus products
//                         X[.]·Y[.], one per pair of registers an mma's PTX
//                         frames multiply (run-length compressed: a K loop
//                         is one run per output element);
//   nothing               a register or element nothing wrote.
//
// A stage loads G's elements into a register buffer; a store writes a
// buffer's registers into G; the gemm runs its nest (the dispatch's, or the
// released TIRx's T.ptx.mma calls) through the instruction's frames; a
// shared-memory path (fill, ldmatrix, ...) delivers what its tables say at
// its first copy (loads) or its drain (stores); an operand the program
// never moves is moved by its layout at the gemm (the layout file's
// "staging not checked" case).
//
// The property ("program"): the program writes one tensor, the output, and
// for every logical (i, j) of the gemm's D region it holds exactly
// Σ_k X[a(i, k)]·Y[b(k, j)] + Z[c(i, j)] when beta = 1, + the scalar C
// (GemmCall::c_scalar, bit for bit; 0 for D = A·B) when beta = 0, each k once and
// nothing else, where a, b, c place the gemm's logical operands in their
// buffers (regions, transposes; core/gemm/geometry.h) and X, Y, Z are three
// distinct input tensors, none of them the output.  Any consistent order of
// K or of tiles proves; the counterexample of a refutation names the output
// element, the statement that wrote it (lane, slot), and what is missing,
// doubled or foreign — or the statement that read or wrote out of bounds,
// or two threads storing different values to one element in one statement.
//
//     ProgramRun r = run_program(program, dispatch(program));
//     r.result == CheckResult::refuted  // the store runs before the gemm
//     r.counterexample->message == "D_g[0][0] holds nothing: store d -> D_g (line 30), lane 0, slot 0,
//                                   stores a register nothing wrote (the gemm (line 34) runs after it)"
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/prove/report.h"

namespace mmacheck {

struct ProgramRun {
  CheckResult result = CheckResult::unknown;
  std::optional<Counterexample> counterexample;  // when refuted
  // What the run covered ("7 statements; D_g's 128 elements, each Σ_k of 16 products"),
  // or why it could not decide (result unknown).
  std::string note;
};

// `plan` must be dispatch(program)'s (ok).  Everything the program does
// wrong is a refutation; what the run cannot execute (a layout that places
// two elements in one register, which the fragment checks refute) or a
// `deadline` that passes is `unknown`, with the reason in `note`.
ProgramRun run_program(const Program& program, const Plan& plan,
                       std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

}  // namespace mmacheck
