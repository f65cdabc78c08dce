// mmacheck layout EXPR [--shape D0,D1,...] [--json] [--by-lane [--lane N]]
// mmacheck layout FILE --by-lane [--lane N] [--json]
//
// Evaluates one layout expression and prints the layout (TileLayout::str()),
// the span of every axis it names and, with --shape, the owners of every
// element of a tensor of that shape.  A ComposeLayout (TIRx's swizzle
// composition) prints its swizzle, size and span, and with --shape each
// element's swizzled offset on m.
//
// Owners list every axis the layout names (shard, replica, offset), zeros
// included, keys ordered by axis name; replicas in replica order.
//
// Text output: for a 2-D shape a grid of owner cells (core/layout/owner_label.h:
// `T5:3` = laneid 5, slot 3).  Other ranks list `(i, j, k)  cell` lines.
//
// --by-lane turns the map around: one row per thread (lane, with its warp
// where the layout names one), one column per register slot, each cell the
// element(s) held there ("which elements does lane 5 hold in which
// register"); --lane N keeps only lane N's rows.  Given a layout FILE
// instead of an expression, it prints that table for every buffer of the
// file whose layout names a thread axis (the register fragments).
//
// Errors in EXPR print as `<expr>:1:COL: error: ...`, then the expression
// and a caret under the column; exit status 2.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <iostream>
#include <set>
#include <sstream>

#include "cli/command.h"
#include "cli/json_shape.h"
#include "cli/error_report.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "core/base/file_io.h"
#include "core/program/layout_parser.h"
#include "core/program/program.h"
#include "core/layout/lane_table.h"
#include "core/layout/named_axes.h"
#include "core/layout/owner_label.h"
#include "core/layout/owner_map.h"
#include "core/layout/shape_text.h"
#include "core/program/read/read_program.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

// Bounds the --shape map (elements times replicas) so output stays sane.
constexpr std::int64_t kMaxOwners = std::int64_t{1} << 22;

Shape parse_shape_option(const std::string& text) {
  const Error bad("--shape: expected positive integers separated by ',' (e.g. 16,8), got '" + text + "'");
  Shape shape;
  std::int64_t count = 1;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string_view part(text.data() + start, comma - start);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    std::int64_t d = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), d);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || d <= 0) throw bad;
    if (__builtin_mul_overflow(count, d, &count)) throw Error("--shape: too many elements");
    shape.push_back(d);
    if (comma == text.size()) return shape;
    start = comma + 1;
  }
}

// ---- text ------------------------------------------------------------------

void print_grid(std::ostream& os, const std::vector<ElementOwners>& map, const Shape& shape) {
  std::vector<std::string> cells;
  std::size_t width = std::to_string(shape[1] - 1).size();
  for (const ElementOwners& e : map) {
    cells.push_back(owner_label(e.owners));
    width = std::max(width, cells.back().size());
  }
  const std::size_t label = std::to_string(shape[0] - 1).size();
  const auto pad = [](const std::string& s, std::size_t w) { return std::string(w - std::min(w, s.size()), ' ') + s; };
  os << std::string(label, ' ');
  for (std::int64_t c = 0; c < shape[1]; ++c) os << "  " << pad(std::to_string(c), width);
  os << "\n";
  for (std::int64_t r = 0; r < shape[0]; ++r) {
    os << pad(std::to_string(r), label);
    for (std::int64_t c = 0; c < shape[1]; ++c)
      os << "  " << pad(cells[static_cast<std::size_t>(r * shape[1] + c)], width);
    os << "\n";
  }
}

void print_text(std::ostream& os, const LayoutValue& value, const std::map<Axis, std::int64_t>& spans,
                const std::optional<Shape>& shape, const std::vector<ElementOwners>& map) {
  const TileLayout& layout = layout_of(value);
  os << "layout  " << layout.str() << "\n";
  if (const auto* g = std::get_if<GroupedLayout>(&value)) {
    os << "seps   ";
    for (int s : g->seps()) os << " " << s;
    os << "\n";
  }
  os << "span   ";
  for (const auto& [a, span] : spans) os << (a == spans.begin()->first ? " " : ", ") << a.name() << " " << span;
  os << "\n";
  if (!shape) return;
  std::string legend;
  bool named = false;  // an axis shown as name=value
  for (const auto& [a, span] : spans) {
    if (a.is_thread() && thread_axis_prefix(a).size() == 1) legend += thread_axis_prefix(a) + " = " + a.name() + "; ";
    else if (a == Axis::m()) legend += "after ':' the register slot (m); ";
    else named = true;
  }
  if (named) legend += "other axes as name=value; ";
  if (!layout.replica().empty()) legend += "replicas joined by '|'; ";
  os << "shape   " << list_text(*shape) << "  (cells: " << legend.substr(0, legend.size() - 2) << ")\n\n";
  if (shape->size() == 2) return print_grid(os, map, *shape);
  for (const ElementOwners& e : map) os << coord_text(e.coord) << "  " << owner_label(e.owners) << "\n";
}

// ---- JSON ------------------------------------------------------------------

// The report's one shape (cli/json_shape.h): no file, verdict "evaluated".
Json evaluated(const Json& body) {
  Json out = {{"verdict", "evaluated"}};
  for (const auto& [key, value] : body.items()) out[key] = value;
  return file_json("", out);
}

Json iters_json(const std::vector<Iter>& iters) {
  Json out = Json::array();
  for (const Iter& it : iters) out.push_back(Json::array({it.extent, it.stride, it.axis.name()}));
  return out;
}

Json owner_json(const Owner& owner) {
  Json out = Json::object();
  for (const auto& [axis, v] : owner) out[axis.name()] = v;
  return out;
}

std::string to_json(const LayoutValue& value, const std::map<Axis, std::int64_t>& spans,
                    const std::optional<Shape>& shape, const std::vector<ElementOwners>& map) {
  const TileLayout& layout = layout_of(value);
  Json out = {
      {"layout", layout.str()}, {"shard", iters_json(layout.shard())}, {"replica", iters_json(layout.replica())}};
  out["offset"] = Json::object();
  for (const auto& [axis, off] : layout.offset()) out["offset"][axis.name()] = off;
  out["span"] = Json::object();
  for (const auto& [a, span] : spans) out["span"][a.name()] = span;
  if (const auto* g = std::get_if<GroupedLayout>(&value)) out["seps"] = g->seps();
  if (shape) {
    out["shape"] = *shape;
    Json& elements = out["map"] = Json::array();
    for (const ElementOwners& e : map) {
      Json owners = Json::array();
      for (const Owner& o : e.owners) owners.push_back(owner_json(o));
      elements.push_back({{"coord", e.coord}, {"owners", std::move(owners)}});
    }
  }
  return json_line(evaluated(out));
}

// ---- by lane ---------------------------------------------------------------

void print_lane_table(std::ostream& os, const LaneTable& t) {
  std::set<std::vector<std::int64_t>> columns;
  for (const auto& [thread, slots] : t.rows)
    for (const auto& [memory, coords] : slots) columns.insert(memory);
  const auto label = [](const std::vector<Axis>& axes, const std::vector<std::int64_t>& values, bool thread) {
    std::string s;
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const std::string name = thread ? (axes[i] == Axis::laneid()   ? "lane"
                                         : axes[i] == Axis::warpid() ? "warp"
                                                                     : axes[i].name())
                                      : (axes[i] == Axis::m() ? "slot" : axes[i].name());
      s += (s.empty() ? "" : " ") + name + " " + std::to_string(values[i]);
    }
    return s.empty() ? std::string(thread ? "all" : "slot 0") : s;
  };
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head{"thread"};
  for (const auto& col : columns) head.push_back(label(t.memory_axes, col, false));
  cells.push_back(head);
  for (const auto& [thread, slots] : t.rows) {
    std::vector<std::string> row{label(t.thread_axes, thread, true)};
    for (const auto& col : columns) {
      std::string cell;
      if (const auto it = slots.find(col); it != slots.end())
        for (const Shape& c : it->second) cell += (cell.empty() ? "" : "|") + coord_text(c);
      row.push_back(cell.empty() ? "-" : cell);
    }
    cells.push_back(std::move(row));
  }
  std::vector<std::size_t> width(head.size(), 0);
  for (const auto& row : cells)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  for (const auto& row : cells) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) line += row[i] + std::string(width[i] - row[i].size() + 2, ' ');
    while (!line.empty() && line.back() == ' ') line.pop_back();
    os << line << "\n";
  }
}

Json lane_table_json(const LaneTable& t) {
  Json rows = Json::array();
  for (const auto& [thread, slots] : t.rows) {
    Json th = Json::object();
    for (std::size_t i = 0; i < thread.size(); ++i) th[t.thread_axes[i].name()] = thread[i];
    Json ss = Json::array();
    for (const auto& [memory, coords] : slots) {
      Json m = Json::object();
      for (std::size_t i = 0; i < memory.size(); ++i) m[t.memory_axes[i].name()] = memory[i];
      ss.push_back({{"slot", std::move(m)}, {"coords", coords}});
    }
    rows.push_back({{"thread", std::move(th)}, {"slots", std::move(ss)}});
  }
  return rows;
}

// ---- ComposeLayout -----------------------------------------------------------

// A swizzled layout: its text, the swizzle, size and span (before the
// swizzle, as TVM's span), and with --shape each element's swizzled offset.
int print_compose(const ComposeLayout& layout, std::int64_t span, const std::optional<Shape>& shape, bool json) {
  std::vector<ElementOwners> map;
  if (shape) {
    std::int64_t count = 1;
    for (std::int64_t d : *shape) count *= d;  // no overflow: checked by parse_shape_option
    if (count != layout.size())
      throw Error("--shape " + list_text(*shape) + " has " + std::to_string(count) +
                  " elements but the layout covers " + std::to_string(layout.size()));
    if (count > kMaxOwners)
      throw Error("--shape: the map would list more than " + std::to_string(kMaxOwners) + " owners");
    for (std::int64_t flat = 0; flat < count; ++flat) {
      ElementOwners e{Shape(shape->size()), {}};
      for (std::size_t d = shape->size(), rest = static_cast<std::size_t>(flat); d-- > 0;) {
        e.coord[d] = static_cast<std::int64_t>(rest % static_cast<std::size_t>((*shape)[d]));
        rest /= static_cast<std::size_t>((*shape)[d]);
      }
      e.owners.push_back(Owner{{Axis::m(), layout.apply_flat(flat)}});
      map.push_back(std::move(e));
    }
  }
  const Swizzle& s = layout.swizzle();
  if (json) {
    Json out = {{"layout", layout.str()},
                {"swizzle",
                 {{"per_element", s.base}, {"swizzle_len", s.bits}, {"atom_len", s.shift}, {"swizzle_inner", s.inner}}},
                {"tile_layout", layout.tile().str()},
                {"size", layout.size()},
                {"span", span}};
    if (shape) {
      out["shape"] = *shape;
      Json& elements = out["map"] = Json::array();
      for (const ElementOwners& e : map)
        elements.push_back({{"coord", e.coord}, {"offset", e.owners.front().at(Axis::m())}});
    }
    std::cout << json_line(evaluated(out)) << "\n";
    return kHolds;
  }
  std::cout << "layout  " << layout.str() << "\nswizzle per_element " << s.base << ", swizzle_len " << s.bits
            << ", atom_len " << s.shift
            << (s.inner ? " (the high bits XOR-ed into the low ones)" : " (swizzle_inner=False)") << "\nsize    "
            << layout.size() << "\nspan    " << span << " (of the offsets before the swizzle)\n";
  if (!shape) return kHolds;
  std::cout << "shape   " << list_text(*shape) << "  (cells: the swizzled offset on m)\n\n";
  if (shape->size() == 2) {
    print_grid(std::cout, map, *shape);
    return kHolds;
  }
  for (const ElementOwners& e : map) std::cout << coord_text(e.coord) << "  " << owner_label(e.owners) << "\n";
  return kHolds;
}

// `layout FILE --by-lane`: the table of every register fragment of the file.
int by_lane_file(const std::string& path, std::optional<int> lane, bool json) {
  const Program program = load_program(path);
  Json out = Json::array();
  bool first = true;
  std::vector<std::pair<const BufferDecl*, LaneTable>> tables;
  for (const BufferDecl& b : program.buffers) {
    if (!b.layout.has_thread_axis()) continue;
    const std::set<Axis> axes = named_axes(b.layout);
    try {
      tables.emplace_back(&b,
                          lane_table(owner_map(b.layout, b.shape, "buffer '" + b.name + "'", kMaxOwners), axes, lane));
    } catch (const Error& e) {  // an owner past int64, or too many
      throw e.located(b.loc);
    }
  }
  if (lane && std::all_of(tables.begin(), tables.end(), [](const auto& bt) { return bt.second.rows.empty(); }))
    throw Error(SourceLoc{path, 0, 0}, "lane " + std::to_string(*lane) + " holds no element of any register buffer");
  for (const auto& [bp, t] : tables) {
    const BufferDecl& b = *bp;
    if (json) {
      out.push_back(
          {{"buffer", b.name}, {"shape", b.shape}, {"layout", b.layout.str()}, {"by_lane", lane_table_json(t)}});
      continue;
    }
    std::cout << (first ? "" : "\n") << b.name << "  " << list_text(b.shape) << " " << dtype_info(b.dtype).tvm << "  "
              << b.layout.str() << "\n";
    print_lane_table(std::cout, t);
    first = false;
  }
  if (json) std::cout << json_line(file_json(path, {{"verdict", "evaluated"}, {"buffers", std::move(out)}})) << "\n";
  return kHolds;
}

}  // namespace

int run_layout(const Args& args) {
  po::options_description options("mmacheck layout");
  options.add_options()("expr", po::value<std::string>(), "layout expression")(
      "shape", po::value<std::string>(), "D0,D1,...: list the owners of every element")("json", po::bool_switch(),
                                                                                        "print one JSON object")(
      "by-lane", po::bool_switch(),
      "one row per lane, one column per register slot (EXPR with --shape, or a layout FILE)")(
      "lane", po::value<int>(), "with --by-lane: only this lane's row(s)");
  po::positional_options_description positional;
  positional.add("expr", 1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("expr")) throw Error("layout: missing EXPR (usage: mmacheck layout EXPR [--shape D0,D1,...] [--json])");
  const std::string expr = vm["expr"].as<std::string>();
  const bool by_lane = vm["by-lane"].as<bool>();
  const std::optional<int> lane = vm.count("lane") ? std::optional(vm["lane"].as<int>()) : std::nullopt;
  if (lane && !by_lane) throw Error("layout: --lane needs --by-lane");
  if (lane && (*lane < 0 || *lane >= 32))
    throw Error("layout: --lane " + std::to_string(*lane) + " is not a lane of the warp (0 to 31)");
  std::error_code ec;
  if (by_lane && std::filesystem::is_regular_file(expr, ec)) return by_lane_file(expr, lane, vm["json"].as<bool>());
  const std::optional<Shape> shape =
      vm.count("shape") ? std::optional(parse_shape_option(vm["shape"].as<std::string>())) : std::nullopt;

  // The spans print with the layout, and with --shape every owner, so a span
  // or a coordinate past int64 is an error in the expression (placed at its
  // start, 1:1), as the evaluation's own errors are.
  std::optional<AnyLayout> any;
  std::map<Axis, std::int64_t> spans;
  std::int64_t compose_span = 0;
  const auto spans_of = [&](const TileLayout& layout) {
    for (const Axis& a : named_axes(layout)) {
      spans.emplace(a, layout.span(a));
      if (shape) (void)layout.owner_range(a);
    }
  };
  try {
    any = parse_any_layout(expr, "<expr>");
    try {
      if (const auto* compose = std::get_if<ComposeLayout>(&*any)) {
        compose_span = compose->span();
        if (shape) (void)compose->tile().owner_range(Axis::m());
      } else if (const auto* grouped = std::get_if<GroupedLayout>(&*any)) spans_of(grouped->layout());
      else spans_of(std::get<TileLayout>(*any));
    } catch (const Error& e) {
      throw e.located(SourceLoc{"<expr>", 1, 1});
    }
  } catch (const Error& e) {
    report_error(std::cerr, std::cout, e, vm["json"].as<bool>(), expr);
    return kBadInput;
  }
  if (const auto* compose = std::get_if<ComposeLayout>(&*any)) {
    if (by_lane) throw Error("layout: --by-lane needs a register layout; a ComposeLayout is a shared-memory layout");
    return print_compose(*compose, compose_span, shape, vm["json"].as<bool>());
  }
  const LayoutValue value = std::holds_alternative<TileLayout>(*any) ? LayoutValue(std::get<TileLayout>(*any))
                                                                     : LayoutValue(std::get<GroupedLayout>(*any));
  const TileLayout& layout = layout_of(value);
  const std::set<Axis> axes = named_axes(layout);
  const std::vector<ElementOwners> map =
      shape ? owner_map(layout, *shape, "--shape", kMaxOwners) : std::vector<ElementOwners>{};
  if (by_lane) {
    if (!shape) throw Error("layout: --by-lane needs --shape D0,D1,... (or a layout FILE)");
    const LaneTable t = lane_table(map, axes, lane);
    if (lane && t.rows.empty())
      throw Error("layout: lane " + std::to_string(*lane) + " holds no element of the layout over " +
                  list_text(*shape));
    if (vm["json"].as<bool>())
      std::cout << json_line(evaluated({{"layout", layout.str()}, {"shape", *shape}, {"by_lane", lane_table_json(t)}}))
                << "\n";
    else {
      std::cout << "layout  " << layout.str() << "\nshape   " << list_text(*shape)
                << "  (cells: logical coordinates)\n\n";
      print_lane_table(std::cout, t);
    }
    return kHolds;
  }
  if (vm["json"].as<bool>()) std::cout << to_json(value, spans, shape, map) << "\n";
  else print_text(std::cout, value, spans, shape, map);
  return kHolds;
}

}  // namespace mmacheck::cli
