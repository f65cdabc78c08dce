// Triton's MMA v3 (wgmma) accumulators (core/triton/triton_check.h,
// judge_acc_v3): every layout the real Triton gives (tests/data/triton/mma_v3.json,
// scripts/triton-oracle/mma_v3.py) is proved against wgmma's D frame; each
// planted one (tests/data/triton/mma_v3_planted.json: two bases swapped) is
// refuted with a counterexample; instr_shape is read strictly.  Issue 33:
// over several warpgroups each must hold the rows (columns) its own wgmma
// reads (tests/data/triton/mma_v3_warpgroups*.json,
// scripts/triton-oracle/mma_v3_warpgroups.py).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/gemm/ptx_frame.h"
#include "core/triton/triton_check.h"
#include "core/triton/triton_dot.h"
#include "core/wgmma/wgmma_frame.h"
#include "tests/support.h"

namespace test_triton_mma_v3 {

namespace {

using namespace mmacheck;
using mmacheck::test::read_file;
using mmacheck::test::source_path;

std::vector<TritonReport> check(const std::string& rel) {
  const std::string path = source_path(rel);
  return check_triton(read_triton_file(read_file(path), path));
}

}  // namespace

TEST_CASE("triton MMA v3: Triton's accumulator layouts are wgmma's D frame", "[triton][wgmma]") {
  const std::vector<TritonReport> reports = check("tests/data/triton/mma_v3.json");
  REQUIRE(reports.size() == 9);
  for (const TritonReport& r : reports) {
    INFO(r.name << ": " << r.message);
    CHECK(r.result == FrameVerdict::proved);
    CHECK(r.instruction.rfind("wgmma.mma_async m64n", 0) == 0);
  }
}

TEST_CASE("triton MMA v3: the frame the check builds from m16n8's C is core/wgmma's D table", "[triton][wgmma]") {
  // The triton wing does not use the wgmma wing; its D frame (warp w: rows
  // 16w.., each 8 columns an m16n8 C tile) must be the wgmma wing's table.
  const Frame* c = lookup_frame("m16n8k16", Operand::C, 32);
  const WgmmaFrame* d = find_wgmma_frame("m64nNk16", WgmmaFragment::D, 32);
  REQUIRE(c);
  REQUIRE(d);
  for (int t = 0; t < WgmmaFrame::kThreads; ++t)
    for (int e = 0; e < d->elems(256); ++e) {
      const TileCoord x = c->at(t % 32, e % 4);
      REQUIRE(d->at(t, e) == std::array<int, 2>{16 * (t / 32) + x.row, 8 * (e / 4) + x.col});
    }
}

TEST_CASE("triton MMA v3: each planted accumulator is refuted", "[triton][wgmma]") {
  const std::vector<TritonReport> reports = check("tests/data/triton/mma_v3_planted.json");
  REQUIRE(reports.size() == 4);
  for (const TritonReport& r : reports) {
    INFO(r.name << ": " << r.message);
    CHECK(r.result == FrameVerdict::refuted);
    REQUIRE(r.counterexample.has_value());
    CHECK(r.counterexample->coordinate != r.counterexample->ptx);
  }
}

TEST_CASE("triton MMA v3: instr_shape is read strictly", "[triton][wgmma]") {
  const std::string layout =
      R"("layout": {"reg_bases": [[0, 1], [8, 0]], "lane_bases": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],)"
      R"( "warp_bases": [[16, 0], [32, 0]], "block_bases": [], "shape": [64, 8]})";
  const auto entry = [&](const std::string& extra) {
    return R"({"operands": [{"name": "x", "operand": "acc", "dtype": "f32", "warps_per_cta": [4, 1], )" + extra +
           layout + "}]}";
  };
  CHECK(check_triton(read_triton_file(entry(R"("instr_shape": [16, 8, 16], )"), "t.json"))[0].result ==
        FrameVerdict::proved);
  CHECK_THROWS_AS(read_triton_file(entry(R"("instr_shape": [16, 12, 16], )"), "t.json"), Error);
  CHECK_THROWS_AS(read_triton_file(entry(R"("instr_shape": [16, 8], )"), "t.json"), Error);
  // Without whole warpgroups along M: refuted.
  std::string two = entry(R"("instr_shape": [16, 8, 16], )");
  two.replace(two.find("[4, 1]"), 6, "[2, 2]");
  CHECK(check_triton(read_triton_file(two, "t.json"))[0].result == FrameVerdict::refuted);
  // f16 accumulators: the lowering's packing is not modelled.
  std::string f16 = entry(R"("instr_shape": [16, 8, 16], )");
  f16.replace(f16.find("\"f32\""), 5, "\"f16\"");
  CHECK(check_triton(read_triton_file(f16, "t.json"))[0].result == FrameVerdict::unchecked);
}

TEST_CASE("triton MMA v3, issue 33: Triton's layouts over several warpgroups prove, tied to the rows each wgmma reads",
          "[triton][wgmma][mistakes]") {
  // tests/data/triton/mma_v3_warpgroups.json: Triton 3.9's own layouts
  // (scripts/triton-oracle/mma_v3_warpgroups.py) with 2 or 4 warpgroups
  // along M, 2 along N, both, and the broadcast of a tensor smaller than the
  // warpgroups: each is what WGMMA.cpp's descriptors compute.
  const std::vector<TritonReport> reports = check("tests/data/triton/mma_v3_warpgroups.json");
  REQUIRE(reports.size() == 8);
  for (const TritonReport& r : reports) {
    INFO(r.name << ": " << r.message);
    CHECK(r.result == FrameVerdict::proved);
  }
}

TEST_CASE("triton MMA v3, issue 33: a warpgroup holding another warpgroup's rows or columns is refuted at its d0",
          "[triton][wgmma][mistakes]") {
  // tests/data/triton/mma_v3_warpgroups_planted.json: Triton's layouts with
  // two bases exchanged.  Each is still one-to-one onto the tensor with rows
  // depending on m only and columns on n only, so before issue 33 each
  // proved; now the first wgmma whose origin is not the A row and B column
  // its descriptors read is named: register, lane 0, warp, what the layout
  // puts there and what the lowering writes there.
  struct Want {
    std::int64_t reg, warp;
    std::array<std::int64_t, 2> holds, lowering;
    const char* what;
  };
  const std::vector<Want> wants = {
      // 2 M warpgroups, 2 wgmma each (TileLang #2522's block_M 256, 256
      // threads): [64, 128) and [128, 192) exchanged, i.e. warpgroup-major
      // rows, which Triton's lowering does not issue.
      {64, 0, {64, 0}, {128, 0}, "wgmma (m 1, n 0) of warpgroup 0"},
      // 4 M warpgroups, warpgroups 1 and 2 exchanged.
      {0, 4, {128, 0}, {64, 0}, "wgmma (m 0, n 0) of warpgroup 1"},
      // 4 M warpgroups, 2 wgmma each: 128-row blocks exchanged.
      {32, 0, {128, 0}, {256, 0}, "wgmma (m 1, n 0) of warpgroup 0"},
      // 2 N warpgroups, 2 wgmma each: 64-column blocks exchanged.
      {32, 0, {0, 64}, {0, 128}, "wgmma (m 0, n 1) of warpgroup 0"},
      // 2x2 warpgroups in MMAv2's N-fastest order, not Hopper's M-fastest.
      {0, 4, {0, 64}, {64, 0}, "wgmma (m 0, n 0) of warpgroup 1"},
  };
  const std::vector<TritonReport> reports = check("tests/data/triton/mma_v3_warpgroups_planted.json");
  REQUIRE(reports.size() == wants.size());
  for (std::size_t i = 0; i < wants.size(); ++i) {
    const TritonReport& r = reports[i];
    const Want& w = wants[i];
    INFO(r.name << ": " << r.message);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find(w.what) != std::string::npos);
    CHECK(r.message.find("another wgmma computes") != std::string::npos);
    REQUIRE(r.counterexample.has_value());
    CHECK(r.counterexample->reg == w.reg);
    CHECK(r.counterexample->lane == 0);
    CHECK(r.counterexample->warp == w.warp);
    CHECK(r.counterexample->coordinate == w.holds);
    CHECK(r.counterexample->ptx == w.lowering);
  }
}

TEST_CASE("triton MMA v3, issue 33: the tie to the wgmma's rows is what refutes, not coverage or order",
          "[triton][wgmma][mistakes]") {
  // Built here from Triton's 4-warpgroup layout (256x64, 16x1 warps): the
  // warpgroups' row blocks permuted by exchanging warp bases 2 and 3 is one
  // permutation of whole 64-row blocks; exchanging them back proves again.
  const std::vector<TritonDotOperand> ops = [] {
    const std::string path = source_path("tests/data/triton/mma_v3_warpgroups.json");
    return read_triton_file(read_file(path), path);
  }();
  TritonDotOperand four = ops.at(2);
  REQUIRE(four.name.find("4 M warpgroups") != std::string::npos);
  REQUIRE(check_triton({four})[0].result == FrameVerdict::proved);
  for (TritonLayout::InDim& d : four.layout.in_dims)
    if (d.name == "warp") std::swap(d.bases.at(2), d.bases.at(3));
  const TritonReport swapped = check_triton({four})[0];
  INFO(swapped.message);
  CHECK(swapped.result == FrameVerdict::refuted);
  CHECK(swapped.message.find("A's rows 64..127") != std::string::npos);
  REQUIRE(swapped.counterexample.has_value());
  CHECK(swapped.counterexample->warp == 4);
  for (TritonLayout::InDim& d : four.layout.in_dims)
    if (d.name == "warp") std::swap(d.bases.at(2), d.bases.at(3));
  CHECK(check_triton({four})[0].result == FrameVerdict::proved);
}

}  // namespace test_triton_mma_v3
