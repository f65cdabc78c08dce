#include "core/emit/svg.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "core/base/error.h"
#include "core/emit/svg_style.h"
#include "core/gemm/geometry.h"
#include "core/layout/owner_label.h"

namespace mmacheck {

namespace {

constexpr int kAxisLabels = 22;  // room for row indices left of a grid

std::int64_t lane_of(const Owner& o) { return owner_coord(o, Axis::laneid()) + owner_coord(o, Axis::tx()) % 32; }

std::string lane_fill(const std::vector<Owner>& owners) {
  return owners.empty() ? "#ffffff" : lane_tint(lane_of(owners.front()));
}

using Cell = std::pair<std::int64_t, std::int64_t>;  // logical (row, col) of the operand

struct Panel {
  std::string role;  // "A", "B", "C", "D"
  const BufferDecl* buffer = nullptr;
  OperandPlace place;
  int tile_rows = 0, tile_cols = 0;             // instruction tile, logical
  std::int64_t r0 = 0, r1 = 0, c0 = 0, c1 = 0;  // logical range drawn
  std::map<Cell, int> found, wanted;            // cell -> badge number (0: none)
  std::vector<std::vector<Owner>> owners;       // per drawn cell, row-major
  std::vector<std::string> labels;              // every owner (owner_label), as the tooltip and the findings read them
  std::string title, subtitle;
  bool lanes_wrong = false, doubled = false;  // a declined file's findings: mark every such cell
  int gx = 0, gy = 0;                         // grid origin

  std::int64_t rows() const { return r1 - r0; }
  std::int64_t cols() const { return c1 - c0; }
  bool drawn(const Cell& c) const { return c.first >= r0 && c.first < r1 && c.second >= c0 && c.second < c1; }
  std::vector<std::string> shown = {};  // what each cell says: a replicated element's first owner and "\u00d7N"
};

std::string region_text(const OperandRef& ref) {
  if (!ref.region) return "";
  std::string s = "[";
  for (std::size_t i = 0; i < ref.region->size(); ++i)
    s += (i ? ", " : "") + std::to_string((*ref.region)[i].first) + ":" + std::to_string((*ref.region)[i].second);
  return s + "]";
}

Panel* panel_for(std::vector<Panel>& panels, const std::string& role_or_buffer, bool by_buffer) {
  for (Panel& p : panels)
    if (by_buffer ? p.buffer->name == role_or_buffer : p.role == role_or_buffer) return &p;
  if (!by_buffer && role_or_buffer == "C") return panel_for(panels, "D", false);  // C is D's registers
  return nullptr;
}

// Outline `actual` red and `expected` green in the panel (coordinates
// logical, or of the buffer for staging checks).
void mark(Panel& p, const std::optional<Element>& expected, const std::optional<Element>& actual, bool buffer_coords,
          int badge) {
  const auto cell = [&](const Element& e) -> std::optional<Cell> {
    if (e.size() != 2) return std::nullopt;
    if (!buffer_coords) return Cell{e[0], e[1]};
    const auto logical = p.place.from_buffer(e);
    if (!logical) return std::nullopt;
    return Cell{(*logical)[0], (*logical)[1]};
  };
  const auto put = [&](std::map<Cell, int>& cells, const Cell& c) {
    int& number = cells[c];
    if (!number) number = badge;
  };
  if (actual)
    if (auto c = cell(*actual)) put(p.found, *c);
  if (expected)
    if (auto c = cell(*expected)) put(p.wanted, *c);
}

void draw_panel(std::ostream& svg, const Panel& p, int cw, const DrawOptions& options) {
  const int tx = p.gx - kAxisLabels;
  svg << "<text x='" << (p.role == "A" ? kSvgMargin : tx) << "' y='" << p.gy - kSvgHeader + 14 << "' class='title'>"
      << svg_escape(p.title) << "</text>\n";
  svg << "<text x='" << (p.role == "A" ? kSvgMargin : tx) << "' y='" << p.gy - kSvgHeader + 28 << "' class='small'>"
      << svg_escape(p.subtitle) << "</text>\n";
  for (std::int64_t c = p.c0; c < p.c1; ++c)
    svg << "<text x='" << p.gx + (c - p.c0) * cw + cw / 2 << "' y='" << p.gy - 4
        << "' class='index' text-anchor='middle'>" << c << "</text>\n";
  for (std::int64_t r = p.r0; r < p.r1; ++r) {
    const int y = p.gy + static_cast<int>(r - p.r0) * kSvgCellHeight;
    svg << "<text x='" << p.gx - 4 << "' y='" << y + 13 << "' class='index' text-anchor='end'>" << r << "</text>\n";
    for (std::int64_t c = p.c0; c < p.c1; ++c) {
      const std::size_t at = static_cast<std::size_t>((r - p.r0) * p.cols() + (c - p.c0));
      const int x = p.gx + static_cast<int>(c - p.c0) * cw;
      const Shape b = p.place.to_buffer(r, c);
      std::string tip = p.role + "[" + std::to_string(r) + "][" + std::to_string(c) + "]";
      if (p.buffer->name != p.role || p.place.transposed() || !p.place.origin().empty()) {
        std::string bs;
        for (std::int64_t v : b) bs += "[" + std::to_string(v) + "]";
        if (bs != tip.substr(1)) tip += " = " + p.buffer->name + bs;
      }
      tip += ": " + p.labels[at];
      if (!p.owners[at].empty()) {
        const Owner& o = p.owners[at].front();
        tip += " (lane " + std::to_string(lane_of(o)) + ", slot " + std::to_string(owner_coord(o, Axis::m())) + ")";
      }
      if (p.found.count({r, c})) tip += "; red: found where it does not belong";
      if (p.wanted.count({r, c})) tip += "; green: belongs where something else is";
      svg << "<g><title>" << svg_escape(tip) << "</title><rect x='" << x << "' y='" << y << "' width='" << cw
          << "' height='" << kSvgCellHeight << "' fill='" << lane_fill(p.owners[at]) << "' class='cell'/>"
          << "<text x='" << x + cw / 2 << "' y='" << y + 13 << "' text-anchor='middle'>" << svg_escape(p.shown[at])
          << "</text></g>\n";
      if (options.lane && !p.owners[at].empty() && lane_of(p.owners[at].front()) == *options.lane)
        svg << "<rect x='" << x + 1 << "' y='" << y + 1 << "' width='" << cw - 2 << "' height='" << kSvgCellHeight - 2
            << "' class='lane'/>\n";
    }
  }
  // Instruction tiles and the drawn range's frame.
  const int w = static_cast<int>(p.cols()) * cw, h = static_cast<int>(p.rows()) * kSvgCellHeight;
  for (std::int64_t r = p.r0 + 1; p.tile_rows > 0 && r < p.r1; ++r)
    if (r % p.tile_rows == 0)
      svg << "<line x1='" << p.gx << "' y1='" << p.gy + (r - p.r0) * kSvgCellHeight << "' x2='" << p.gx + w << "' y2='"
          << p.gy + (r - p.r0) * kSvgCellHeight << "' class='tile'/>\n";
  for (std::int64_t c = p.c0 + 1; p.tile_cols > 0 && c < p.c1; ++c)
    if (c % p.tile_cols == 0)
      svg << "<line x1='" << p.gx + (c - p.c0) * cw << "' y1='" << p.gy << "' x2='" << p.gx + (c - p.c0) * cw
          << "' y2='" << p.gy + h << "' class='tile'/>\n";
  svg << "<rect x='" << p.gx << "' y='" << p.gy << "' width='" << w << "' height='" << h << "' class='region'/>\n";
  const auto outline = [&](const std::map<Cell, int>& cells, const char* cls, int inset) {
    for (const auto& [cell, badge] : cells) {
      if (!p.drawn(cell)) continue;
      const int x = p.gx + static_cast<int>(cell.second - p.c0) * cw,
                y = p.gy + static_cast<int>(cell.first - p.r0) * kSvgCellHeight;
      svg << "<rect x='" << x + inset << "' y='" << y + inset << "' width='" << cw - 2 * inset << "' height='"
          << kSvgCellHeight - 2 * inset << "' class='" << cls << "'/>";
      if (badge)
        svg << "<text x='" << x + cw - 2 << "' y='" << y + 7 << "' class='badge' text-anchor='end'>" << badge
            << "</text>";
      svg << "\n";
    }
  };
  outline(p.found, "found", 0);
  outline(p.wanted, "wanted", 3);
}

}  // namespace

std::string draw_svg(const Program& program, const ProofReport& report, const DrawOptions& options,
                     DrawSummary* summary) {
  const GemmGeometry geometry = gemm_geometry(program);
  const GemmCall& call = *program.gemm;
  const MmaInst* inst = report.inst;
  std::vector<Panel> panels;
  const auto add = [&](const char* role, const OperandRef& ref, const OperandPlace& place, int tr, int tc, int ti,
                       int tj) {
    const BufferDecl& buffer = program.buffer(ref.buffer, ref.loc);
    Panel p{role, &buffer, place, tr, tc, 0, place.rows(), 0, place.cols(), {}, {}, {}, {}, {}, {}, 0, 0};
    if (options.tile) {
      if (!inst) throw Error("draw: --tile needs a dispatched program; this one was declined");
      p.r0 = std::int64_t{ti} * tr;
      p.c0 = std::int64_t{tj} * tc;
      p.r1 = p.r0 + tr;
      p.c1 = p.c0 + tc;
      if (ti < 0 || tj < 0 || p.r1 > place.rows() || p.c1 > place.cols())
        throw Error("draw: --tile " + std::to_string((*options.tile)[0]) + "," + std::to_string((*options.tile)[1]) +
                    "," + std::to_string((*options.tile)[2]) + " is outside the gemm's tiles");
    }
    p.title = std::string(role) + (buffer.name == role ? "" : " = " + buffer.name) + region_text(ref) +
              (place.transposed() ? " transposed" : "") + "  (" + std::to_string(place.rows()) + " x " +
              std::to_string(place.cols()) + " " + std::string(dtype_info(buffer.dtype).tvm) + ")";
    p.subtitle = buffer.layout.str();
    panels.push_back(std::move(p));
  };
  const std::vector<int> t = options.tile.value_or(std::vector<int>{0, 0, 0});
  if (t.size() != 3) throw Error("draw: --tile takes three tile indices M,N,K");
  add("A", call.a, geometry.a, inst ? inst->m : 0, inst ? inst->k : 0, t[0], t[2]);
  add("B", call.b, geometry.b, inst ? inst->k : 0, inst ? inst->n : 0, t[2], t[1]);
  if (call.c.buffer != call.d.buffer && call.beta != 0.0)
    add("C", call.c, geometry.c, inst ? inst->m : 0, inst ? inst->n : 0, t[0], t[1]);
  add("D", call.d, geometry.d, inst ? inst->m : 0, inst ? inst->n : 0, t[0], t[1]);

  // Marks: every mismatch of every counterexample, then the diagnosis.
  std::vector<std::string> legend;
  std::set<std::string> kinds;
  legend.push_back(program.file + ": " + std::string(verdict_name(report.verdict)) +
                   (inst ? "  " + inst->ptx() + ", " + std::to_string(report.mma_count) + " mma" : ""));
  for (const std::string& reason : report.reasons) legend.push_back("  " + reason);
  int badge = 0;
  for (const Counterexample& cx : report.counterexamples) {
    const bool staging = is_staging(cx.check.kind);
    Panel* p = panel_for(panels, cx.operand, staging);
    legend.push_back("  [" + std::to_string(++badge) + "] " + cx.check.name() + ": " + cx.message);
    if (!cx.summary.empty()) legend.push_back("      " + cx.summary);
    if (cx.fix)
      legend.push_back(staging ? "      or, if the " + std::string(check_kind_name(cx.check.kind)) +
                                     " is what was meant, fix the layout: " + *cx.fix
                               : "      fix: " + *cx.fix);
    kinds.insert(staging                             ? std::string(check_kind_name(cx.check.kind))
                 : cx.check.kind == CheckKind::frame ? "frame"
                                                     : "layout");
    if (!p) continue;
    mark(*p, cx.expected, cx.actual, staging, badge);
    for (const Mismatch& m : cx.mismatches) mark(*p, m.expected, m.actual, staging, 0);
  }
  const std::string first_inst = report.diagnosis.empty() ? "" : report.diagnosis.front().instruction;
  for (const Diagnosis& d : report.diagnosis) {
    if (d.property == DiagnosisProperty::fits || !d.counterexample) {
      legend.push_back("  " + d.message);
      continue;
    }
    if (d.instruction != first_inst) continue;  // one instruction's findings are enough to draw
    legend.push_back("  [" + std::to_string(++badge) + "] as " + d.instruction + ": " + d.operand + ": " + d.message);
    if (d.fix) legend.push_back("      fix: " + d.fix_line + "  (" + d.fix_reason + ")");
    kinds.insert("layout");
    if (Panel* p = panel_for(panels, d.operand, false)) {
      const Counterexample& cx = *d.counterexample;
      p->lanes_wrong = p->lanes_wrong || d.property == DiagnosisProperty::lane_range;
      p->doubled = p->doubled || d.property == DiagnosisProperty::injectivity;
      if (d.property == DiagnosisProperty::injectivity) mark(*p, std::nullopt, cx.expected, false, 0);
      mark(*p, d.property == DiagnosisProperty::frame ? cx.expected : std::nullopt, cx.actual, false, badge);
    }
  }
  legend.push_back(
      "cells: T5:3 = lane 5 (laneid), register slot 3 (m); W1.T5:3 = warp 1, lane 5; tint = lane; "
      "thick lines = mma tiles; black frame = the gemm's operand; W0.T5:3 \u00d74 = held by 4 owners (replicas), "
      "the first shown, every one in the cell's tooltip");
  if (kinds.count("stage"))
    legend.push_back(
        "stage checks: red = the element the staging loads into a slot, green = the element the layout puts in that slot");
  if (kinds.count("store"))
    legend.push_back(
        "store checks: red = the element a slot is written to, green = the element the layout keeps in that slot");
  if (kinds.count("frame"))
    legend.push_back("frame checks: red = the element a register holds, green = the element the PTX frame needs there");
  if (kinds.count("layout"))
    legend.push_back(
        "layout findings: red = an element at a lane that does not exist, sharing its slot, or where the "
        "frame needs another; green = the element the frame needs there");
  if (options.lane) legend.push_back("blue: the elements lane " + std::to_string(*options.lane) + " holds");

  if (options.operand) {
    const auto keep =
        std::find_if(panels.begin(), panels.end(), [&](const Panel& p) { return p.role == *options.operand; });
    if (keep == panels.end())
      throw Error("draw: --operand " + *options.operand + ": the gemm has no such operand panel (A, B, C, D)");
    Panel only = std::move(*keep);
    panels.clear();
    panels.push_back(std::move(only));
  }

  // One cell width for all panels, so that B's columns sit over D's.
  int cw = 3 * kSvgCharCell + 8;
  for (Panel& p : panels) {
    for (std::int64_t r = p.r0; r < p.r1; ++r)
      for (std::int64_t c = p.c0; c < p.c1; ++c) {
        const Shape b = p.place.to_buffer(r, c);
        p.owners.push_back(p.buffer->layout.apply(b, p.buffer->shape));
        p.labels.push_back(owner_label(p.owners.back()));
        // A replicated element names its first owner and the count, so that a
        // layout over four warps draws cells as narrow as one warp's.
        const std::size_t n = p.owners.back().size();
        const std::vector<Owner> first(p.owners.back().begin(), p.owners.back().begin() + 1);
        p.shown.push_back(n > 1 ? owner_label(first) + " \u00d7" + std::to_string(n) : p.labels.back());
        cw = std::max(cw, svg_text_width(p.shown.back(), kSvgCharCell) + 4);
      }
  }
  // Every element at a lane the warp does not have, every element sharing
  // its (thread, slot) with another: not only the first.
  for (Panel& p : panels) {
    std::map<std::string, int> seen;
    for (const std::string& l : p.labels) ++seen[l];
    for (std::size_t at = 0; at < p.labels.size(); ++at) {
      const Cell cell{p.r0 + static_cast<std::int64_t>(at) / p.cols(), p.c0 + static_cast<std::int64_t>(at) % p.cols()};
      const Owner& o = p.owners[at].front();
      const std::int64_t lane = owner_coord(o, Axis::laneid()), tx = owner_coord(o, Axis::tx());
      const bool bad_lane = lane < 0 || lane >= 32 || tx < 0 || tx >= program.scope.threads;
      if ((p.lanes_wrong && bad_lane) || (p.doubled && seen[p.labels[at]] > 1)) p.found.emplace(cell, 0);
    }
  }
  const auto width_of = [&](const Panel& p) {
    return std::max({kAxisLabels + static_cast<int>(p.cols()) * cw, svg_text_width(p.title, kSvgCharTitle),
                     svg_text_width(p.subtitle, kSvgCharSmall)});
  };
  const auto find = [&](const char* role) -> Panel* {
    for (Panel& p : panels)
      if (p.role == role) return &p;
    return nullptr;
  };
  Panel *a = find("A"), *b = find("B"), *c = find("C"), *d = find("D");
  if (panels.size() == 1) d = &panels.front(), a = b = c = nullptr;
  const int left = a ? width_of(*a) + kSvgMargin : 0;
  const int middle = std::max(d ? width_of(*d) : 0, b ? width_of(*b) : 0);
  const int top = b && d ? kSvgHeader + static_cast<int>(b->rows()) * kSvgCellHeight + kSvgMargin : 0;
  d->gx = kSvgMargin + left + kAxisLabels;
  d->gy = kSvgMargin + top + kSvgHeader;
  if (b) b->gx = d->gx, b->gy = kSvgMargin + kSvgHeader;
  if (a) a->gx = kSvgMargin + left - kSvgMargin - static_cast<int>(a->cols()) * cw, a->gy = d->gy;
  if (c) c->gx = d->gx - kAxisLabels + middle + kSvgMargin + kAxisLabels, c->gy = d->gy;
  int width = d->gx - kAxisLabels + middle + kSvgMargin, height = 0;
  if (c) width = c->gx - kAxisLabels + width_of(*c) + kSvgMargin;
  std::ostringstream body;
  for (const Panel& p : panels) {
    draw_panel(body, p, cw, options);
    height = std::max(height, p.gy + static_cast<int>(p.rows()) * kSvgCellHeight);
    if (summary) {
      summary->panels.push_back(p.role);
      summary->cells += static_cast<int>(p.rows() * p.cols());
      for (const auto* marks : {&p.found, &p.wanted})
        for (const auto& [cell, n] : *marks)
          summary->marked += p.drawn(cell) && !(marks == &p.wanted && p.found.count(cell));
    }
  }
  int y = height + kSvgMargin + 12;
  for (const std::string& line : legend) {
    body << "<text x='" << kSvgMargin << "' y='" << y << "' class='legend'>" << svg_escape(line) << "</text>\n";
    y += 16;
    width = std::max(width, kSvgMargin * 2 + svg_text_width(line, kSvgCharLegend));
  }
  const int total_h = y + kSvgMargin;

  return svg_document(width, total_h,
                      ".tile{stroke:#333;stroke-width:1.5}.wanted{fill:none;stroke:#080;stroke-width:2}"
                      ".badge{font-size:8px;font-weight:bold}",
                      body.str());
}

}  // namespace mmacheck
