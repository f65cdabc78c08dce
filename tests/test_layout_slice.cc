// Port of TVM's test_slice (TileLayout cases), the constant forms of its
// slice regressions and test_slice_tcgen05_frag_layout_scope_consistent,
// plus the cases slice cannot express.  Skipped cases: see the top of
// test_layout_basics.cc.
#include <algorithm>
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "tests/test_layout_support.h"

namespace test_layout_slice {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// TVM's verify_slice: every element of the region has the same owners in
// the sliced layout (over the region's shape) as in the original.
void verify_slice(const TileLayout& layout, const Shape& shape, const Region& region, Target target = Target::none) {
  const std::optional<TileLayout> sliced = layout.slice(shape, region, target);
  INFO(layout.str());
  REQUIRE(sliced.has_value());
  INFO("sliced: " << sliced->str());
  Shape r_shape;
  for (const auto& [begin, end] : region) r_shape.push_back(end - begin);
  for (const auto& r : all_coords(r_shape)) {
    Shape s = r;
    for (std::size_t d = 0; d < s.size(); ++d) s[d] += region[d].first;
    const Owner want = owner_of(layout, s, shape);
    const Owner got = owner_of(*sliced, r, r_shape);
    for (const auto& [axis, value] : want) CHECK(owner_coord(got, axis) == value);
    for (const auto& [axis, value] : got) CHECK(owner_coord(want, axis) == value);
  }
}

}  // namespace

TEST_CASE("slice keeps owners (test_slice case1-case4)", "[layout]") {
  verify_slice(S({8, 8}, {8, 1}), {64}, {{5, 8}});
  CHECK(S({8, 8}, {8, 1}).slice({64}, {{5, 8}}) == S({3}, {1}, {}, {{"m", 5}}));
  // The range crosses the middle of an iter: two pieces.
  verify_slice(S({4, 4, 4, 4}, {64, 4, 16, 1}), {16, 16}, {{2, 3}, {6, 10}});
  CHECK(S({4, 4, 4, 4}, {64, 4, 16, 1}).slice({16, 16}, {{2, 3}, {6, 10}}) ==
        S({1, 2, 2}, {4, 14, 1}, {}, {{"m", 26}}));
  verify_slice(S({2, 8, 3, 8}, {192, 8, 64, 1}), {16, 24}, {{2, 6}, {4, 12}});
  verify_slice(S({128, 2, 64}, {64, 128 * 64, 1}), {128, 128}, {{0, 128}, {32, 96}});
}

TEST_CASE("slice adds the region start to an existing offset", "[layout]") {
  const TileLayout layout = S({4, 64}, {64, 1}, {}, {{"m", 3 * 64}});
  const std::optional<TileLayout> sliced = layout.slice({4, 64}, {{2, 4}, {0, 64}});
  REQUIRE(sliced.has_value());
  CHECK(sliced->canonicalize().offset() == Offset{{Axis::m(), 3 * 64 + 128}});
  verify_slice(layout, {4, 64}, {{2, 4}, {0, 64}});
}

TEST_CASE("slice of single-iter groups (test_slice_single_shard_skips_defensive_floormod)", "[layout]") {
  const TileLayout stages = S({3, 128, 128}, {16384, 128, 1});
  const std::optional<TileLayout> sliced = stages.slice({3, 128, 128}, {{2, 3}, {0, 128}, {0, 128}});
  REQUIRE(sliced.has_value());
  CHECK(sliced->canonicalize() == S({16384}, {1}, {}, {{"m", 2 * 16384}}));
  verify_slice(TileLayout({Iter{2, 8192, Axis::m()}, Iter{128, 64, Axis::m()}}), {256}, {{96, 128}});
}

TEST_CASE("slice of a tcgen05 fragment stays one tid_in_wg chain under CUDA", "[layout]") {
  const TileLayout frag = S({4, 2, 2, 8, 4, 4, 2}, {{1, "wid_in_wg"}, 16, 2, {4, "laneid"}, 4, {1, "laneid"}, 1});
  for (const Region& region : {Region{{0, 128}, {0, 32}}, Region{{0, 128}, {16, 32}}}) {
    const std::optional<TileLayout> sliced = frag.slice({128, 32}, region, Target::cuda);
    REQUIRE(sliced.has_value());
    const TileLayout canon = sliced->canonicalize(Target::cuda);
    INFO(canon.str());
    std::vector<std::pair<std::int64_t, std::int64_t>> chain;  // (stride, extent)
    for (const Iter& it : canon.shard())
      if (it.axis.is_thread()) {
        CHECK(it.axis == Axis("tid_in_wg"));
        chain.emplace_back(it.stride, it.extent);
      }
    std::sort(chain.begin(), chain.end());
    std::int64_t running = 1;
    for (const auto& [stride, extent] : chain) {
      CHECK(stride == running);
      running *= extent;
    }
    CHECK(running == 128);
  }
}

TEST_CASE("slice of a column-major group: two pieces or nothing", "[layout]") {
  const TileLayout col = S({4, 4}, {1, 4});
  verify_slice(col, {16}, {{1, 7}});
  CHECK(col.slice({16}, {{1, 7}}) == S({2, 3}, {-3, 4}, {}, {{"m", 4}}));
  verify_slice(col, {16}, {{4, 12}});
  CHECK_FALSE(col.slice({16}, {{1, 6}}).has_value());  // odd length across an iter end
  CHECK_FALSE(col.slice({16}, {{1, 9}}).has_value());  // crosses off the midpoint
}

TEST_CASE("slice on thread layouts moves the start onto thread axes", "[layout]") {
  const TileLayout acc = S({2, 8, 4, 2}, {2, {4, "laneid"}, {1, "laneid"}, 1});
  verify_slice(acc, {16, 8}, {{8, 16}, {0, 8}});
  verify_slice(acc, {16, 8}, {{0, 16}, {4, 8}});
  const std::optional<TileLayout> lower = acc.slice({16, 8}, {{8, 16}, {0, 8}});
  REQUIRE(lower.has_value());
  CHECK(lower->canonicalize() == S({32, 2}, {{1, "laneid"}, 1}, {}, {{"m", 2}}));
}

TEST_CASE("slice rejects bad regions", "[layout]") {
  const TileLayout rm = S({8, 8}, {8, 1});
  CHECK_THROWS_WITH(rm.slice({8, 8}, {{0, 8}}), Catch::StartsWith("error: slice:"));
  CHECK_THROWS_WITH(rm.slice({8, 8}, {{0, 9}, {0, 8}}), Catch::StartsWith("error: slice:"));
  CHECK_THROWS_WITH(rm.slice({8, 8}, {{3, 3}, {0, 8}}), Catch::StartsWith("error: slice:"));
  CHECK_THROWS_WITH(rm.slice({8, 8}, {{-1, 3}, {0, 8}}), Catch::StartsWith("error: slice:"));
  CHECK_THROWS_WITH(rm.slice({4, 4}, {{0, 4}, {0, 4}}), Catch::Contains("can not be grouped"));
}

}  // namespace test_layout_slice
