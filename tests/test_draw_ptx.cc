// mmacheck draw KERNEL.ptx: D as one CTA of a launch stored it, thread by
// thread, the refuted element outlined (core/emit/ptx_svg.h).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/emit/ptx_svg.h"
#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "tests/support.h"

namespace test_draw_ptx {

using namespace mmacheck;

namespace {

const std::string kDir = "tests/data/ptx/nvcc/";

struct Drawn {
  ptx::PtxReport report;
  std::vector<ptx::DWrite> writes;
};

Drawn run(const std::string& name) {
  const std::string path = kDir + name + ".ptx";
  Drawn d;
  d.report = ptx::check_ptx_launch(
      ptx::read_ptx(test::read_file(test::source_path(path)), path),
      ptx::read_launch(test::read_file(test::source_path(kDir + name + ".launch.json")), name + ".launch.json"), {},
      &d.writes);
  return d;
}

// The tooltip of D[i][j]'s cell.
std::string tip(const std::string& svg, int i, int j) {
  const std::string head = "<title>D[" + std::to_string(i) + "][" + std::to_string(j) + "]: ";
  const std::size_t at = svg.find(head);
  if (at == std::string::npos) return "";
  return svg.substr(at + 7, svg.find("</title>", at) - at - 7);
}

std::string temp_svg() {
  return (std::filesystem::temp_directory_path() / ("mmacheck-test-draw-ptx-" + std::to_string(getpid()) + ".svg"))
      .string();
}

}  // namespace

TEST_CASE("the run records who stored each element of D: mma.sync's accumulator fragment", "[draw][ptx]") {
  const Drawn d = run("global");
  REQUIRE(d.report.verdict == FrameVerdict::proved);
  REQUIRE(d.writes.size() == 64u * 16u);
  // m16n8k16's D fragment (PTX ISA, "Matrix Fragments for mma.m16n8k16"):
  // lane l holds rows l/4 and l/4 + 8, columns 2·(l%4) and 2·(l%4) + 1 of
  // its 16 x 8 tile; the kernel gives each CTA (a warp) one tile.
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 16; ++j) {
      const ptx::DWrite& w = d.writes[static_cast<std::size_t>(i * 16 + j)];
      INFO("D[" << i << "][" << j << "]");
      REQUIRE(w.inst >= 0);
      CHECK(w.thread == (i % 8) * 4 + (j % 8) / 2);
    }
  // Two elements of one tile share a CTA; tiles differ in theirs.
  CHECK(d.writes[0].cta == d.writes[15 * 16 + 7].cta);
  CHECK(d.writes[0].cta != d.writes[16 * 16].cta);
  CHECK(d.writes[0].cta != d.writes[8].cta);
}

TEST_CASE("draw of a proved kernel: one CTA's tile, a cell per element, labelled by warp and lane", "[draw][ptx]") {
  const Drawn d = run("global");
  DrawSummary summary;
  const std::string svg = draw_ptx_svg(d.report, d.writes, {}, &summary);
  CHECK(summary.cells == 16 * 8);
  CHECK(summary.marked == 0);
  CHECK(svg.find("class='found'") == std::string::npos);
  CHECK(tip(svg, 0, 0).find("thread 0 (warp 0, lane 0) of CTA [0, 0, 0]") != std::string::npos);
  CHECK(tip(svg, 9, 3).find("thread 5 (warp 0, lane 5)") != std::string::npos);
  CHECK(tip(svg, 16, 0).empty());  // another CTA's tile is not drawn
  CHECK(svg.find(">W0.T31<") != std::string::npos);
  CHECK(svg.find("hsl(") == std::string::npos);
  // --cta: another tile, another CTA's threads.
  PtxDrawOptions other;
  other.cta = {1, 1, 0};
  const std::string svg2 = draw_ptx_svg(d.report, d.writes, other, &summary);
  CHECK(summary.cells == 16 * 8);
  CHECK(tip(svg2, 0, 0).empty());
  CHECK(svg2.find("of CTA [1, 1, 0]") != std::string::npos);
  other.cta = {2, 0, 0};
  CHECK_THROWS_AS(draw_ptx_svg(d.report, d.writes, other), Error);
}

TEST_CASE("draw of a refuted kernel outlines the element the verdict is about", "[draw][ptx]") {
  const Drawn d = run("global_epilogue");
  REQUIRE(d.report.verdict == FrameVerdict::refuted);
  REQUIRE(d.report.element);
  CHECK((*d.report.element)[0] == 0);
  CHECK((*d.report.element)[1] == 1);
  DrawSummary summary;
  const std::string svg = draw_ptx_svg(d.report, d.writes, {}, &summary);
  CHECK(summary.marked == 1);
  CHECK(tip(svg, 0, 1).find("never written; red: D[0][1] is never written") != std::string::npos);
  CHECK(svg.find("red: D[0][1], the element the verdict is about") != std::string::npos);
  const test::RunResult json = test::run_mmacheck({"prove", test::source_path(kDir + "global_epilogue.ptx"), "--json"});
  CHECK(Json::parse(json.out)["ptx"]["element"] == Json::array({0, 1}));
  // A refutation of the machine (no element of D): nothing outlined.
  const Drawn swap = run("shared_no_sync");
  REQUIRE(swap.report.verdict == FrameVerdict::refuted);
  CHECK_FALSE(swap.report.element);
  draw_ptx_svg(swap.report, swap.writes, {}, &summary);
  CHECK(summary.marked == 0);
}

TEST_CASE("draw --lane outlines one lane's cells of the kernel's D", "[draw][ptx]") {
  const Drawn d = run("global");
  PtxDrawOptions o;
  o.lane = 5;
  const std::string svg = draw_ptx_svg(d.report, d.writes, o);
  std::size_t lanes = 0;
  for (std::size_t at = svg.find("class='lane'"); at != std::string::npos; at = svg.find("class='lane'", at + 1))
    ++lanes;
  CHECK(lanes == 4);  // lane 5's four accumulators
}

TEST_CASE("mmacheck draw KERNEL.ptx: exit status, options, and files it does not draw", "[draw][ptx][cli]") {
  const std::string out = temp_svg();
  std::remove(out.c_str());
  const test::RunResult proved = test::run_mmacheck({"draw", test::source_path(kDir + "global.ptx"), "-o", out});
  CHECK(proved.status == 0);
  CHECK(proved.out.find("proved, 128 cell(s) of D drawn") != std::string::npos);
  const test::RunResult refuted =
      test::run_mmacheck({"draw", test::source_path(kDir + "global_epilogue.ptx"), "-o", out, "--json"});
  CHECK(refuted.status == 1);
  const Json j = Json::parse(refuted.out);
  CHECK(j["verdict"] == "refuted");
  CHECK(j["marked"] == 1);
  CHECK(test::read_file(out).find("class='found'") != std::string::npos);
  const test::RunResult cta =
      test::run_mmacheck({"draw", test::source_path(kDir + "global.ptx"), "-o", out, "--cta", "1,3"});
  CHECK(cta.status == 0);
  CHECK(test::read_file(out).find("CTA [1, 3, 0]") != std::string::npos);
  const test::RunResult grid =
      test::run_mmacheck({"draw", test::source_path(kDir + "global.ptx"), "-o", out, "--grid", "1,1"});
  CHECK(grid.status == 1);  // one CTA of eight: most of D never written
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--cta", "2,0"}, {"--cta", "x"}, {"--tile", "0,0,0"}, {"--operand", "A"}}) {
    std::vector<std::string> args{"draw", test::source_path(kDir + "global.ptx"), "-o", out + ".bad"};
    args.insert(args.end(), bad.begin(), bad.end());
    const test::RunResult r = test::run_mmacheck(args);
    INFO(bad[0] << " " << bad[1] << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find("error:") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out + ".bad"));
  }
  // Not a program nor a kernel: an error naming what the file is.
  const test::RunResult wgmma =
      test::run_mmacheck({"draw", test::source_path("examples/wgmma/k_sw128_f16.txt"), "-o", out + ".bad"});
  CHECK(wgmma.status == 2);
  CHECK(wgmma.err.find("draw draws gemm programs and PTX or CUDA kernels") != std::string::npos);
  // Launch options on a program: an error.
  CHECK(test::run_mmacheck({"draw", test::source_path("examples/seed.txt"), "-o", out + ".bad", "--cta", "0"}).status ==
        2);
  CHECK(
      test::run_mmacheck({"draw", test::source_path("examples/seed.txt"), "-o", out + ".bad", "--grid", "2"}).status ==
      2);
  std::remove(out.c_str());
}

}  // namespace test_draw_ptx
