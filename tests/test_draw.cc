// mmacheck draw: the SVG picture of the fragments, counterexamples highlighted.
#include <catch2/catch.hpp>

#include <set>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "core/emit/svg.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "tests/support.h"

namespace test_draw {

using namespace mmacheck;

namespace {
int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("draw outlines every wrong cell of the seed erratum, with a legend", "[draw]") {
  const Program p = load_program(test::source_path("examples/seed.txt"));
  const ProofReport report = prove(p, {});
  DrawSummary summary;
  const std::string svg = draw_svg(p, report, {}, &summary);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(svg.find("viewBox='0 0 ") != std::string::npos);
  // All 128 wrong (lane, slot) pairs: each loads an element of slots 2..5
  // (red) in place of another element of slots 2..5 (green): 128 cells each.
  REQUIRE(report.counterexamples.size() == 2);  // the piece's, then the program run's
  CHECK(report.counterexamples[0].mismatches.size() == 128);
  CHECK(count(svg, "class='found'") == 128);
  CHECK(count(svg, "class='wanted'") == 128);
  CHECK(summary.marked == 128);
  CHECK(svg.find("stage A: lane 0, slot 2: stage A loads A_g[0][8] but A_FRAG places A[8][0]") != std::string::npos);
  CHECK(
      svg.find(
          "stage checks: red = the element the staging loads into a slot, green = the element the layout puts in that slot") !=
      std::string::npos);
  CHECK(svg.find("T5:3 = lane 5 (laneid), register slot 3 (m); W1.T5:3 = warp 1") != std::string::npos);
  // A tooltip per cell.
  CHECK(count(svg, "<title>") == 256 + 128 + 128);
  CHECK(
      svg.find(
          "<title>A[0][8]: T0:4 (lane 0, slot 4); red: found where it does not belong; green: belongs where something else is</title>") !=
      std::string::npos);
  // Every element of A, B and D is drawn with its owner: 256 + 128 + 128 cells.
  CHECK(count(svg, "class='cell'") == 256 + 128 + 128);
  CHECK(svg.find(">T0:2<") != std::string::npos);
}

TEST_CASE("draw of a proved program marks nothing", "[draw]") {
  const Program p = load_program(test::source_path("examples/seed_corrected.txt"));
  const std::string svg = draw_svg(p, prove(p, {}));
  CHECK(count(svg, "class='found'") == 0);
  CHECK(count(svg, "class='wanted'") == 0);
  CHECK(svg.find("proved") != std::string::npos);
}

TEST_CASE("draw's fills are hex colours, one light hue per lane", "[draw]") {
  // hsl() is painted black by CairoSVG and other renderers.
  const Program p = load_program(test::source_path("examples/seed_corrected.txt"));
  const std::string svg = draw_svg(p, prove(p, {}));
  CHECK(svg.find("hsl(") == std::string::npos);
  std::set<std::string> fills;
  const std::string cell = "' class='cell'";
  for (std::size_t at = svg.find(cell); at != std::string::npos; at = svg.find(cell, at + 1)) {
    const std::string colour = svg.substr(at - 7, 7);
    REQUIRE(colour.find_first_not_of("#0123456789abcdef") == std::string::npos);
    // Light enough to read text on: every channel at least 0xa0.
    for (int c = 0; c < 3; ++c) CHECK(std::stoi(colour.substr(1 + 2 * c, 2), nullptr, 16) >= 0xa0);
    fills.insert(colour);
  }
  CHECK(fills.size() >= 32);  // 32 lanes, 32 hues (and white)
}

TEST_CASE("mmacheck draw writes the picture and exits like prove", "[draw][cli]") {
  const std::string out =
      (std::filesystem::temp_directory_path() / ("mmacheck-test-draw-" + std::to_string(getpid()) + ".svg")).string();
  std::remove(out.c_str());
  const test::RunResult refuted = test::run_mmacheck({"draw", test::source_path("examples/seed.txt"), "-o", out});
  CHECK(refuted.status == 1);
  CHECK(test::read_file(out).find("class='found'") != std::string::npos);
  const test::RunResult proved =
      test::run_mmacheck({"draw", test::source_path("examples/seed_corrected.txt"), "-o", out});
  CHECK(proved.status == 0);
  std::remove(out.c_str());
}

TEST_CASE("mmacheck draw: bad usage and unwritable output exit 2 and leave nothing", "[draw][cli]") {
  const std::string seed = test::source_path("examples/seed.txt");
  CHECK(test::run_mmacheck({"draw", seed}).status == 2);
  CHECK(test::run_mmacheck({"draw", "-o", "/tmp/x.svg"}).status == 2);
  const test::RunResult r = test::run_mmacheck({"draw", seed, "-o", "/nonexistent-dir/out.svg"});
  CHECK(r.status == 2);
  CHECK(r.err.find("error: cannot write '/nonexistent-dir/out.svg'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists("/nonexistent-dir/out.svg"));
}

namespace {

// Every <text> element's (x, y, estimated width) for the overlap check.
struct Label {
  int x, y, width;
  std::string text;
};
std::vector<Label> labels(const std::string& svg, const std::string& cls, double per_char) {
  std::vector<Label> out;
  const std::string head = "<text x='";
  for (std::size_t at = svg.find(head); at != std::string::npos; at = svg.find(head, at + 1)) {
    const std::size_t end = svg.find("</text>", at);
    const std::string tag = svg.substr(at, svg.find('>', at) - at);
    if (tag.find("class='" + cls + "'") == std::string::npos) continue;
    const int x = std::stoi(tag.substr(9));
    const int y = std::stoi(tag.substr(tag.find("y='") + 3));
    const std::string text = svg.substr(svg.find('>', at) + 1, end - svg.find('>', at) - 1);
    out.push_back({x, y, static_cast<int>(text.size() * per_char), text});
  }
  return out;
}

}  // namespace

TEST_CASE("draw puts A left of D and B above D, and no two titles overlap", "[draw]") {
  for (const char* file :
       {"examples/ext_f64.txt", "examples/seed.txt", "examples/transpose_ab.txt", "examples/beta1.txt"}) {
    INFO(file);
    const Program p = load_program(test::source_path(file));
    ProveOptions options;
    options.inst_set = InstSet::extended;
    const std::string svg = draw_svg(p, prove(p, options));
    std::vector<Label> all = labels(svg, "title", 8.0);
    const std::vector<Label> small = labels(svg, "small", 6.1);
    all.insert(all.end(), small.begin(), small.end());
    REQUIRE(all.size() >= 6);
    for (std::size_t i = 0; i < all.size(); ++i)
      for (std::size_t j = i + 1; j < all.size(); ++j) {
        if (all[i].y != all[j].y) continue;
        INFO(all[i].text << " | " << all[j].text);
        CHECK((all[i].x + all[i].width <= all[j].x || all[j].x + all[j].width <= all[i].x));
      }
    // A's title is left of D's, B's above D's and at D's x.
    const auto title = [&](const std::string& role) {
      for (const Label& l : all)
        if (l.text.rfind(role + " ", 0) == 0 || l.text.rfind(role + "  ", 0) == 0) return l;
      FAIL("no title for " << role);
      return Label{};
    };
    CHECK(title("A").x < title("D").x);
    CHECK(title("A").y == title("D").y);
    CHECK(title("B").y < title("D").y);
    CHECK(title("B").x == title("D").x);
  }
}

TEST_CASE("draw --lane outlines one lane's elements in A, B and D", "[draw]") {
  const Program p = load_program(test::source_path("examples/seed_corrected.txt"));
  DrawOptions options;
  options.lane = 5;
  const std::string svg = draw_svg(p, prove(p, {}), options);
  // Lane 5 holds 8 elements of A, 4 of B and 4 of D.
  CHECK(count(svg, "class='lane'") == 8 + 4 + 4);
  CHECK(svg.find("blue: the elements lane 5 holds") != std::string::npos);
}

TEST_CASE("draw --operand and --tile draw a part of a large tiling", "[draw]") {
  const Program p = load_program(test::source_path("examples/tiled_2x2x2.txt"));
  const ProofReport report = prove(p, {});
  DrawOptions only_a;
  only_a.operand = "A";
  DrawSummary a;
  draw_svg(p, report, only_a, &a);
  CHECK(a.panels == std::vector<std::string>{"A"});
  CHECK(a.cells == 32 * 32);
  DrawOptions tile;
  tile.tile = std::vector<int>{1, 0, 1};
  DrawSummary t;
  const std::string svg = draw_svg(p, report, tile, &t);
  CHECK(t.panels == std::vector<std::string>{"A", "B", "D"});
  CHECK(t.cells == 16 * 16 + 16 * 8 + 16 * 8);
  CHECK(svg.find("<title>A[16][16]: ") != std::string::npos);  // the tile (1, *, 1) of A starts at row 16, col 16
  CHECK(svg.find("<title>A[0][0]: ") == std::string::npos);
  tile.tile = std::vector<int>{2, 0, 0};
  CHECK_THROWS_AS(draw_svg(p, report, tile), Error);
}

TEST_CASE("draw of a declined file outlines the diagnosis's cells in red", "[draw]") {
  std::string text = test::read_file(test::source_path("examples/k8.txt"));
  text.replace(text.find("(1 @ laneid, 1, 4 @ laneid)"), 27, "(1 @ laneid, 1, 8 @ laneid)");
  const Program p = parse_program(text, "k8_typo.txt");
  const ProofReport report = prove(p, {});
  REQUIRE(report.verdict == Verdict::dispatch_failed);
  DrawSummary summary;
  const std::string svg = draw_svg(p, report, {}, &summary);
  // Every element of B placed at a lane the warp does not have, by the layout itself.
  const BufferDecl& b = p.buffer("B", {});
  int impossible = 0;
  for (std::int64_t i = 0; i < b.shape[0]; ++i)
    for (std::int64_t j = 0; j < b.shape[1]; ++j) {
      const std::int64_t at[] = {i, j};
      impossible += owner_coord(b.layout.apply(at, b.shape).front(), Axis::laneid()) >= 32;
    }
  CHECK(impossible == 32);
  CHECK(count(svg, "class='found'") == impossible);
  CHECK(svg.find("B: lanes 32..59 do not exist (laneid span 60 &gt; 32)") != std::string::npos);
  CHECK(svg.find("layout findings: red = an element at a lane that does not exist") != std::string::npos);
}

TEST_CASE("mmacheck draw --lane/--operand/--tile/--json and their bad values", "[draw][cli]") {
  const std::string out = (std::filesystem::temp_directory_path() / "mmacheck-test-draw-opts.svg").string();
  const std::string tiled = test::source_path("examples/tiled_2x2x2.txt");
  const test::RunResult r = test::run_mmacheck({"draw", tiled, "-o", out, "--operand", "B", "--lane", "3", "--json"});
  CHECK(r.status == 0);
  const Json j = Json::parse(r.out);
  CHECK(j["panels"] == Json::array({"B"}));
  CHECK(j["cells"] == 32 * 16);
  CHECK(test::run_mmacheck({"draw", tiled, "-o", out, "--lane", "32"}).status == 2);
  CHECK(test::run_mmacheck({"draw", tiled, "-o", out, "--operand", "E"}).status == 2);
  CHECK(test::run_mmacheck({"draw", tiled, "-o", out, "--tile", "0,1"}).status == 2);
  CHECK(test::run_mmacheck({"draw", tiled, "-o", out, "--tile", "0,1,0"}).status == 0);
  std::remove(out.c_str());
}

TEST_CASE("draw's legend says what red and green mean for a store check", "[draw]") {
  std::string text = test::read_file(test::source_path("examples/seed_corrected.txt"));
  text.replace(text.rfind("s % 2]"), 6, "s // 2]");  // the store's column: s // 2 for s % 2
  const Program p = parse_program(text, "store_typo.txt");
  const ProofReport report = prove(p, {});
  REQUIRE(report.counterexamples.size() == 2);  // the piece's, then the program run's
  REQUIRE(report.counterexamples[0].check.name() == "store D");
  const std::string svg = draw_svg(p, report);
  CHECK(
      svg.find(
          "store checks: red = the element a slot is written to, green = the element the layout keeps in that slot") !=
      std::string::npos);
  // Slots 1 and 2 of every lane are wrong: 64 pairs; each writes an element of D another slot keeps.
  CHECK(report.counterexamples[0].mismatches.size() == 64);
  CHECK(count(svg, "class='found'") == 64);
}

TEST_CASE("a replicated layout draws narrow cells: the first owner and the count, every owner in the tooltip",
          "[draw]") {
  const std::string text = test::read_file(test::source_path("examples/reject_replica.txt"));
  const auto width = [](const std::string& svg) {
    const std::size_t at = svg.find("width='");
    return std::stoi(svg.substr(at + 7));
  };
  const auto cell_width = [](const std::string& svg) {
    const std::size_t cell = svg.find("class='cell'");
    const std::size_t w = svg.rfind("width='", cell);
    return std::stoi(svg.substr(w + 7));
  };
  std::string widths;
  int narrowest = 0;
  for (const char* replicas : {"R[2 : 1 @ warpid]", "R[4 : 1 @ warpid]"}) {
    std::string t = text;
    t.replace(t.find("R[2 : 1 @ warpid]"), 17, replicas);
    const Program program = parse_program(t, "r.txt");
    const std::string svg = draw_svg(program, prove(program, {}));
    const std::string n = std::string(replicas).substr(2, 1);
    CHECK(svg.find(">W0.T0:0 \u00d7" + n + "</text>") != std::string::npos);
    // The tooltip keeps every owner.
    CHECK(svg.find(n == "4" ? "W0.T0:0|W1.T0:0|W2.T0:0|W3.T0:0" : "W0.T0:0|W1.T0:0") != std::string::npos);
    if (narrowest == 0) narrowest = cell_width(svg);
    CHECK(cell_width(svg) == narrowest);  // four warps' cells are as wide as two's
    CHECK(width(svg) < 2500);
  }
}

}  // namespace test_draw
