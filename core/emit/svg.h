// draw_svg — a picture of a program's gemm fragments, for people.
//
// The gemm is laid out as engineers read it: A left of D (their rows, M,
// aligned), B above D (their columns, N, aligned), so A's K runs towards D
// horizontally and B's K vertically; C, when it is another buffer, right of
// D.  Each operand is drawn in the gemm's orientation (a transposed or
// region operand says so in its title), one cell per element, all cells
// one size.  A cell shows the element's owners (core/layout/owner_label.h:
// `T5:3` = lane 5, register slot 3; `W1.T5:3` = warp 1; a replicated
// element its first owner and the count, `W0.T5:3 ×4`, so that a layout
// over four warps draws no wider than one), is tinted by lane and carries a
// `<title>` tooltip naming every owner; instruction tiles are ruled.
//
// Marked cells, for every mismatch of every refuted check (not only the
// first) and for a declined file's diagnosis (its first instruction):
// red outline = the element found there, green inset = the element that
// belongs there (what that means per check is in the legend); a numbered
// badge ties the first cell of each finding to its legend line.  Optional:
// one lane's elements outlined in blue across the operands, one operand
// only, one mma tile only (a part of a large tiling).  The picture scales
// through its viewBox; titles are measured so that no label runs into a
// neighbour.
//
//     const ProofReport r = prove(program, {});
//     write_file_atomic("seed.svg", draw_svg(program, r, {}));
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/program/program.h"
#include "core/prove/prove.h"

namespace mmacheck {

struct DrawOptions {
  std::optional<int> lane;               // outline this lane's elements
  std::optional<std::string> operand;    // "A", "B", "C" or "D": only this panel
  std::optional<std::vector<int>> tile;  // (m, n, k) tile indices: only that mma's cells
};

// What a picture shows, for `draw --json`.
struct DrawSummary {
  std::vector<std::string> panels;  // "A", "B", "D", ...
  int cells = 0;                    // cells drawn
  int marked = 0;                   // cells outlined red or green
};

// Throws Error when the program has no gemm call, an operand is not 2-D,
// or an option names no operand / a tile outside the gemm.
std::string draw_svg(const Program& program, const ProofReport& report, const DrawOptions& options = {},
                     DrawSummary* summary = nullptr);

}  // namespace mmacheck
