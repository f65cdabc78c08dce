// Port of TVM's tests/python/tirx/test_layout.py, part 1: axes,
// constructors, printing, scope / well-formedness.
//
// Cases of test_layout.py NOT ported, and why (they apply to every
// tests/test_layout_*.cc file):
//  - anything over symbolic variables (test_apply's tile_layout_4,
//    test_group_many_accepts_only_provably_ordered_symbolic_boundaries, the
//    symbolic parts of the slice regressions; ported with constants where the
//    property survives): mmacheck shapes are static integers;
//  - ComposeLayout / swizzle (swizzle and compose cases of test_apply,
//    test_size_span, test_tile_layout, test_slice, test_storage,
//    test_normalize_compose_layout, test_mma_shared_layout, every
//    test_compose_*, test_cuda_copy_extract_*): no swizzles in mmacheck;
//  - is_tile_inner / is_tile_outer (the recognition halves of
//    test_tile_layout and test_shard_layout; case_cta_layout2 entirely): not
//    part of the mmacheck API; the tile() halves are ported, plus a
//    brute-force check of tile()'s meaning on those layouts;
//  - Trainium helpers (TileLayout.trainium, to_psum) and TMEM helpers
//    (tmem_mma_operand_layout, wg_local_layout, test_pool_allocator_alloc_mma):
//    Python factories outside the algebra; plain layouts on the P/F axes are ported;
//  - pack / unpack / broadcast (test_pack, test_unpack), direct_sum
//    (test_direct_sum), group_many (every test_group_many_*): not in the API;
//  - the Python spec-builder operator plumbing (`a + b` merging of
//    _LayoutSpec objects, string-axis shorthands) belongs to the layout
//    parser; here it is ported as constructed layouts and their printed text.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "tests/test_layout_support.h"

namespace test_layout_basics {

using namespace mmacheck;
using namespace mmacheck::test;

TEST_CASE("axis table follows TVM's registry (test_axis)", "[layout]") {
  for (const char* name :
       {"bx", "by", "bz", "cbx", "cby", "cbz", "tx", "warpid", "laneid", "wgid", "tid_in_wg", "wid_in_wg"}) {
    INFO(name);
    CHECK(Axis(name).is_thread());
    CHECK_FALSE(Axis(name).is_memory());
  }
  for (const char* name : {"m", "P", "F", "Bank", "TCol", "TLane", "some_new_axis"}) {
    INFO(name);
    CHECK(Axis(name).is_memory());
    CHECK_FALSE(Axis(name).scope().has_value());
  }
  CHECK(Axis::laneid() == Axis("laneid"));
  CHECK(Axis::m() == Axis("m"));
  // TVM 0.1.0a4 registers bx with scope "kernel" and subscope "cta".
  CHECK(Axis("bx").scope() == ExecLevel::kernel);
  CHECK(Axis("bx").subscope() == ExecLevel::cta);
  CHECK(Axis("laneid").subscope() == ExecLevel::thread);
  CHECK(Axis("laneid").scope() == ExecLevel::warp);
  CHECK(Axis("warpid").subscope() == ExecLevel::warp);
  CHECK(Axis("warpid").scope() == ExecLevel::cta);
  CHECK(Axis("wid_in_wg").scope() == ExecLevel::warpgroup);
  CHECK(Axis("cbx").scope() == ExecLevel::cluster);
  CHECK(exec_level_name(ExecLevel::warpgroup) == "warpgroup");

  const auto names = Axis::known_names();
  CHECK(names.size() == 18);
  CHECK(names.front() == "bx");
  CHECK(names.back() == "TLane");
  CHECK_THROWS_AS(Axis(""), Error);
}

TEST_CASE("constructors and default strides (test_constructor)", "[layout]") {
  const std::vector<Iter> row_major{{2, 12, Axis::m()}, {3, 4, Axis::m()}, {4, 1, Axis::m()}};
  CHECK(TileLayout::row_major({2, 3, 4}).shard() == row_major);
  CHECK(S({2, 3, 4}, {12, 4, 1}).shard() == row_major);
  CHECK(S({2, 3, 4}, {{12, "m"}, {4, "m"}, {1, "m"}}) == TileLayout(row_major));

  const TileLayout frag = S({8, 4, 2}, {{4, "laneid"}, {1, "laneid"}, 1});
  CHECK(frag.shard() == std::vector<Iter>{{8, 4, Axis::laneid()}, {4, 1, Axis::laneid()}, {2, 1, Axis::m()}});
  CHECK(frag.replica().empty());
  CHECK(frag.offset().empty());

  const TileLayout rep = S({8}, {{4, "laneid"}}, R({4}, {{1, "laneid"}}));
  CHECK(rep.replica() == std::vector<Iter>{{4, 1, Axis::laneid()}});

  const TileLayout off = S({8}, {{4, "laneid"}}, {}, {{"laneid", 1}});
  CHECK(off.offset() == Offset{{Axis::laneid(), 1}});
}

TEST_CASE("offsets on several axes are all kept (test_constructor_multi_term_offset)", "[layout]") {
  const TileLayout layout = S({8}, {{4, "laneid"}}, {}, {{"laneid", 1}, {"warpid", 2}, {"m", 64}});
  CHECK(layout.offset() == Offset{{Axis::laneid(), 1}, {Axis::warpid(), 2}, {Axis::m(), 64}});
  CHECK(layout.str() == "S[8 : 4@laneid] + 1@laneid + 64 + 2@warpid");
}

TEST_CASE("printing is TIRx text (test_spec_builder)", "[layout]") {
  CHECK(S({8, 4, 2}, {{4, "laneid"}, {1, "laneid"}, 1}).str() == "S[(8, 4, 2) : (4@laneid, 1@laneid, 1)]");
  CHECK(S({128}, {{1, "laneid"}}).str() == "S[128 : 1@laneid]");
  CHECK(TileLayout::row_major({8, 4, 2}).str() == "S[(8, 4, 2) : (8, 2, 1)]");
  CHECK(S({8}, {{4, "laneid"}}, R({4}, {{1, "laneid"}})).str() == "S[8 : 4@laneid] + R[4 : 1@laneid]");
  CHECK(S({8}, {{4, "laneid"}}, {}, {{"laneid", 1}}).str() == "S[8 : 4@laneid] + 1@laneid");
  CHECK(S({1}, {1}, R({8, 4}, {{4, "laneid"}, {1, "laneid"}}), {{"warpid", 2}}).str() ==
        "S[1 : 1] + R[(8, 4) : (4@laneid, 1@laneid)] + 2@warpid");
  CHECK(S({2, 3, 4}, {{12, "m"}, {4, "m"}, {1, "m"}}).str() == "S[(2, 3, 4) : (12, 4, 1)]");
  CHECK(S({2, 2}, {{1, "TLane"}, {1, "F"}}).str() == "S[(2, 2) : (1@TLane, 1@F)]");
  // The D fragment, as ../shared/DESIGN.md's JSON shows it.
  CHECK(S({2, 8, 4, 2}, {2, {4, "laneid"}, {1, "laneid"}, 1}).str() == "S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]");
}

TEST_CASE("printing corner cases: empty shard, negative and zero numbers", "[layout]") {
  CHECK(TileLayout({}, {}, offset({{"m", 5}})).str() == "S[() : ()] + 5");
  // A replica-only layout prints as its replicas, which the parser reads back.
  CHECK(TileLayout({}, R({32}, {{1, "laneid"}})).str() == "R[32 : 1@laneid]");
  CHECK(S({4}, {{-2, "laneid"}}, {}, {{"m", -3}}).str() == "S[4 : -2@laneid] + -3");
  CHECK(S({4}, {0}, {}, {{"laneid", 0}}).str() == "S[4 : 0] + 0@laneid");
  // Offset terms in axis-name byte order: upper-case names first.
  CHECK(S({4}, {1}, {}, {{"m", 1}, {"F", 2}, {"laneid", 3}}).str() == "S[4 : 1] + 2@F + 3@laneid + 1");
}

TEST_CASE("scope chains (test_verify_well_formed)", "[layout]") {
  using L = ExecLevel;
  const auto scope_is = [](const TileLayout& layout, L inner, L outer) {
    INFO(layout.str());
    REQUIRE(layout.scope().has_value());
    CHECK(layout.scope()->first == inner);
    CHECK(layout.scope()->second == outer);
    CHECK(layout.verify_well_formed());
  };
  scope_is(S({8, 4, 2}, {{4, "laneid"}, {1, "laneid"}, 1}), L::thread, L::warp);
  scope_is(S({8}, {{4, "laneid"}}, R({4}, {{1, "laneid"}})), L::thread, L::warp);
  scope_is(S({2, 8, 2, 4, 2}, {{2, "warpid"}, {4, "laneid"}, {1, "warpid"}, {1, "laneid"}, 1}), L::thread, L::cta);
  scope_is(S({2, 8, 2, 4, 2}, {{2, "wid_in_wg"}, {4, "laneid"}, {1, "wid_in_wg"}, {1, "laneid"}, 1}), L::thread,
           L::warpgroup);

  // wgid (warpgroup -> cta) and laneid (thread -> warp) do not connect.
  const TileLayout broken = S({2, 8, 2, 4, 2}, {{2, "wgid"}, {4, "laneid"}, {1, "wgid"}, {1, "laneid"}, 1});
  CHECK_FALSE(broken.verify_well_formed());
  CHECK_THROWS_WITH(broken.scope(), Catch::Contains("disconnected scope chain"));

  // Memory-only layouts have no scope and are well-formed.
  CHECK_FALSE(TileLayout::row_major({8, 8}).scope().has_value());
  CHECK(TileLayout::row_major({8, 8}).verify_well_formed());
  CHECK_FALSE(TileLayout::row_major({8, 8}).has_thread_axis());
  // Only shard iters make a layout threaded (TVM's HasThreadAxis).
  CHECK_FALSE(S({1}, {1}, R({4}, {{1, "laneid"}})).has_thread_axis());
}

TEST_CASE("scope chains count replicas and offsets once the shard is threaded", "[layout]") {
  // laneid in the shard, warpid only in the offset: thread -> warp -> cta.
  const TileLayout layout = S({32}, {{1, "laneid"}}, {}, {{"warpid", 1}});
  REQUIRE(layout.scope().has_value());
  CHECK(layout.scope()->second == ExecLevel::cta);
  // tx (thread -> cta) and bx (cta -> kernel) chain up to the kernel, as in TVM 0.1.0a4.
  CHECK(S({4, 4}, {{1, "tx"}, {1, "bx"}}).scope() == std::pair{ExecLevel::thread, ExecLevel::kernel});
  // bx with laneid leaves the warp -> cta link out: TVM's "disconnected scope chain".
  CHECK_FALSE(S({4, 8}, {{1, "bx"}, {1, "laneid"}}).verify_well_formed());
  // laneid (thread -> warp) and tx (thread -> cta) conflict.
  CHECK_THROWS_WITH(S({4, 4}, {{1, "tx"}, {4, "laneid"}}).scope(), Catch::Contains("conflicting scopes"));
}

}  // namespace test_layout_basics
