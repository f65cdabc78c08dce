#include "core/emit/svg.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "core/base/error.h"
#include "core/gemm/geometry.h"
#include "core/layout/owner_label.h"

namespace mmacheck {

namespace {

constexpr int kCellHeight = 18;
constexpr int kMargin = 24;     // around and between panels
constexpr int kAxisLabels = 22;  // room for row / column indices
constexpr int kTitle = 34;

std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Lanes of a warp get evenly spaced hues; light enough to read text on.
std::string lane_fill(const std::vector<Owner>& owners) {
  if (owners.empty()) return "#ffffff";
  const std::int64_t lane = owner_coord(owners.front(), Axis::laneid()) +
                            owner_coord(owners.front(), Axis::tx());
  return "hsl(" + std::to_string((lane % 32) * 360 / 32) + ", 70%, 86%)";
}

enum class Mark { found, wanted };

// One operand panel: a buffer, where the gemm sees it, and what to mark.
struct Panel {
  std::string role;  // "A", "B", "C", "D"
  const BufferDecl* buffer = nullptr;
  OperandPlace place;
  int tile_rows = 0, tile_cols = 0;  // instruction tile in logical coordinates
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<Mark, int>> marks;  // cell -> (mark, cx number)
};

int cell_width(const std::vector<std::string>& labels) {
  std::size_t widest = 3;
  for (const std::string& l : labels) widest = std::max(widest, l.size());
  return static_cast<int>(widest) * 7 + 8;
}

// A counterexample's element, in buffer coordinates of the panel it names.
void mark(std::vector<Panel>& panels, const Counterexample& cx, int number) {
  const bool staging = cx.check.rfind("stage ", 0) == 0 || cx.check.rfind("store ", 0) == 0;
  for (Panel& p : panels) {
    if (staging ? p.buffer->name != cx.operand : p.role != cx.operand) continue;
    const auto at = [&](const Element& e) -> std::optional<std::pair<std::int64_t, std::int64_t>> {
      if (e.size() != 2) return std::nullopt;
      if (staging) return std::pair{e[0], e[1]};
      const Shape c = p.place.to_buffer(e[0], e[1]);
      return std::pair{c[0], c[1]};
    };
    if (cx.expected)
      if (auto c = at(*cx.expected)) p.marks.emplace(*c, std::pair{Mark::wanted, number});
    if (cx.actual)
      if (auto c = at(*cx.actual)) p.marks[*c] = {Mark::found, number};
    return;
  }
}

void draw_panel(std::ostream& svg, const Panel& p, int x0, int y0, int cell_w,
                const std::vector<std::string>& labels, const std::vector<std::vector<Owner>>& owners) {
  const std::int64_t rows = p.buffer->shape[0], cols = p.buffer->shape[1];
  const std::string name = p.buffer->name == p.role ? p.role : p.role + " = " + p.buffer->name;
  svg << "<text x='" << x0 << "' y='" << y0 + 14 << "' class='title'>" << escape(name) << "  (" << rows << " x " << cols << " "
      << dtype_info(p.buffer->dtype).tvm << ")</text>\n";
  svg << "<text x='" << x0 << "' y='" << y0 + 28 << "' class='small'>" << escape(p.buffer->layout.str())
      << "</text>\n";
  const int gx = x0 + kAxisLabels, gy = y0 + kTitle + kAxisLabels / 2;
  for (std::int64_t c = 0; c < cols; ++c)
    svg << "<text x='" << gx + c * cell_w + cell_w / 2 << "' y='" << gy - 4
        << "' class='index' text-anchor='middle'>" << c << "</text>\n";
  for (std::int64_t r = 0; r < rows; ++r) {
    const int y = gy + static_cast<int>(r) * kCellHeight;
    svg << "<text x='" << gx - 4 << "' y='" << y + 13 << "' class='index' text-anchor='end'>" << r
        << "</text>\n";
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::size_t flat = static_cast<std::size_t>(r * cols + c);
      const int x = gx + static_cast<int>(c) * cell_w;
      svg << "<rect x='" << x << "' y='" << y << "' width='" << cell_w << "' height='" << kCellHeight
          << "' fill='" << lane_fill(owners[flat]) << "' class='cell'/>"
          << "<text x='" << x + cell_w / 2 << "' y='" << y + 13 << "' text-anchor='middle'>"
          << escape(labels[flat]) << "</text>\n";
    }
  }
  // The gemm's region and the instruction's tiles inside it, in buffer space.
  const Shape origin = p.place.to_buffer(0, 0);
  const std::int64_t r0 = origin[0], c0 = origin[1];
  const bool t = p.place.transposed();
  const std::int64_t region_rows = t ? p.place.cols() : p.place.rows();
  const std::int64_t region_cols = t ? p.place.rows() : p.place.cols();
  const int tr = t ? p.tile_cols : p.tile_rows;
  const int tc = t ? p.tile_rows : p.tile_cols;
  const int rx = gx + static_cast<int>(c0) * cell_w, ry = gy + static_cast<int>(r0) * kCellHeight;
  const int rw = static_cast<int>(region_cols) * cell_w, rh = static_cast<int>(region_rows) * kCellHeight;
  for (int r = tr; tr > 0 && r < region_rows; r += tr)
    svg << "<line x1='" << rx << "' y1='" << ry + r * kCellHeight << "' x2='" << rx + rw << "' y2='"
        << ry + r * kCellHeight << "' class='tile'/>\n";
  for (int c = tc; tc > 0 && c < region_cols; c += tc)
    svg << "<line x1='" << rx + c * cell_w << "' y1='" << ry << "' x2='" << rx + c * cell_w << "' y2='"
        << ry + rh << "' class='tile'/>\n";
  svg << "<rect x='" << rx << "' y='" << ry << "' width='" << rw << "' height='" << rh
      << "' class='region'/>\n";
  for (const auto& [cell, what] : p.marks) {
    const int x = gx + static_cast<int>(cell.second) * cell_w, y = gy + static_cast<int>(cell.first) * kCellHeight;
    svg << "<rect x='" << x << "' y='" << y << "' width='" << cell_w << "' height='" << kCellHeight
        << "' class='" << (what.first == Mark::found ? "found" : "wanted") << "'/>"
        << "<text x='" << x + cell_w - 2 << "' y='" << y + 7 << "' class='badge' text-anchor='end'>"
        << what.second << "</text>\n";
  }
}

}  // namespace

std::string draw_svg(const Program& program, const ProofReport& report) {
  const GemmGeometry geometry = gemm_geometry(program);
  const GemmCall& call = *program.gemm;
  const MmaInst* inst = report.inst;
  std::vector<Panel> panels;
  const auto add = [&](const char* role, const OperandRef& ref, const OperandPlace& place, int tr, int tc) {
    const BufferDecl& buffer = program.buffer(ref.buffer, ref.loc);
    if (buffer.shape.size() != 2)
      throw Error(buffer.loc, "draw: buffer '" + buffer.name + "' is not 2-D; only 2-D buffers are drawn");
    panels.push_back(Panel{role, &buffer, place, tr, tc, {}});
  };
  add("A", call.a, geometry.a, inst ? inst->m : 0, inst ? inst->k : 0);
  add("B", call.b, geometry.b, inst ? inst->k : 0, inst ? inst->n : 0);
  if (call.c.buffer != call.d.buffer && call.beta != 0.0)
    add("C", call.c, geometry.c, inst ? inst->m : 0, inst ? inst->n : 0);
  add("D", call.d, geometry.d, inst ? inst->m : 0, inst ? inst->n : 0);
  for (std::size_t i = 0; i < report.counterexamples.size(); ++i)
    mark(panels, report.counterexamples[i], static_cast<int>(i + 1));

  // Lay the panels out left to right; the legend goes below.
  std::ostringstream body;
  int x = kMargin, height = 0;
  for (const Panel& p : panels) {
    const Shape& shape = p.buffer->shape;
    std::vector<std::vector<Owner>> owners;
    std::vector<std::string> labels;
    for (std::int64_t r = 0; r < shape[0]; ++r)
      for (std::int64_t c = 0; c < shape[1]; ++c) {
        const std::int64_t coord[] = {r, c};
        owners.push_back(p.buffer->layout.apply(coord, shape));
        labels.push_back(owner_label(owners.back()));
      }
    const int cell_w = cell_width(labels);
    draw_panel(body, p, x, kMargin, cell_w, labels, owners);
    x += kAxisLabels + static_cast<int>(shape[1]) * cell_w + kMargin;
    height = std::max(height, kTitle + kAxisLabels + static_cast<int>(shape[0]) * kCellHeight);
  }

  std::vector<std::string> legend;
  legend.push_back(program.file + ": " + std::string(verdict_name(report.verdict)) +
                   (inst ? "  " + inst->ptx() + ", " + std::to_string(report.mma_count) + " mma" : ""));
  for (const std::string& reason : report.reasons) legend.push_back("  " + reason);
  for (std::size_t i = 0; i < report.counterexamples.size(); ++i)
    legend.push_back("  [" + std::to_string(i + 1) + "] " + report.counterexamples[i].check + ": " +
                     report.counterexamples[i].message);
  if (!report.counterexamples.empty())
    legend.push_back("  red: the element found there, green: where it belongs");
  int y = kMargin + height + kMargin;
  for (const std::string& line : legend) {
    body << "<text x='" << kMargin << "' y='" << y << "' class='legend'>" << escape(line) << "</text>\n";
    y += 16;
  }
  std::size_t widest = 0;
  for (const std::string& line : legend) widest = std::max(widest, line.size());
  const int width = std::max(x, kMargin * 2 + static_cast<int>(widest) * 7);

  std::ostringstream svg;
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << y + kMargin
      << "' font-family='monospace' font-size='10'>\n"
      << "<style>.title{font-size:13px;font-weight:bold}.small{font-size:10px;fill:#555}"
         ".index{font-size:9px;fill:#777}.legend{font-size:12px}.cell{stroke:#fff;stroke-width:1}"
         ".tile{stroke:#333;stroke-width:1.5}.region{fill:none;stroke:#000;stroke-width:2.5}"
         ".found{fill:none;stroke:#d00;stroke-width:3}.wanted{fill:none;stroke:#080;stroke-width:3}"
         ".badge{font-size:8px;font-weight:bold}</style>\n"
      << "<rect width='100%' height='100%' fill='#fff'/>\n"
      << body.str() << "</svg>\n";
  return svg.str();
}

}  // namespace mmacheck
