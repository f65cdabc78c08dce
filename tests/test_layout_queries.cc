// The layout queries the `layout` command prints (core/layout/named_axes.h,
// owner_map.h, lane_table.h) and the one spelling of shapes in messages
// (core/layout/shape_text.h), checked as library calls: the accumulator
// fragment against tile_layout.h's closed form, replicas, the thread-axis
// order, the lane filter and each error.
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <vector>

#include "core/base/error.h"
#include "core/layout/lane_table.h"
#include "core/layout/named_axes.h"
#include "core/layout/owner_map.h"
#include "core/layout/shape_text.h"
#include "tests/test_layout_support.h"

namespace test_layout_queries {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// The m16n8 accumulator fragment: D[r][c] in lane 4*(r%8) + c/2, slot 2*(r/8) + c%2.
TileLayout accumulator() { return S({2, 8, 4, 2}, {2, {4, "laneid"}, {1, "laneid"}, 1}); }

Owner lane_slot(std::int64_t lane, std::int64_t slot) { return {{Axis::laneid(), lane}, {Axis::m(), slot}}; }

}  // namespace

TEST_CASE("shapes and coordinates have one spelling each", "[layout][text]") {
  const Shape two{16, 8}, one{16}, none{}, negative{-3, 0};
  CHECK(list_text(two) == "[16, 8]");
  CHECK(list_text(one) == "[16]");
  CHECK(list_text(none) == "[]");
  CHECK(list_text(std::vector<int>{0, 2, 5}) == "[0, 2, 5]");
  CHECK(tuple_text(two) == "(16, 8)");
  CHECK(tuple_text(one) == "(16,)");
  CHECK(tuple_text(none) == "()");
  CHECK(coord_text(two) == "(16, 8)");
  CHECK(coord_text(one) == "(16)");
  CHECK(coord_text(negative) == "(-3, 0)");
  CHECK(joined_text(two) == "16, 8");
  CHECK(joined_text(none).empty());
}

TEST_CASE("named_axes collects the shard's, the replica's and the offset's axes by name", "[layout][query]") {
  const TileLayout layout = S({16, 2}, {{1, "laneid"}, 1}, R({2}, {{1, "warpid"}}), {{"P", 4}});
  CHECK(named_axes(layout) == std::set<Axis>{Axis("P"), Axis::laneid(), Axis::m(), Axis::warpid()});
  CHECK(named_axes(S({8}, {1})) == std::set<Axis>{Axis::m()});
  // A zero offset still names its axis: owners list it as 0.
  CHECK(named_axes(S({8}, {1}, {}, {{"warpid", 0}})) == std::set<Axis>{Axis::m(), Axis::warpid()});
}

TEST_CASE("owner_map gives every element of the accumulator fragment its lane and slot", "[layout][query]") {
  const Shape shape{16, 8};
  const std::vector<ElementOwners> map = owner_map(accumulator(), shape, "--shape", 1 << 22);
  REQUIRE(map.size() == 128);
  for (std::int64_t r = 0; r < 16; ++r)
    for (std::int64_t c = 0; c < 8; ++c) {
      const ElementOwners& e = map[static_cast<std::size_t>(r * 8 + c)];
      INFO("D[" << r << "][" << c << "]");
      CHECK(e.coord == Shape{r, c});
      CHECK(e.owners == std::vector<Owner>{lane_slot(4 * (r % 8) + c / 2, 2 * (r / 8) + c % 2)});
    }
}

TEST_CASE("owner_map lists replicas in order and every named axis, zeros included", "[layout][query]") {
  const TileLayout replicated = S({16, 2}, {{1, "laneid"}, 1}, R({2}, {{16, "laneid"}}), {{"m", 4}});
  const std::vector<ElementOwners> map = owner_map(replicated, {16, 2}, "--shape", 64);
  REQUIRE(map.size() == 32);
  CHECK(map[3].coord == Shape{1, 1});
  CHECK(map[3].owners == std::vector<Owner>{lane_slot(1, 5), lane_slot(17, 5)});
  // Over warps: warpid 0 is listed, not left out; no m, since the layout names none.
  const std::vector<ElementOwners> warps = owner_map(S({2, 4}, {{1, "warpid"}, {1, "laneid"}}), {8}, "--shape", 8);
  CHECK(warps[1].owners == std::vector<Owner>{{{Axis::laneid(), 1}, {Axis::warpid(), 0}}});
  CHECK(warps[5].owners == std::vector<Owner>{{{Axis::laneid(), 1}, {Axis::warpid(), 1}}});
}

TEST_CASE("owner_map refuses a shape of another size, a bad extent and a map over its bound", "[layout][query]") {
  const TileLayout layout = accumulator();
  CHECK_THROWS_WITH(owner_map(layout, {16, 16}, "--shape", 1 << 22),
                    "error: --shape [16, 16] has 256 elements but the layout covers 128");
  CHECK_THROWS_WITH(owner_map(layout, {16, 8}, "buffer 'D'", 127),
                    "error: buffer 'D': the map would list more than 127 owners");
  CHECK(owner_map(layout, {16, 8}, "buffer 'D'", 128).size() == 128);
  CHECK_THROWS_WITH(owner_map(layout, {-16, -8}, "--shape", 1 << 22),
                    "error: --shape [-16, -8] has a non-positive extent");
  CHECK_THROWS_WITH(owner_map(layout, {std::int64_t{1} << 40, std::int64_t{1} << 40}, "--shape", 1 << 22),
                    Catch::Contains("has more than 2^63 elements"));
  // Replicas count: 8 elements with 2 owners each are 16 owners.
  const TileLayout replicated = S({8}, {{1, "laneid"}}, R({2}, {{8, "laneid"}}));
  CHECK_THROWS_WITH(owner_map(replicated, {8}, "--shape", 15), Catch::Contains("more than 15 owners"));
  CHECK(owner_map(replicated, {8}, "--shape", 16).size() == 8);
  const TileLayout huge_replica = S({8}, {1}, R({std::int64_t{1} << 62, 4}, {{1, "laneid"}, {1, "warpid"}}));
  CHECK_THROWS_WITH(owner_map(huge_replica, {8}, "--shape", 1 << 22), Catch::Contains("more than 4194304 owners"));
}

TEST_CASE("lane_table turns the map around: one row per lane, one column per slot", "[layout][query]") {
  const TileLayout layout = accumulator();
  const std::set<Axis> axes = named_axes(layout);
  const std::vector<ElementOwners> map = owner_map(layout, {16, 8}, "--shape", 1 << 22);
  const LaneTable five = lane_table(map, axes, 5);
  CHECK(five.thread_axes == std::vector<Axis>{Axis::laneid()});
  CHECK(five.memory_axes == std::vector<Axis>{Axis::m()});
  using Row = std::map<std::vector<std::int64_t>, std::vector<Shape>>;
  CHECK(five.rows == std::map<std::vector<std::int64_t>, Row>{
                         {{5}, Row{{{0}, {{1, 2}}}, {{1}, {{1, 3}}}, {{2}, {{9, 2}}}, {{3}, {{9, 3}}}}}});
  // Without a lane: every lane holds 4 slots and every element sits in exactly one cell.
  const LaneTable all = lane_table(map, axes);
  REQUIRE(all.rows.size() == 32);
  std::set<Shape> seen;
  for (const auto& [thread, slots] : all.rows) {
    CHECK(slots.size() == 4);
    for (const auto& [slot, coords] : slots)
      for (const Shape& c : coords) CHECK(seen.insert(c).second);
  }
  CHECK(seen.size() == 128);
}

TEST_CASE("lane_table orders thread axes outer scope first and filters lanes of tx", "[layout][query]") {
  const TileLayout warps = S({2, 4}, {{1, "warpid"}, {1, "laneid"}});
  const LaneTable t = lane_table(owner_map(warps, {8}, "--shape", 8), named_axes(warps), 1);
  CHECK(t.thread_axes == std::vector<Axis>{Axis::warpid(), Axis::laneid()});
  CHECK(t.memory_axes.empty());
  using Row = std::map<std::vector<std::int64_t>, std::vector<Shape>>;
  CHECK(t.rows == std::map<std::vector<std::int64_t>, Row>{{{0, 1}, Row{{{}, {{1}}}}}, {{1, 1}, Row{{{}, {{5}}}}}});
  // tx numbers the CTA's threads: lane 3 is tx 3 and tx 35.
  const TileLayout cta = S({64}, {{1, "tx"}});
  const LaneTable three = lane_table(owner_map(cta, {64}, "--shape", 64), named_axes(cta), 3);
  CHECK(three.rows == std::map<std::vector<std::int64_t>, Row>{{{3}, Row{{{}, {{3}}}}}, {{35}, Row{{{}, {{35}}}}}});
  // A lane that holds nothing gives no rows (the command reports it).
  const TileLayout half = S({16}, {{1, "laneid"}});
  CHECK(lane_table(owner_map(half, {16}, "--shape", 16), named_axes(half), 20).rows.empty());
}

}  // namespace test_layout_queries
