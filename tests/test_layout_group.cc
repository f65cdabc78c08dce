// Port of TVM's test_group_by_logical_shape, test_permute_by_groups and
// test_apply_to_shape (whose per-dim split is group()'s separators), plus
// group's splitting and failure cases.  Skipped cases: see the top of
// test_layout_basics.cc.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "tests/test_layout_support.h"

namespace test_layout_group {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {
TileLayout tiled_8x8() {
  const TileLayout rm8 = S({8, 8}, {8, 1});
  return rm8.tile(rm8, {8, 8}, {8, 8});
}
}  // namespace

TEST_CASE("group by a logical shape (test_group_by_logical_shape)", "[layout]") {
  const TileLayout layout = tiled_8x8();
  const GroupedLayout grouped = layout.group({64, 64});
  CHECK(grouped.layout() == layout);
  CHECK(grouped.seps() == std::vector<int>{0, 2, 4});
  CHECK(grouped.groups() == 2);
  CHECK(grouped.group(1).size() == 2);
  CHECK(grouped.group(1)[0] == Iter{8, 64, Axis::m()});
}

TEST_CASE("group splits iters at prefix boundaries", "[layout]") {
  const GroupedLayout g = S({4, 8}, {8, 1}).group({8, 4});
  CHECK(g.layout() == S({4, 2, 4}, {8, 4, 1}));
  CHECK(g.seps() == std::vector<int>{0, 2, 3});

  const GroupedLayout one = S({16}, {1}).group({4, 4});
  CHECK(one.layout() == S({4, 4}, {4, 1}));

  // Unit dims become unit iters carrying the stride of where they sit.
  const GroupedLayout unit = S({8}, {1}).group({1, 8});
  CHECK(unit.layout() == S({1, 8}, {8, 1}));
  CHECK(unit.seps() == std::vector<int>{0, 1, 2});

  // Unit iters of the layout vanish unless a dim needs them.
  CHECK(S({2, 1, 4}, {4, 3, 1}).group({8}).layout() == S({2, 4}, {4, 1}));

  // Replicas and offsets ride along, and group does not canonicalize.
  const TileLayout with_extras = S({8, 4}, {{4, "laneid"}, {1, "laneid"}}, R({2}, {{1, "warpid"}}), {{"m", 3}});
  const GroupedLayout ge = with_extras.group({8, 4});
  CHECK(ge.layout() == with_extras);
}

TEST_CASE("group keeps meaning", "[layout]") {
  const TileLayout layout = S({2, 8, 4, 2}, {2, {4, "laneid"}, {1, "laneid"}, 1});
  for (const Shape& shape : {Shape{16, 8}, Shape{2, 64}, Shape{4, 4, 8}, Shape{128}}) {
    const TileLayout grouped = layout.group(shape).layout();
    for (std::int64_t i = 0; i < layout.size(); ++i) CHECK(grouped.apply_flat(i) == layout.apply_flat(i));
  }
}

TEST_CASE("group that cannot split throws, naming the layout and shape", "[layout]") {
  CHECK(error_of([] { S({16}, {1}).group({3, 5}); }) == "layout S[16 : 1] can not be grouped by shape [3, 5]");
  // Sizes differ.
  CHECK_THROWS_WITH(S({16}, {1}).group({4}), Catch::Contains("can not be grouped"));
  CHECK_THROWS_WITH(S({16}, {1}).group({4, 8}), Catch::Contains("can not be grouped"));
  // The boundary after 2 elements falls inside the extent-3 iter.
  CHECK_THROWS_WITH(S({3, 4}, {4, 1}).group({2, 6}), Catch::Contains("can not be grouped"));
  CHECK_THROWS_WITH(S({16}, {1}).group({0, 16}),
                    Catch::StartsWith("error: group:") && Catch::Contains("extent must be positive"));
}

TEST_CASE("permute_by_groups (test_permute_by_groups)", "[layout]") {
  const GroupedLayout grouped = tiled_8x8().group({64, 64});
  const std::vector<int> swap{1, 0};
  const std::vector<int> flat{2, 3, 0, 1};
  CHECK(grouped.permute_by_groups(swap) == grouped.layout().permute_dims(flat));
  CHECK(grouped.permute_by_groups(swap) == S({8, 8, 8, 8}, {64, 1, 512, 8}));
  const std::vector<int> identity{0, 1};
  CHECK(grouped.permute_by_groups(identity) == grouped.layout());
  const std::vector<int> repeated{0, 0};
  CHECK_THROWS_WITH(grouped.permute_by_groups(repeated), Catch::StartsWith("error: permute_by_groups:"));
  const std::vector<int> short_perm{0};
  CHECK_THROWS_AS(grouped.permute_by_groups(short_perm), Error);
}

TEST_CASE("DESIGN's A_KM: the A fragment with its dims swapped", "[layout]") {
  const TileLayout a = S({2, 8, 4, 2}, {2, {4, "laneid"}, {1, "laneid"}, 1}).tile_to({16, 16}, {16, 8});
  const std::vector<int> swap{1, 0};
  const TileLayout km = a.group({16, 16}).permute_by_groups(swap);
  // Element (k, m) of the transposed view is element (m, k) of A.
  for (const auto& c : all_coords({16, 16})) CHECK(owner_of(km, {c[1], c[0]}, {16, 16}) == owner_of(a, c, {16, 16}));
}

TEST_CASE("permute_dims checks its permutation", "[layout]") {
  const TileLayout layout = S({2, 3, 4}, {12, 4, 1});
  const std::vector<int> rev{2, 1, 0};
  CHECK(layout.permute_dims(rev) == S({4, 3, 2}, {1, 4, 12}));
  for (const std::vector<int>& bad :
       {std::vector<int>{0, 1}, std::vector<int>{0, 1, 1}, std::vector<int>{0, 1, 3}, std::vector<int>{-1, 0, 1}})
    CHECK_THROWS_WITH(layout.permute_dims(bad), Catch::StartsWith("error: permute_dims:"));
}

TEST_CASE("GroupedLayout validates its separators", "[layout]") {
  const TileLayout layout = S({2, 3, 4}, {12, 4, 1});
  CHECK_NOTHROW(GroupedLayout(layout, {0, 1, 3}));
  CHECK_THROWS_AS(GroupedLayout(layout, {0, 2}), Error);
  CHECK_THROWS_AS(GroupedLayout(layout, {1, 3}), Error);
  CHECK_THROWS_AS(GroupedLayout(layout, {0, 2, 1, 3}), Error);
  CHECK_THROWS_AS(GroupedLayout(layout, {}), Error);
  CHECK_THROWS_AS(GroupedLayout(layout, {0, 3}).group(1), Error);
}

TEST_CASE("per-dim split through group (test_apply_to_shape)", "[layout]") {
  // One shard per dim: each coordinate passes through.
  CHECK(TileLayout::row_major({16, 16}).group({16, 16}).seps() == std::vector<int>{0, 1, 2});
  // Dim 1 split into (4, 4): the second group holds two iters.
  const TileLayout lay2 = S({16, 4, 4}, {16, 4, 1});
  CHECK(lay2.group({16, 16}).seps() == std::vector<int>{0, 1, 3});
  CHECK(at(owner_of(lay2, {5, 7}, {16, 16}), "m") == 5 * 16 + (7 / 4) * 4 + 7 % 4);
  // Both dims split.
  const TileLayout lay3 = S({4, 4, 4, 4}, {64, 16, 4, 1});
  CHECK(lay3.group({16, 16}).seps() == std::vector<int>{0, 2, 4});
  CHECK(at(owner_of(lay3, {13, 9}, {16, 16}), "m") == (13 / 4) * 64 + (13 % 4) * 16 + (9 / 4) * 4 + 9 % 4);
}

}  // namespace test_layout_group
