// Bad input to the layout algebra is an Error naming the operation, never a
// crash: extents, overflow, permutations, shapes.
#include <catch2/catch.hpp>
#include <limits>

#include "core/base/error.h"
#include "core/program/layout_parser.h"
#include "tests/test_layout_support.h"

namespace test_layout_errors {

using namespace mmacheck;
using namespace mmacheck::test;

TEST_CASE("non-positive extents are rejected when a layout is built", "[layout]") {
  CHECK_THROWS_WITH(S({0}, {1}), Catch::Contains("extent must be positive, got 0"));
  CHECK_THROWS_WITH(S({4, -2}, {1, 1}), Catch::Contains("extent must be positive, got -2"));
  CHECK_THROWS_WITH(S({4}, {1}, R({0}, {{1, "laneid"}})), Catch::Contains("extent must be positive, got 0"));
  CHECK_THROWS_WITH(TileLayout::row_major({8, 0}), Catch::Contains("extent must be positive"));
  // Zero and negative strides are legal (broadcast, reversed).
  CHECK_NOTHROW(S({4, 4}, {0, -1}));
}

TEST_CASE("int64 overflow is an error", "[layout]") {
  const std::int64_t big = std::int64_t{1} << 40;
  CHECK_THROWS_WITH(S({big, big}, {1, 1}), Catch::Contains("overflows int64"));
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max() / 2;
  CHECK_THROWS_WITH(S({4}, {huge}).span(), Catch::Contains("span") && Catch::Contains("overflows"));
  // Scaling the outer strides by the inner span overflows.
  CHECK_THROWS_WITH(S({2}, {huge}).tile(S({4}, {huge / 2}), {4}, {2}), Catch::Contains("overflows int64"));
}

TEST_CASE("errors name their operation", "[layout]") {
  const TileLayout rm = S({8, 8}, {8, 1});
  using V = std::vector<std::int64_t>;
  CHECK_THROWS_WITH(rm.group({3, 5}), Catch::StartsWith("error: layout S[(8, 8) : (8, 1)] can not be grouped"));
  CHECK_THROWS_WITH(rm.permute_dims(std::vector<int>{0, 0}), Catch::StartsWith("error: permute_dims:"));
  CHECK_THROWS_WITH(rm.group({8, 8}).permute_by_groups(std::vector<int>{2, 0}),
                    Catch::StartsWith("error: permute_by_groups:"));
  CHECK_THROWS_WITH(rm.apply(V{0, 0}, V{4, 4}), Catch::StartsWith("error: apply:"));
  CHECK_THROWS_WITH(rm.tile_to({9, 8}, {8, 8}), Catch::StartsWith("error: tile_to:"));
  CHECK_THROWS_WITH(rm.tile(rm, {8}, {8, 8}), Catch::StartsWith("error: tile:"));
  CHECK_THROWS_WITH(rm.slice({8, 8}, {{0, 0}, {0, 8}}), Catch::StartsWith("error: slice:"));
  // The tile's grouping failure names the layout that could not be grouped.
  CHECK_THROWS_WITH(S({3, 4}, {1, 3}).tile(rm, {8, 8}, {2, 6}), Catch::Contains("can not be grouped by shape [2, 6]"));
}

TEST_CASE("errors carry no location, callers add one", "[layout]") {
  try {
    S({16}, {1}).group({3, 5});
    FAIL("group did not throw");
  } catch (const Error& e) {
    CHECK_FALSE(e.loc().known());
    CHECK(e.located(SourceLoc{"f.txt", 3, 7}).loc().line == 3);
  }
}

TEST_CASE("a replica-only layout with billions of replicas is an error, not an allocation", "[layout]") {
  // Found by fuzz_layout_expr: R[9223372036 : 54775807] reserved 9e9 owners.
  const LayoutValue huge_value = parse_layout("R[9223372036 : 54775807]", "<t>");
  const TileLayout& huge = layout_of(huge_value);
  CHECK_THROWS_WITH(huge.apply(std::vector<std::int64_t>{0}, std::vector<std::int64_t>{1}),
                    Catch::Contains("more than 65536 owners"));
  const LayoutValue fine_value = parse_layout("R[4 : 1@laneid]", "<t>");
  const TileLayout& fine = layout_of(fine_value);
  CHECK(fine.apply(std::vector<std::int64_t>{0}, std::vector<std::int64_t>{1}).size() == 4);
}

}  // namespace test_layout_errors
