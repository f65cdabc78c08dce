// Port of TVM's test_size_span and test_apply (TileLayout cases on m and
// on the P/F axes), plus replica expansion and apply's input checks.
// Skipped cases: see the top of test_layout_basics.cc.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "tests/test_layout_support.h"

namespace test_layout_apply {

using namespace mmacheck;
using namespace mmacheck::test;

TEST_CASE("size and span (test_size_span)", "[layout]") {
  CHECK(S({8, 8}, {8, 1}).size() == 64);
  CHECK(S({8, 8}, {8, 1}).span() == 64);
  CHECK(S({8, 6}, {8, 1}).span() == 62);
  const TileLayout frag = S({8, 1, 4, 2}, {{4, "laneid"}, 2, {1, "laneid"}, 1});
  CHECK(frag.span() == 2);
  CHECK(frag.size() == 64);
  CHECK(frag.size(Axis::laneid()) == 32);
  CHECK(frag.span(Axis::laneid()) == 32);

  const TileLayout pf = S({8, 8}, {{1, "P"}, {1, "F"}});
  CHECK(pf.size(Axis("P")) == 8);
  CHECK(pf.size(Axis("F")) == 8);
  const TileLayout fpf = S({8, 8, 8}, {{64, "F"}, {1, "P"}, {1, "F"}});
  CHECK(fpf.size(Axis("P")) == 8);
  CHECK(fpf.size(Axis("F")) == 64);
  CHECK(fpf.span(Axis("F")) == 456);
  CHECK(S({8}, {{1, "P"}}).size(Axis("P")) == 8);
  CHECK(S({8}, {{1, "P"}}).size(Axis("F")) == 1);
  CHECK(S({8}, {{1, "F"}}).size(Axis("P")) == 1);
}

TEST_CASE("span counts replicas and offsets on its axis", "[layout]") {
  const TileLayout layout = S({4, 2}, {{2, "laneid"}, 1}, R({2}, {{8, "laneid"}}), {{"laneid", 1}, {"m", 3}});
  CHECK(layout.span(Axis::laneid()) == 1 + 3 * 2 + 8 + 1);
  CHECK(layout.span() == 1 + 1 + 3);
  CHECK(layout.span(Axis::warpid()) == 1);
}

TEST_CASE("apply on row-major and strided layouts (test_apply tile_layout_0-2)", "[layout]") {
  const TileLayout rm = S({8, 8}, {8, 1});
  const TileLayout strided = S({8, 8}, {10, 1});
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 8; ++j) {
      CHECK(at(rm.apply_flat(i * 8 + j), "m") == i * 8 + j);
      CHECK(at(owner_of(rm, {i, j}, {8, 8}), "m") == i * 8 + j);
      CHECK(at(strided.apply_flat(i * 8 + j), "m") == i * 10 + j);
      CHECK(at(owner_of(strided, {i, j}, {8, 8}), "m") == i * 10 + j);
    }
  CHECK_THROWS_AS(rm.apply(std::vector<std::int64_t>{1, 1, 1}, std::vector<std::int64_t>{8, 8}), Error);

  const TileLayout mixed = S({2, 3, 4, 2, 2}, {1, 2, 12, 6, 48});
  for (std::int64_t i0 = 0; i0 < 6; ++i0)
    for (std::int64_t i1 = 0; i1 < 16; ++i1) {
      const std::int64_t expected = (i0 / 3) * 1 + (i0 % 3) * 2 + (i1 / 4) * 12 + ((i1 % 4) / 2) * 6 + (i1 % 2) * 48;
      CHECK(at(owner_of(mixed, {i0, i1}, {6, 16}), "m") == expected);
    }
}

TEST_CASE("apply on a warp fragment (test_apply tile_layout_3)", "[layout]") {
  const TileLayout frag = S({8, 1, 4, 2}, {{4, "laneid"}, 2, {1, "laneid"}, 1});
  for (std::int64_t i0 = 0; i0 < 8; ++i0)
    for (std::int64_t i1 = 0; i1 < 8; ++i1) {
      const Owner o = owner_of(frag, {i0, i1}, {8, 8});
      CHECK(at(o, "m") == i1 % 2);
      CHECK(at(o, "laneid") == i0 * 4 + i1 / 2);
    }
  // The header's example: D[9][3] of the m16n8 accumulator.
  const TileLayout acc = S({2, 8, 4, 2}, {2, {4, "laneid"}, {1, "laneid"}, 1});
  CHECK(acc.apply(std::vector<std::int64_t>{9, 3}, std::vector<std::int64_t>{16, 8}) ==
        std::vector<Owner>{{{Axis::laneid(), 5}, {Axis::m(), 3}}});
}

TEST_CASE("apply on P/F axes (test_apply trainium_layout_0, _1)", "[layout]") {
  const TileLayout fp = S({8, 8}, {{8, "F"}, {1, "P"}});
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 8; ++j) {
      const Owner o = owner_of(fp, {i, j}, {8, 8});
      CHECK(at(o, "P") == j);
      CHECK(at(o, "F") == i * 8);
    }
  const TileLayout mixed = S({2, 6, 4, 2, 2}, {{1, "F"}, {1, "P"}, {12, "F"}, {6, "P"}, {48, "F"}});
  for (std::int64_t i0 = 0; i0 < 12; ++i0)
    for (std::int64_t i1 = 0; i1 < 16; ++i1) {
      const Owner o = owner_of(mixed, {i0, i1}, {12, 16});
      CHECK(at(o, "P") == i0 % 6 + ((i1 % 4) / 2) * 6);
      CHECK(at(o, "F") == (i0 / 6) + (i1 / 4) * 12 + (i1 % 2) * 48);
    }
}

TEST_CASE("apply lists every named axis and adds the offset", "[layout]") {
  const TileLayout layout = S({4, 2}, {{1, "laneid"}, 1}, {}, {{"warpid", 3}, {"m", 8}});
  const std::vector<Owner> owners = layout.apply(std::vector<std::int64_t>{0}, std::vector<std::int64_t>{8});
  CHECK(owners == std::vector<Owner>{{{Axis::laneid(), 0}, {Axis::m(), 8}, {Axis::warpid(), 3}}});
  CHECK(layout.apply_flat(7) == Owner{{Axis::laneid(), 3}, {Axis::m(), 9}, {Axis::warpid(), 3}});
  CHECK_THROWS_AS(layout.apply_flat(8), Error);
  CHECK_THROWS_AS(layout.apply_flat(-1), Error);
}

TEST_CASE("apply expands replicas row-major", "[layout]") {
  const TileLayout layout = S({2}, {1}, R({2, 2}, {{16, "laneid"}, {1, "warpid"}}));
  const std::vector<Owner> owners = layout.apply(std::vector<std::int64_t>{1}, std::vector<std::int64_t>{2});
  REQUIRE(owners.size() == 4);
  const auto owner = [](std::int64_t lane, std::int64_t warp) {
    return Owner{{Axis::laneid(), lane}, {Axis::m(), 1}, {Axis::warpid(), warp}};
  };
  CHECK(owners[0] == owner(0, 0));
  CHECK(owners[1] == owner(0, 1));
  CHECK(owners[2] == owner(16, 0));
  CHECK(owners[3] == owner(16, 1));
}

TEST_CASE("apply checks its shape and coordinate", "[layout]") {
  const TileLayout rm = S({8, 8}, {8, 1});
  using V = std::vector<std::int64_t>;
  CHECK_THROWS_WITH(rm.apply(V{0, 0}, V{8, 4}), Catch::StartsWith("error: apply:") && Catch::Contains("32 elements"));
  CHECK_THROWS_WITH(rm.apply(V{8, 0}, V{8, 8}), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(rm.apply(V{0, -1}, V{8, 8}), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(rm.apply(V{0}, V{8, 8}), Catch::StartsWith("error: apply:"));
  CHECK_THROWS_WITH(rm.apply(V{0, 0}, V{0, 8}), Catch::Contains("non-positive"));
  // Any shape with the right element count is accepted.
  CHECK(at(owner_of(rm, {1, 3}, {2, 32}), "m") == 35);
  CHECK(at(owner_of(rm, {37}, {64}), "m") == 37);
}

}  // namespace test_layout_apply
