// The recorded differential of TIRx's ComposeLayout against the released TVM
// (apache-tvm-tirx 0.1.0a4): tests/data/tvm/compose_oracle.jsonl, made by
// scripts/tvm-oracle/compose.py (its first line names the command).  Each
// case is ComposeLayout(per_element, swizzle_len, atom_len, TileLayout(...)
// [, inner]) and 0..3 operations (canonicalize, tile, tile_to, pack, unpack,
// and methods a ComposeLayout lacks); mmacheck must give TVM's swizzle, tile
// layout, size, span and element -> swizzled offset map, refuse the apply
// TVM refuses, and reject what TVM rejects.  The disagreements allowed are
// documented (docs/tvmscript.md, "Differences from TVM") and counted:
//
//   nonpositive_extent       the TileLayout oracle's: TVM builds extents 0
//                            and -1; mmacheck rejects them;
//   compose_tile_memory_axis TVM's ComposeLayout.tile turns a lone memory
//                            axis other than m into m (S[8 : 1@TCol] tiled
//                            by S[2 : 1] gives S[16 : 1]); mmacheck refuses
//                            to tile a ComposeLayout off m.
#include <catch2/catch.hpp>

#include <sstream>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/program/layout_parser.h"
#include "tests/support.h"

namespace test_layout_compose_oracle {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// The layout an expression reads as, which must be a ComposeLayout.  (Named:
// GCC 12 warns of freeing an unallocated object (-Wfree-nonheap-object)
// where std::get reads a temporary variant inlined into a long test.)
ComposeLayout compose_of(const std::string& text) {
  const AnyLayout any = parse_any_layout(text, "<expr>");
  return std::get<ComposeLayout>(any);
}

std::vector<Iter> iters(const Json& j) {
  std::vector<Iter> out;
  for (const Json& it : j) out.push_back(Iter{it[0], it[1], Axis(it[2].get<std::string>())});
  return out;
}

// Empty when mmacheck's ComposeLayout is TVM's; else what differs.
std::string compare(const Json& c, const ComposeLayout& l) {
  std::ostringstream diff;
  const Swizzle& s = l.swizzle();
  const Json& want = c["swizzle"];
  if (s.base != want[0].get<int>() || s.bits != want[1].get<int>() || s.shift != want[2].get<int>() ||
      s.inner != want[3].get<bool>())
    diff << "swizzle " << l.str() << " vs " << want.dump() << "; ";
  const TileLayout& t = l.tile();
  if (t.shard() != iters(c["shard"])) diff << "shard of " << t.str() << "; ";
  if (t.replica() != iters(c["replica"])) diff << "replica of " << t.str() << "; ";
  Offset offset;
  for (const auto& [axis, v] : c["offset"].items()) offset.emplace(Axis(axis), v.get<std::int64_t>());
  if (t.offset() != offset) diff << "offset of " << t.str() << " vs " << c["offset"].dump() << "; ";
  if (l.size() != c["size"].get<std::int64_t>()) diff << "size " << l.size() << "; ";
  if (c.contains("span")) {
    if (l.span() != c["span"].get<std::int64_t>()) diff << "span " << l.span() << " vs " << c["span"] << "; ";
  } else {
    bool refuses = false;
    try {
      (void)l.span();
    } catch (const Error&) {
      refuses = true;
    }
    if (!refuses) diff << "TVM's span refuses (" << c["span_error"].get<std::string>() << "), mmacheck's does not; ";
  }
  if (c.contains("apply_error") && l.applies()) diff << "TVM's apply refuses, mmacheck's applies; ";
  if (c.contains("map")) {
    if (!l.applies()) diff << "mmacheck's apply refuses, TVM's applies; ";
    else
      for (const Json& row : c["map"])
        if (l.apply_flat(row[0].get<std::int64_t>()) != row[1].get<std::int64_t>()) {
          diff << "offset of element " << row[0] << ": " << l.apply_flat(row[0].get<std::int64_t>()) << " vs " << row[1]
               << "; ";
          break;
        }
  }
  return diff.str();
}

}  // namespace

TEST_CASE("mmacheck's ComposeLayout agrees with TVM 0.1.0a4 on every recorded case", "[layout][tvm][compose]") {
  std::istringstream lines(read_file(source_path("tests/data/tvm/compose_oracle.jsonl")));
  std::string line;
  std::getline(lines, line);
  CHECK(parse_json(line, "compose_oracle.jsonl")["tvm"] == "apache-tvm-tirx 0.1.0a4");
  int cases = 0, agree = 0, rejected_both = 0, mapped = 0, apply_refused = 0, nonpositive = 0, off_m = 0;
  std::map<std::string, int> ops;
  std::vector<std::string> failures;
  while (std::getline(lines, line)) {
    const Json c = parse_json(line, "compose_oracle.jsonl");
    ++cases;
    for (const Json& op : c["ops"]) ++ops[op.get<std::string>()];
    const std::string expr = c["expr"];
    std::optional<AnyLayout> value;
    std::string error;
    try {
      value = parse_any_layout(expr, "<oracle>");
    } catch (const Error& e) {
      error = e.what();
    }
    std::string why;
    if (c.contains("error")) {
      if (!value) {
        ++agree, ++rejected_both;
        continue;
      }
      why = "TVM rejects (" + c["error"].get<std::string>() + "), mmacheck accepts";
    } else if (!value) {
      if (error.find("extent must be positive") != std::string::npos) {
        ++nonpositive;
        continue;
      }
      if (error.find("mmacheck tiles ComposeLayouts on m only") != std::string::npos) {
        ++off_m;
        continue;
      }
      why = "mmacheck rejects: " + error;
    } else if (c["kind"] == "compose") {
      const auto* compose = std::get_if<ComposeLayout>(&*value);
      why = compose ? compare(c, *compose) : "mmacheck gives no ComposeLayout";
      if (why.empty()) {
        ++agree;
        mapped += c.contains("map");
        apply_refused += c.contains("apply_error");
        continue;
      }
    } else {
      why = "TVM gives a " + c["kind"].get<std::string>();
    }
    failures.push_back("case " + std::to_string(c["id"].get<int>()) + ": " + expr + ": " + why);
  }
  INFO(cases << " cases, " << agree << " agree (" << rejected_both << " rejected by both, " << mapped
             << " offset maps, " << apply_refused << " applies refused), " << nonpositive << " nonpositive extents, "
             << off_m << " tiles off m");
  for (std::size_t i = 0; i < std::min<std::size_t>(failures.size(), 20); ++i) UNSCOPED_INFO(failures[i]);
  CHECK(failures.empty());
  CHECK(cases >= 400);
  CHECK(agree + nonpositive + off_m == cases);
  CHECK(off_m <= 10);
  CHECK(rejected_both >= 50);
  CHECK(mapped >= 100);
  CHECK(apply_refused >= 20);
  for (const char* op : {"canonicalize", "tile_to", "tile", "pack", "unpack", "storage", "group"}) CHECK(ops[op] > 0);
}

TEST_CASE("ComposeLayout in expressions: the issue's example, printing, errors at their place", "[layout][compose]") {
  const AnyLayout v = parse_any_layout("ComposeLayout(3, 3, 3, TileLayout(S[8 : 1]))", "<expr>");
  const ComposeLayout& c = std::get<ComposeLayout>(v);
  CHECK(c.str() == "ComposeLayout(3, 3, 3, TileLayout(S[8 : 1]))");
  CHECK(c.size() == 8);
  CHECK(c.apply_flat(7) == 7);  // 8 elements stay below the swizzled bits

  // The 128-byte f16 swizzle: row 1's chunk 0 moves to chunk 1; the printed
  // form reads back; the SwizzleLayout spelling means the same.
  const ComposeLayout wide = compose_of("T.ComposeLayout(3, 3, 3, T.TileLayout(S[(8, 64) : (64, 1)])).canonicalize()");
  CHECK(wide.str() == "ComposeLayout(3, 3, 3, TileLayout(S[512 : 1]))");
  CHECK(wide.apply_flat(64) == 72);
  CHECK(compose_of(wide.str()) == wide);
  CHECK(compose_of("ComposeLayout(SwizzleLayout(per_element=3, swizzle_len=3, atom_len=3), TileLayout(S[512 : 1]))") ==
        wide);
  const ComposeLayout outer = compose_of("ComposeLayout(0, 1, 1, TileLayout(S[4 : 1]), swizzle_inner=False)");
  CHECK(outer.str() == "ComposeLayout(0, 1, 1, TileLayout(S[4 : 1]), swizzle_inner=False)");
  CHECK(outer.apply_flat(1) == 3);  // the low bit XOR-ed into the one above it

  const auto error_at = [](const std::string& text) {
    try {
      (void)parse_any_layout(text, "<expr>");
    } catch (const Error& e) {
      return std::to_string(e.loc().col) + ": " + e.what();
    }
    return std::string("no error");
  };
  CHECK_THAT(error_at("ComposeLayout(3, 4, 3, TileLayout(S[8 : 1]))"),
             Catch::StartsWith("1: ") && Catch::Contains("atom_len >= swizzle_len"));
  CHECK_THAT(error_at("ComposeLayout(3, 3, 3, TileLayout(S[8 : 1])).group([8])"),
             Catch::StartsWith("46: ") && Catch::Contains("a ComposeLayout has no method 'group'"));
  CHECK_THAT(error_at("ComposeLayout(0, 3, 3, TileLayout(S[8 : 1])).pack(2)"),
             Catch::StartsWith("46: ") && Catch::Contains("needs per_element >= 1"));
  CHECK_THAT(error_at("ComposeLayout(3, 3, 3, ComposeLayout(3, 3, 3, TileLayout(S[8 : 1])))"),
             Catch::StartsWith("24: ") && Catch::Contains("got a ComposeLayout"));
  CHECK_THAT(error_at("SwizzleLayout(3, 3, 3)"), Catch::Contains("got a swizzle"));
  CHECK_THAT(error_at("ComposeLayout(3, 3, 3)"), Catch::Contains("missing argument 'tile_layout'"));

  // Where a TileLayout is needed, a ComposeLayout is a located error, never a layout.
  try {
    (void)parse_layout("ComposeLayout(3, 3, 3, TileLayout(S[8 : 1]))", "<expr>");
    FAIL("parse_layout took a ComposeLayout");
  } catch (const Error& e) {
    CHECK(e.loc().col == 1);
    CHECK_THAT(e.what(), Catch::Contains("is no TileLayout"));
  }
  // Apply needs a tile layout on m alone, as TVM's.
  const ComposeLayout lanes = compose_of("ComposeLayout(3, 3, 3, TileLayout(S[(8, 4) : (1@laneid, 1)]))");
  CHECK_FALSE(lanes.applies());
  CHECK_THROWS_WITH(lanes.apply_flat(0), Catch::Contains("on m alone"));
}

}  // namespace test_layout_compose_oracle
