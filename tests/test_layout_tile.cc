// Port of TVM's test_tile_layout, test_shard_layout, test_tile_to and
// test_storage (the tile() halves; is_tile_inner/outer are not in the
// mmacheck API), the acceptance case, and a brute-force check of
// what tile() means.  Skipped cases: see the top of test_layout_basics.cc.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "tests/test_layout_support.h"

namespace test_layout_tile {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// What inner.tile(outer, ...) must do, element by element: the tile index
// o = c / inner_shape goes through `outer` with its shard values scaled by
// the inner span on axes the inner shard uses, the position i = c %
// inner_shape through `inner`, and the two owners add.
void check_tile_meaning(const TileLayout& inner, const TileLayout& outer, const Shape& outer_shape,
                        const Shape& inner_shape) {
  const TileLayout tiled = inner.tile(outer, outer_shape, inner_shape);
  INFO(inner.str() << " tiled by " << outer.str() << " = " << tiled.str());
  REQUIRE(outer.replica().empty());
  REQUIRE(inner.replica().empty());
  REQUIRE(outer.offset().empty());
  Shape full;
  for (std::size_t d = 0; d < outer_shape.size(); ++d) full.push_back(outer_shape[d] * inner_shape[d]);
  for (const auto& c : all_coords(full)) {
    Shape o, i;
    for (std::size_t d = 0; d < c.size(); ++d) {
      o.push_back(c[d] / inner_shape[d]);
      i.push_back(c[d] % inner_shape[d]);
    }
    Owner expected = owner_of(inner, i, inner_shape);
    for (const auto& [axis, value] : owner_of(outer, o, outer_shape)) {
      bool inner_uses = false;
      for (const Iter& it : inner.shard()) inner_uses |= it.axis == axis && it.extent > 1;
      expected[axis] += inner_uses ? value * inner.span(axis) : value;
    }
    const Owner actual = owner_of(tiled, c, full);
    for (const char* axis : {"m", "laneid", "warpid"}) CHECK(at(actual, axis) == at(expected, axis));
  }
}

}  // namespace

TEST_CASE("tile of memory layouts (test_tile_layout case1-case4)", "[layout]") {
  CHECK(S({8}, {1}).tile(S({8}, {1}), {8}, {8}) == S({64}, {1}));
  const TileLayout rm8 = S({8, 8}, {8, 1});
  CHECK(rm8.tile(rm8, {8, 8}, {8, 8}) == S({8, 8, 8, 8}, {512, 8, 64, 1}));
  CHECK(S({2, 4}, {1, 2}).tile(rm8, {8, 8}, {2, 4}) == S({8, 2, 32}, {64, 1, 2}));
  CHECK(S({4, 2, 2, 4}, {16, 8, 1, 2}).tile(rm8, {8, 8}, {8, 8}) ==
        S({8, 4, 2, 8, 2, 4}, {512, 16, 8, 64, 1, 2}).canonicalize());
}

TEST_CASE("tile over sharded layouts (test_tile_layout case5, case6)", "[layout]") {
  const TileLayout rm8 = S({8, 8}, {8, 1});
  CHECK(S({8, 1, 4, 2}, {{4, "laneid"}, 2, {1, "laneid"}, 1}).tile(rm8, {8, 8}, {8, 8}) ==
        S({8, 8, 1, 8, 4, 2}, {16, {4, "laneid"}, 2, 2, {1, "laneid"}, 1}).canonicalize());
  CHECK(S({8, 4}, {{4, "laneid"}, {1, "laneid"}}).tile(rm8, {8, 8}, {8, 4}) ==
        S({8, 8, 8, 4}, {8, {4, "laneid"}, 1, {1, "laneid"}}));
}

TEST_CASE("tile means what TVM says (test_tile_layout case1-case12 layouts)", "[layout]") {
  check_tile_meaning(S({2, 4}, {1, 2}), S({8, 8}, {8, 1}), {8, 8}, {2, 4});
  check_tile_meaning(S({4, 2, 2, 4}, {16, 8, 1, 2}), S({8, 8}, {8, 1}), {8, 8}, {8, 8});
  check_tile_meaning(S({8, 1, 4, 2}, {{4, "laneid"}, 2, {1, "laneid"}, 1}), S({8, 8}, {8, 1}), {8, 8}, {8, 8});
  check_tile_meaning(S({2, 4, 1}, {2, 3, 1}), S({4, 2, 1}, {2, 1, 1}), {4, 2}, {2, 4});
  check_tile_meaning(S({2, 4}, {4, 1}), S({8, 2}, {2, 1}), {8, 2}, {2, 4});
  check_tile_meaning(S({2, 1, 1}, {4, 3, 1}), S({8, 4, 1}, {4, 1, 4}), {8, 4}, {2, 1});
  check_tile_meaning(S({1, 2, 1}, {4, 3, 1}), S({8, 8, 4}, {32, 4, 1}), {8, 8, 4}, {1, 2, 1});
  check_tile_meaning(S({2, 4, 2, 2}, {4, 1, 4, 3}), S({16, 8, 4}, {1, 64, 16}), {16, 8, 4}, {8, 2, 2});
  check_tile_meaning(S({1, 2}, {2, 1}), S({8, 4}, {{4, "laneid"}, {1, "laneid"}}), {8, 4}, {1, 2});
}

TEST_CASE("tile with a rank mismatch throws (case_dims_mismatch)", "[layout]") {
  CHECK_THROWS_AS(S({2, 4}, {1, 2}).tile(S({8}, {1}), {8}, {2, 4}), Error);
}

TEST_CASE("sharding is tiling by a thread layout (test_shard_layout)", "[layout]") {
  const TileLayout pair = S({1, 2}, {2, 1});
  const TileLayout warp = S({8, 4}, {{4, "laneid"}, {1, "laneid"}});
  const TileLayout mma = pair.tile(warp, {8, 4}, {1, 2});
  CHECK(mma.canonicalize() == S({32, 2}, {{1, "laneid"}, 1}));

  const TileLayout cta = S({2, 2}, {{2, "warpid"}, {1, "warpid"}});
  CHECK(mma.tile(cta, {2, 2}, {8, 8}).canonicalize() ==
        S({2, 8, 2, 4, 2}, {{2, "warpid"}, {4, "laneid"}, {1, "warpid"}, {1, "laneid"}, 1}).canonicalize());

  CHECK(pair.tile(S({8}, {{4, "laneid"}}), {8, 1}, {1, 2}).canonicalize() == S({8, 2}, {{4, "laneid"}, 1}));

  // Outer replicas are not scaled and come after the inner ones.
  const TileLayout rep = S({2}, {{2, "warpid"}}, R({2}, {{1, "warpid"}}));
  CHECK(S({64, 128}, {128, 1}).tile(rep, {2, 1}, {64, 128}).canonicalize() ==
        S({2, 8192}, {{2, "warpid"}, 1}, R({2}, {{1, "warpid"}})).canonicalize());
}

TEST_CASE("tile under a CUDA target fuses warps and lanes into tx", "[layout]") {
  const TileLayout frag = S({1, 2}, {2, 1}).tile(S({8, 4}, {{4, "laneid"}, {1, "laneid"}}), {8, 4}, {1, 2});
  const TileLayout cta = S({2, 2}, {{2, "warpid"}, {1, "warpid"}});
  CHECK(frag.tile(cta, {2, 2}, {8, 8}, Target::cuda) ==
        S({2, 8, 2, 4, 2}, {{64, "tx"}, {4, "tx"}, {32, "tx"}, {1, "tx"}, 1}));
}

TEST_CASE("tile_to tiles with a row-major outer layout (test_tile_to)", "[layout]") {
  const TileLayout rm8 = S({8, 8}, {8, 1});
  CHECK(rm8.tile_to({64, 64}, {8, 8}) == rm8.tile(rm8, {8, 8}, {8, 8}));
  CHECK(rm8.tile_to({64, 64}, {8, 8}) == S({8, 8, 8, 8}, {512, 8, 64, 1}));
}

TEST_CASE("issue acceptance: the A fragment of m16n8k16 from the k8 one", "[layout]") {
  const TileLayout a_k8 = S({2, 8, 4, 2}, {2, {4, "laneid"}, {1, "laneid"}, 1});
  const TileLayout a = a_k8.tile_to({16, 16}, {16, 8});
  CHECK(a.shard() ==
        std::vector<Iter>{
            {2, 2, Axis::m()}, {8, 4, Axis::laneid()}, {2, 4, Axis::m()}, {4, 1, Axis::laneid()}, {2, 1, Axis::m()}});
  CHECK(a.replica().empty());
  CHECK(a.offset().empty());
  CHECK(a.str() == "S[(2, 8, 2, 4, 2) : (2, 4@laneid, 4, 1@laneid, 1)]");
  // Register slot = kp + 2*rM + 4*kHi (README.md, "First example: the seed's erratum").
  const Owner o = owner_of(a, {9, 11}, {16, 16});
  CHECK(at(o, "laneid") == 4 * 1 + 1);
  CHECK(at(o, "m") == 1 + 2 * 1 + 4 * 1);
  CHECK(a.span(Axis::m()) == 8);
  CHECK(a.span(Axis::laneid()) == 32);

  const TileLayout b = S({4, 2, 8}, {{1, "laneid"}, 1, {4, "laneid"}}).tile_to({16, 8}, {8, 8});
  CHECK(b.shard() ==
        std::vector<Iter>{{2, 2, Axis::m()}, {4, 1, Axis::laneid()}, {2, 1, Axis::m()}, {8, 4, Axis::laneid()}});
}

TEST_CASE("tile_to rejects shapes that are not multiples", "[layout]") {
  const TileLayout rm8 = S({8, 8}, {8, 1});
  CHECK_THROWS_WITH(rm8.tile_to({12, 8}, {8, 8}), Catch::StartsWith("error: tile_to:"));
  CHECK_THROWS_WITH(rm8.tile_to({16}, {8, 8}), Catch::StartsWith("error: tile_to:"));
  CHECK_THROWS_WITH(rm8.tile_to({16, 8}, {0, 8}), Catch::Contains("positive"));
}

TEST_CASE("storage keeps the memory part (test_storage)", "[layout]") {
  const TileLayout rm8 = S({8, 8}, {8, 1});
  CHECK(rm8.storage() == rm8);
  CHECK(S({8, 4, 2}, {{4, "laneid"}, {1, "laneid"}, 1}).storage() == S({2}, {1}));

  const TileLayout full = S({2}, {1})
                              .tile(S({8, 4}, {{4, "laneid"}, {1, "laneid"}}), {8, 4}, {1, 2})
                              .tile(S({2, 1}, {1, 2}), {2, 1}, {8, 8})
                              .tile(S({1, 8}, {8, 1}), {1, 8}, {16, 8});
  const TileLayout regs = S({2}, {1}).tile(S({2, 1}, {1, 2}), {2, 1}, {1, 2}).tile(S({1, 8}, {8, 1}), {1, 8}, {2, 2});
  CHECK(full.storage().canonicalize() == regs.canonicalize());

  // Thread replicas and offsets go, memory ones stay; no canonicalize.
  CHECK(S({1, 4}, {1, {1, "laneid"}}, R({2}, {{1, "warpid"}}), {{"laneid", 3}, {"m", 4}}).storage() ==
        S({1}, {1}, {}, {{"m", 4}}));
}

}  // namespace test_layout_tile
