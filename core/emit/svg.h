// draw_svg — a picture of a program's gemm fragments, for people.
//
// Every operand buffer of the gemm call (A, B, D, and C when it is another
// buffer) is drawn as a grid of its elements.  A cell shows the element's
// owners (core/layout/owner_label.h: `T5:3` = lane 5, register slot 3) and is tinted
// by lane, so a fragment's lane pattern is visible at a glance; the gemm's
// region is outlined and the instruction's tiles are ruled inside it.
// Cells a counterexample names are highlighted — red where the check found
// the element, green where it should be — and numbered; the legend below
// lists the verdict, the instruction and each counterexample in words (or
// the dispatch's reasons when it failed).
//
//     const ProofReport r = prove(program, {});
//     write_file_atomic("seed.svg", draw_svg(program, r));
#pragma once

#include <string>

#include "core/program/program.h"
#include "core/prove/prove.h"

namespace mmacheck {

// Throws Error when the program has no gemm call or an operand is not 2-D.
std::string draw_svg(const Program& program, const ProofReport& report);

}  // namespace mmacheck
