// draw_ptx_svg — a picture of who stored D in one launch of a PTX kernel,
// for people: the element grid of D that one CTA wrote (rows and columns
// of D, as the launch names them), each cell labelled with the thread that
// stored it (`W1.T5` = warp 1, lane 5 of that CTA), tinted by lane, its
// tooltip naming the thread, the CTA and the store's PTX line.  Cells
// another CTA wrote are grey, cells nothing wrote are blank.  The element a
// refutation is about is outlined red and the legend gives the verdict at
// its line; --lane outlines one lane's cells in blue.  A CTA's part larger
// than kMaxPtxCells is drawn in part (around the finding's element), and the
// title says which part.
//
//     std::vector<ptx::DWrite> writes;
//     const ptx::PtxReport r = ptx::check_ptx_launch(module, launch, {}, &writes);
//     write_file_atomic("d.svg", draw_ptx_svg(r, writes, {}));
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/emit/svg.h"
#include "core/ptx/ptx_check.h"

namespace mmacheck {

struct PtxDrawOptions {
  std::optional<std::array<int, 3>> cta;  // the CTA whose part of D is drawn (default: the finding's, else 0,0,0)
  std::optional<int> lane;                // outline this lane's cells (every warp's)
  std::string where;                      // the finding's place as the caller words it (default: its PTX line)
};

inline constexpr std::int64_t kMaxPtxCells = 128 * 128;

// `writes`: D's writers, row-major over report.m x report.n, as
// check_ptx_launch gives them.  Throws Error when --cta names a CTA outside
// the grid or `writes` does not match the report.
std::string draw_ptx_svg(const ptx::PtxReport& report, const std::vector<ptx::DWrite>& writes,
                         const PtxDrawOptions& options, DrawSummary* summary = nullptr);

}  // namespace mmacheck
