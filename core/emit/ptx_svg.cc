#include "core/emit/ptx_svg.h"

#include <algorithm>
#include <sstream>

#include "core/base/error.h"
#include "core/emit/svg_style.h"

namespace mmacheck {

namespace {

constexpr int kRowLabels = 34;  // row indices up to five digits

constexpr std::int64_t kMaxSide = 128;  // rows, and columns, drawn at most

std::string cta_text(const std::array<int, 3>& d) {
  return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + "]";
}

std::array<int, 3> cta_of(std::int64_t linear, const std::array<int, 3>& grid) {
  return {static_cast<int>(linear % grid[0]), static_cast<int>((linear / grid[0]) % grid[1]),
          static_cast<int>(linear / (std::int64_t{grid[0]} * grid[1]))};
}

// [first, first + side) of [lo, hi] holding `keep` where it can (-1:
// nothing to keep), at most kMaxSide long.
std::pair<std::int64_t, std::int64_t> drawn_range(std::int64_t lo, std::int64_t hi, std::int64_t keep) {
  if (hi - lo + 1 <= kMaxSide) return {lo, hi + 1};
  std::int64_t first = lo;
  if (keep >= lo && keep <= hi) first = std::clamp(keep - kMaxSide / 2, lo, hi + 1 - kMaxSide);
  return {first, first + kMaxSide};
}

}  // namespace

std::string draw_ptx_svg(const ptx::PtxReport& report, const std::vector<ptx::DWrite>& writes,
                         const PtxDrawOptions& options, DrawSummary* summary) {
  const std::int64_t m = report.m, n = report.n;
  if (m <= 0 || n <= 0 || static_cast<std::int64_t>(writes.size()) != m * n)
    throw Error("draw: the run's record of D does not match D's shape (" + std::to_string(m) + " x " +
                std::to_string(n) + ")");
  const std::array<int, 3>& grid = report.shape.grid;
  std::array<int, 3> cta{0, 0, 0};
  if (options.cta) {
    cta = *options.cta;
    for (int d = 0; d < 3; ++d)
      if (cta[static_cast<std::size_t>(d)] < 0 || cta[static_cast<std::size_t>(d)] >= grid[static_cast<std::size_t>(d)])
        throw Error("draw: --cta " + cta_text(cta) + " is outside the grid " + cta_text(grid));
  } else if (report.finding) {
    cta = report.finding->cta;
  }
  const std::int64_t linear = cta[0] + std::int64_t{grid[0]} * (cta[1] + std::int64_t{grid[1]} * cta[2]);
  const auto at = [&](std::int64_t i, std::int64_t j) -> const ptx::DWrite& {
    return writes[static_cast<std::size_t>(i * n + j)];
  };

  // The CTA's part of D: the box of what it wrote, and the finding's element.
  std::int64_t r0 = m, r1 = -1, c0 = n, c1 = -1;
  const auto include = [&](std::int64_t i, std::int64_t j) {
    r0 = std::min(r0, i), r1 = std::max(r1, i), c0 = std::min(c0, j), c1 = std::max(c1, j);
  };
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      if (at(i, j).inst >= 0 && at(i, j).cta == linear) include(i, j);
  const bool element_here = report.element && (!options.cta || r1 < 0 ||
                                               ((*report.element)[0] >= r0 && (*report.element)[0] <= r1 &&
                                                (*report.element)[1] >= c0 && (*report.element)[1] <= c1));
  if (report.element && element_here) include((*report.element)[0], (*report.element)[1]);
  if (r1 < 0) include(0, 0);
  const std::int64_t keep_r = report.element ? (*report.element)[0] : -1;
  const std::int64_t keep_c = report.element ? (*report.element)[1] : -1;
  const auto [row0, row1] = drawn_range(r0, r1, keep_r);
  const auto [col0, col1] = drawn_range(c0, c1, keep_c);

  const int cw = svg_text_width("W31.T31", kSvgCharCell);
  const std::string title = "D of " + report.kernel + ", CTA " + cta_text(cta) + " of grid " + cta_text(grid) +
                            ": rows " + std::to_string(row0) + ".." + std::to_string(row1 - 1) + ", columns " +
                            std::to_string(col0) + ".." + std::to_string(col1 - 1) +
                            (row1 - row0 < r1 - r0 + 1 || col1 - col0 < c1 - c0 + 1
                                 ? " (of its rows " + std::to_string(r0) + ".." + std::to_string(r1) + ", columns " +
                                       std::to_string(c0) + ".." + std::to_string(c1) + ")"
                                 : std::string());
  const std::string subtitle =
      "each cell: the thread of this CTA that stored it (W warp . T lane), tinted by lane; grey: another CTA's; "
      "blank: never written";
  std::vector<std::string> legend{std::string(verdict_name(report.verdict)) + ": " + report.message};
  if (report.finding && report.finding->loc.line > 0)
    legend.push_back(
        "at " +
        (options.where.empty() ? report.finding->loc.file + ":" + std::to_string(report.finding->loc.line) + ":" +
                                     std::to_string(report.finding->loc.col)
                               : options.where) +
        ", CTA " + cta_text(report.finding->cta) + ", thread " + std::to_string(report.finding->thread) + " (warp " +
        std::to_string(report.finding->thread / 32) + ", lane " + std::to_string(report.finding->thread % 32) + ")");
  if (report.element)
    legend.push_back(element_here ? "red: D[" + std::to_string((*report.element)[0]) + "][" +
                                        std::to_string((*report.element)[1]) + "], the element the verdict is about"
                                  : "the verdict's element, D[" + std::to_string((*report.element)[0]) + "][" +
                                        std::to_string((*report.element)[1]) + "], is outside this CTA's part");
  if (options.lane) legend.push_back("blue: the cells lane " + std::to_string(*options.lane) + " stored");

  const int gx = kSvgMargin + kRowLabels, gy = kSvgMargin + kSvgHeader;
  const auto rows = static_cast<int>(row1 - row0), cols = static_cast<int>(col1 - col0);
  std::ostringstream body;
  body << "<text x='" << kSvgMargin << "' y='" << kSvgMargin + 14 << "' class='title'>" << svg_escape(title)
       << "</text>\n";
  body << "<text x='" << kSvgMargin << "' y='" << kSvgMargin + 28 << "' class='small'>" << svg_escape(subtitle)
       << "</text>\n";
  for (std::int64_t c = col0; c < col1; ++c)
    body << "<text x='" << gx + (c - col0) * cw + cw / 2 << "' y='" << gy - 4 << "' class='index' text-anchor='middle'>"
         << c << "</text>\n";
  int marked = 0;
  for (std::int64_t r = row0; r < row1; ++r) {
    const int y = gy + static_cast<int>(r - row0) * kSvgCellHeight;
    body << "<text x='" << gx - 4 << "' y='" << y + 13 << "' class='index' text-anchor='end'>" << r << "</text>\n";
    for (std::int64_t c = col0; c < col1; ++c) {
      const ptx::DWrite& w = at(r, c);
      const int x = gx + static_cast<int>(c - col0) * cw;
      std::string tip = "D[" + std::to_string(r) + "][" + std::to_string(c) + "]: ";
      std::string label, fill = "#ffffff";
      if (w.inst < 0) {
        tip += "never written";
      } else {
        tip += "thread " + std::to_string(w.thread) + " (warp " + std::to_string(w.thread / 32) + ", lane " +
               std::to_string(w.thread % 32) + ") of CTA " + cta_text(cta_of(w.cta, grid)) + ", the store at line " +
               std::to_string(w.line);
        if (w.cta == linear) {
          label = "W" + std::to_string(w.thread / 32) + ".T" + std::to_string(w.thread % 32);
          fill = lane_tint(w.thread % 32);
        } else {
          fill = "#d9d9d9";
        }
      }
      const bool red = element_here && report.element && (*report.element)[0] == r && (*report.element)[1] == c;
      if (red) tip += "; red: " + report.message;
      body << "<g><title>" << svg_escape(tip) << "</title><rect x='" << x << "' y='" << y << "' width='" << cw
           << "' height='" << kSvgCellHeight << "' fill='" << fill << "' class='cell'/><text x='" << x + cw / 2
           << "' y='" << y + 13 << "' text-anchor='middle'>" << label << "</text></g>\n";
      if (options.lane && w.inst >= 0 && w.cta == linear && w.thread % 32 == *options.lane)
        body << "<rect x='" << x + 1 << "' y='" << y + 1 << "' width='" << cw - 2 << "' height='" << kSvgCellHeight - 2
             << "' class='lane'/>\n";
      if (red) {
        body << "<rect x='" << x << "' y='" << y << "' width='" << cw << "' height='" << kSvgCellHeight
             << "' class='found'/>\n";
        ++marked;
      }
    }
  }
  body << "<rect x='" << gx << "' y='" << gy << "' width='" << cols * cw << "' height='" << rows * kSvgCellHeight
       << "' class='region'/>\n";
  int width = std::max({gx + cols * cw + kSvgMargin, kSvgMargin * 2 + svg_text_width(title, kSvgCharTitle),
                        kSvgMargin * 2 + svg_text_width(subtitle, kSvgCharSmall)});
  int y = gy + rows * kSvgCellHeight + kSvgMargin + 12;
  for (const std::string& line : legend) {
    body << "<text x='" << kSvgMargin << "' y='" << y << "' class='legend'>" << svg_escape(line) << "</text>\n";
    y += 16;
    width = std::max(width, kSvgMargin * 2 + svg_text_width(line, kSvgCharLegend));
  }
  const int height = y + kSvgMargin;
  if (summary) {
    summary->panels = {"D"};
    summary->cells = rows * cols;
    summary->marked = marked;
  }
  return svg_document(width, height, "", body.str());
}

}  // namespace mmacheck
