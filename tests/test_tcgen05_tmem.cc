// Where tcgen05.mma writes D in TMEM (core/tcgen05/tcgen05_tmem.h): each
// data-path layout fills distinct lanes and columns of its CTA, the points
// CUTLASS's tmem_frg atoms state, and a program's layout of D proves or is
// refuted naming the element for each planted mistake class.
#include <catch2/catch.hpp>

#include <set>
#include <tuple>

#include "core/program/layout_parser.h"
#include "core/tcgen05/tcgen05_tmem.h"

namespace test_tcgen05_tmem {

using namespace mmacheck;

namespace {

TmemCase tmem_case(int cta_group, int m, int n, const std::string& layout, int lane = 0, int col = 0) {
  TmemCase c;
  c.name = "D";
  c.cta_group = cta_group;
  c.m = m;
  c.n = n;
  c.base_lane = lane;
  c.base_col = col;
  c.placement = layout;
  c.placed = tmem_placement(layout_of(parse_layout(layout, "test")), m, n);
  return c;
}

// The correct layout expression for each modelled path (N columns).
std::string correct_layout(int cta_group, int m, int n) {
  const std::string N = std::to_string(n), half = std::to_string(n / 2);
  if (cta_group == 1 && m == 128) return "S[(128, " + N + ") : (1@TLane, 1@TCol)]";
  if (cta_group == 1 && m == 64) return "S[(4, 16, " + N + ") : (32@TLane, 1@TLane, 1@TCol)]";
  if (cta_group == 2 && m == 256) return "S[(2, 128, " + N + ") : (1@cbx, 1@TLane, 1@TCol)]";
  return "S[(2, 64, 2, " + half + ") : (1@cbx, 1@TLane, 64@TLane, 1@TCol)]";
}

}  // namespace

TEST_CASE("tcgen05 TMEM: each data path writes distinct lanes and columns", "[tcgen05][tmem]") {
  for (const DataPathLayout& path : data_path_layouts())
    for (int n : {16, 64, 256}) {
      INFO("cta_group " << path.cta_group << " M " << path.m << " N " << n);
      std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> seen;
      for (int row = 0; row < path.m; ++row)
        for (int col = 0; col < n; ++col) {
          const TmemPosition p = tmem_position(path, n, 0, 0, row, col);
          CHECK(p.cta < path.cta_group);
          CHECK(p.lane >= 0);
          CHECK(p.lane < 128);
          CHECK(p.column >= 0);
          CHECK(p.column < n);
          seen.insert({p.cta, p.lane, p.column});
        }
      CHECK(seen.size() == static_cast<std::size_t>(path.m) * n);
    }
}

TEST_CASE("tcgen05 TMEM: the points CUTLASS's tmem_frg atoms state", "[tcgen05][tmem]") {
  // M = 64, cta_group::1: ((16, 4), N) : ((1, 32), col) — row 16 in lane 32,
  // row 63 in lane 96 + 15; the upper half (lane 16) shifts every row by 16.
  const DataPathLayout& m64 = *find_data_path(1, 64);
  CHECK(tmem_position(m64, 8, 0, 0, 16, 3) == TmemPosition{0, 32, 3});
  CHECK(tmem_position(m64, 8, 0, 0, 63, 7) == TmemPosition{0, 111, 7});
  CHECK(tmem_position(m64, 8, 16, 0, 0, 0) == TmemPosition{0, 16, 0});
  // M = 128, cta_group::2 ("2x2"): (64, (N/2, 2)) : (1, (col, 64 lanes)).
  const DataPathLayout& pair128 = *find_data_path(2, 128);
  CHECK(tmem_position(pair128, 256, 0, 0, 0, 128) == TmemPosition{0, 64, 0});
  CHECK(tmem_position(pair128, 256, 0, 0, 64, 127) == TmemPosition{1, 0, 127});
  // M = 256, cta_group::2: CTA m / 128, lane m % 128.
  CHECK(tmem_position(*find_data_path(2, 256), 64, 0, 32, 200, 5) == TmemPosition{1, 72, 37});
  CHECK(find_data_path(1, 256) == nullptr);
  CHECK(find_data_path(2, 64) == nullptr);
}

TEST_CASE("tcgen05 TMEM: correct layouts prove, each mistake class is refuted at its element", "[tcgen05][tmem]") {
  for (const DataPathLayout& path : data_path_layouts()) {
    const int n = 64;
    INFO("cta_group " << path.cta_group << " M " << path.m);
    const TmemReport good = check_tmem(tmem_case(path.cta_group, path.m, n, correct_layout(path.cta_group, path.m, n)));
    CHECK(good.result == FrameVerdict::proved);
    CHECK(good.message.find("every element") != std::string::npos);
    // Columns swapped: n and n ^ 1 exchanged.
    TmemCase swapped = tmem_case(path.cta_group, path.m, n, correct_layout(path.cta_group, path.m, n));
    for (int row = 0; row < path.m; ++row)
      for (int col = 0; col < n; col += 2)
        std::swap(swapped.placed[std::size_t(row) * n + col], swapped.placed[std::size_t(row) * n + col + 1]);
    const TmemReport s = check_tmem(swapped);
    CHECK(s.result == FrameVerdict::refuted);
    REQUIRE(s.counterexample);
    CHECK(s.counterexample->row == 0);
    CHECK(s.counterexample->col == 0);
    CHECK(s.message.find("D[m=0][n=0] is written to CTA 0 lane 0 column 0 but the layout has it at CTA 0 lane 0 "
                         "column 1 (the column differs;") != std::string::npos);
    CHECK(s.mismatches == path.m * n);
  }
}

TEST_CASE("tcgen05 TMEM: a wrong lane offset per warp is refuted naming the row", "[tcgen05][tmem]") {
  // M = 64 read as if its rows filled lanes 0-63.
  const TmemReport r = check_tmem(tmem_case(1, 64, 32, "S[(64, 32) : (1@TLane, 1@TCol)]"));
  CHECK(r.result == FrameVerdict::refuted);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->row == 16);
  CHECK(r.counterexample->col == 0);
  CHECK(r.message.find("D[m=16][n=0] is written to CTA 0 lane 32 column 0 but the layout has it at CTA 0 lane 16 "
                       "column 0 (the lane differs;") != std::string::npos);
  CHECK(r.mismatches == 48 * 32);
  // The upper half: D at lane 16 proves with the layout 16 lanes on, not without.
  CHECK(check_tmem(tmem_case(1, 64, 8, "S[(4, 16, 8) : (32@TLane, 1@TLane, 1@TCol)] + 16@TLane", 16)).result ==
        FrameVerdict::proved);
  CHECK(check_tmem(tmem_case(1, 64, 8, "S[(4, 16, 8) : (32@TLane, 1@TLane, 1@TCol)]", 16)).result ==
        FrameVerdict::refuted);
  // M = 128 only from lane 0.
  const TmemReport lane = check_tmem(tmem_case(1, 128, 8, "S[(128, 8) : (1@TLane, 1@TCol)]", 16));
  CHECK(lane.result == FrameVerdict::refuted);
  CHECK(lane.message.find("lane must be 0") != std::string::npos);
  // Columns outside TMEM's 512.
  CHECK(check_tmem(tmem_case(1, 128, 256, correct_layout(1, 128, 256) + " + 300@TCol", 0, 300))
            .message.find("do not fit") != std::string::npos);
  // A column base offset moves every column.
  CHECK(check_tmem(tmem_case(1, 128, 8, "S[(128, 8) : (1@TLane, 1@TCol)] + 40@TCol", 0, 40)).result ==
        FrameVerdict::proved);
}

TEST_CASE("tcgen05 TMEM: the pair's CTA and column halves", "[tcgen05][tmem]") {
  // M = 256 without the CTA: rows 128.. land in CTA 0's lanes 128.. .
  const TmemReport cta = check_tmem(tmem_case(2, 256, 16, "S[(256, 16) : (1@TLane, 1@TCol)]"));
  CHECK(cta.result == FrameVerdict::refuted);
  REQUIRE(cta.counterexample);
  CHECK(cta.counterexample->row == 128);
  CHECK(cta.message.find("the CTA and the lane differ;") != std::string::npos);
  // M = 128 pair read as M = 256's (all N columns in lanes 0-63).
  const TmemReport halves = check_tmem(tmem_case(2, 128, 32, "S[(2, 64, 32) : (1@cbx, 1@TLane, 1@TCol)]"));
  CHECK(halves.result == FrameVerdict::refuted);
  REQUIRE(halves.counterexample);
  CHECK(halves.counterexample->row == 0);
  CHECK(halves.counterexample->col == 16);
  CHECK(halves.message.find("lane 64 column 0") != std::string::npos);
}

TEST_CASE("tcgen05 TMEM: a 16-bit D takes a column an element, in its low half (TCol in 16-bit units)",
          "[tcgen05][tmem]") {
  const auto f16 = [](int m, const std::string& layout, int col = 0) {
    TmemCase c = tmem_case(1, m, 8, layout, 0, col);
    c.d_bits = 16;
    return check_tmem(c);
  };
  // TIRx's layouts (stride 2 on TCol), at M = 128 and 64, and from column 4.
  CHECK(f16(128, "S[(128, 8) : (1@TLane, 2@TCol)]").result == FrameVerdict::proved);
  CHECK(f16(64, "S[(4, 16, 8) : (32@TLane, 1@TLane, 2@TCol)]").result == FrameVerdict::proved);
  CHECK(f16(128, "S[(128, 8) : (1@TLane, 2@TCol)] + 8@TCol", 4).result == FrameVerdict::proved);
  // Packed two to a column: D[0][1] in column 0's high half.
  const TmemReport packed = f16(128, "S[(128, 8) : (1@TLane, 1@TCol)]");
  CHECK(packed.result == FrameVerdict::refuted);
  CHECK(packed.message.find("D[m=0][n=1] is written to CTA 0 lane 0 column 1 but the layout has it at CTA 0 lane 0 "
                            "column 0, high 16 bits (the column and the half of the column differ") !=
        std::string::npos);
  // Every element in the high half of its own column.
  const TmemReport high = f16(128, "S[(128, 8) : (1@TLane, 2@TCol)] + 1@TCol");
  CHECK(high.result == FrameVerdict::refuted);
  CHECK(high.mismatches == 128 * 8);
  CHECK(high.message.find("(the half of the column differs") != std::string::npos);
  // Read as if TCol counted 32-bit columns: every other column.
  CHECK(f16(128, "S[(128, 8) : (1@TLane, 4@TCol)]").result == FrameVerdict::refuted);
}

TEST_CASE("tcgen05 TMEM: what is not modelled is unchecked; other axes are refused", "[tcgen05][tmem]") {
  TmemCase f64 = tmem_case(1, 128, 8, "S[(128, 8) : (1@TLane, 1@TCol)]");
  f64.d_bits = 64;
  CHECK(check_tmem(f64).result == FrameVerdict::unchecked);
  CHECK_THROWS_WITH(tmem_case(1, 128, 8, "S[(128, 8) : (1@laneid, 1@TCol)]"), Catch::Contains("names laneid"));
  CHECK_THROWS_WITH(tmem_case(1, 128, 8, "S[(64, 8) : (1@TLane, 1@TCol)]"), Catch::Contains("D is 128 x 8"));
}

}  // namespace test_tcgen05_tmem
