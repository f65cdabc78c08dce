// Port of TVM's test_normalize_tile_layout and test_normalize_trainium_layout
// (TileLayout.canonicalize); the `with Target("cuda")` cases use Target::cuda.
// Skipped cases: see the list at the top of test_layout_basics.cc.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "tests/test_layout_support.h"

namespace test_layout_canonicalize {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {
void canonical(const TileLayout& layout, const TileLayout& expected, Target target = Target::none) {
  INFO(layout.str());
  CHECK(layout.canonicalize(target) == expected);
}
}  // namespace

TEST_CASE("canonicalize fuses contiguous memory iters (normalize cases 1-11)", "[layout]") {
  canonical(S({8, 8, 8, 4, 2}, {512, 64, 8, 2, 1}), S({4096}, {1}));
  canonical(S({8, 8, 1, 8, 4, 2}, {512, 64, 160, 8, 2, 1}), S({4096}, {1}));
  canonical(S({8, 8, 8, 4, 1, 1}, {512, 64, 8, 2, 1, 1}), S({2048}, {2}));
  canonical(S({8, 8, 1, 1, 1, 4, 1, 1}, {512, 64, 1, 1, 1, 2, 1, 1}), S({64, 4}, {64, 2}));
  canonical(S({2, 3, 6}, {18, 6, 1}), S({36}, {1}));
  canonical(S({8, 2, 3, 6}, {6, 18, 6, 1}), S({8, 36}, {6, 1}));
  canonical(S({8, 2, 3, 6}, {6, 24, 6, 1}), S({8, 2, 18}, {6, 24, 1}));
  canonical(S({8, 2, 4, 2, 3, 6}, {2, 1, 4, 24, 6, 1}), S({16, 4, 2, 18}, {1, 4, 24, 1}));
  canonical(S({3, 4, 5, 2}, {20, 5, 1, 60}), S({60, 2}, {1, 60}));
  canonical(S({18, 8, 2, 4, 2, 3, 6}, {4, 2, 1, 4, 24, 6, 1}), S({18, 16, 4, 2, 18}, {4, 1, 4, 24, 1}));
  canonical(S({3, 4, 5, 2, 3, 4}, {20, 5, 1, 60, 20, 5}), S({60, 24}, {1, 5}));
}

TEST_CASE("canonicalize with thread axes (normalize case_no_norm, both_data_device*)", "[layout]") {
  const TileLayout normalized = S({8, 8, 8, 4, 2}, {16, {4, "laneid"}, 2, {1, "laneid"}, 1});
  canonical(normalized, normalized);
  canonical(S({8, 8, 8, 1, 4, 2, 1}, {16, {4, "laneid"}, 2, 1, {1, "laneid"}, 1, 1}), normalized);
  canonical(S({8, 8, 8, 1, 4, 2, 1}, {16, {4, "laneid"}, 2, 1, {1, "laneid"}, 1, {4, "laneid"}}), normalized);
  canonical(S({8, 8, 8, 1, 1, 2, 1}, {16, {4, "laneid"}, 2, 1, {4, "laneid"}, 1, 1}, {}, {{"laneid", 0}}),
            S({8, 8, 16}, {16, {4, "laneid"}, 1}));
  canonical(S({8, 4, 8, 8, 16}, {{4, "laneid"}, {1, "laneid"}, 4, 2, 4}), S({32, 8, 8, 16}, {{1, "laneid"}, 4, 2, 4}));
  canonical(S({8, 4, 8, 16}, {{4, "laneid"}, {1, "laneid"}, 2, 4}), S({32, 8, 16}, {{1, "laneid"}, 2, 4}));
  canonical(S({8, 4, 8}, {{4, "laneid"}, {1, "laneid"}, 8}), S({32, 8}, {{1, "laneid"}, 8}));
  canonical(S({8, 4, 8}, {{4, "laneid"}, {1, "laneid"}, 4}), S({32, 8}, {{1, "laneid"}, 4}));
  canonical(S({8, 4}, {{4, "laneid"}, {1, "laneid"}}), S({32}, {{1, "laneid"}}));
  canonical(S({8, 4, 4, 8, 8, 8}, {{4, "laneid"}, {1, "laneid"}, 4, 8, 8, 8}),
            S({32, 4, 8, 8, 8}, {{1, "laneid"}, 4, 8, 8, 8}));
  canonical(S({8, 4, 4, 8, 8, 8}, {{4, "laneid"}, {1, "laneid"}, 16, 2, 8, 8}),
            S({32, 32, 8, 8}, {{1, "laneid"}, 2, 8, 8}));
  canonical(S({8, 4, 4, 8, 8, 4, 4, 16, 8}, {{4, "laneid"}, {1, "laneid"}, 16, 2, 8, 2, 16, 1, 4}),
            S({32, 32, 32, 64, 8}, {{1, "laneid"}, 2, 2, 1, 4}));
  canonical(S({32, 3, 4, 5, 2, 3, 4}, {{1, "laneid"}, 20, 5, 1, 60, 20, 5}), S({32, 60, 24}, {{1, "laneid"}, 1, 5}));
}

TEST_CASE("canonicalize of all-unit and shard-less layouts (unit_layout_case1, F6)", "[layout]") {
  canonical(S({1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}), S({1}, {1}));
  // The kept unit iter takes the first iter's axis.
  canonical(S({1, 1}, {{4, "laneid"}, 2}), S({1}, {{1, "laneid"}}));
  const TileLayout no_shard({}, R({32}, {{1, "laneid"}}));
  CHECK(no_shard.canonicalize() == no_shard);
}

TEST_CASE("canonicalize under a CUDA target fuses thread axes (case_fuse_axis)", "[layout]") {
  const TileLayout warps = S({2, 8, 2, 4}, {{2, "warpid"}, {4, "laneid"}, {1, "warpid"}, {1, "laneid"}});
  CHECK(warps.verify_well_formed());
  canonical(warps, S({2, 8, 2, 4}, {{64, "tx"}, {4, "tx"}, {32, "tx"}, {1, "tx"}}), Target::cuda);
  // Without a target nothing is fused.
  canonical(warps, warps);

  canonical(S({2, 2, 8, 4}, {{2, "warpid"}, {1, "warpid"}, {4, "laneid"}, {1, "laneid"}}), S({128}, {{1, "tx"}}),
            Target::cuda);
  canonical(S({2, 2, 8, 2, 2, 4},
              {{2, "wgid"}, {2, "wid_in_wg"}, {4, "laneid"}, {1, "wgid"}, {1, "wid_in_wg"}, {1, "laneid"}}),
            S({2, 2, 8, 2, 2, 4}, {{256, "tx"}, {64, "tx"}, {4, "tx"}, {128, "tx"}, {32, "tx"}, {1, "tx"}}),
            Target::cuda);
  canonical(S({2, 8, 2, 4}, {{2, "wid_in_wg"}, {4, "laneid"}, {1, "wid_in_wg"}, {1, "laneid"}}),
            S({2, 8, 2, 4}, {{64, "tid_in_wg"}, {4, "tid_in_wg"}, {32, "tid_in_wg"}, {1, "tid_in_wg"}}), Target::cuda);
  canonical(S({2, 2, 4, 32}, {{2, "wgid"}, {1, "wgid"}, {32, "tid_in_wg"}, {1, "tid_in_wg"}}), S({512}, {{1, "tx"}}),
            Target::cuda);
  // A warp-scope layout has nothing to fuse.
  const TileLayout warp_frag = S({8, 4, 2}, {{4, "laneid"}, {1, "laneid"}, 1});
  CHECK(warp_frag.canonicalize(Target::cuda) == warp_frag.canonicalize());
}

TEST_CASE("CUDA fusion moves replicas and offsets too", "[layout]") {
  // Offsets laneid 1 and warpid 2 both land on tx: 1 + 2*32.
  canonical(S({4, 32}, {{1, "warpid"}, {1, "laneid"}}, R({2}, {{2, "warpid"}}), {{"laneid", 1}, {"warpid", 2}}),
            S({128}, {{1, "tx"}}, R({2}, {{64, "tx"}}), {{"tx", 65}}), Target::cuda);
  // An ill-formed chain cannot be fused; TVM raises too.
  CHECK_THROWS_AS(S({2, 32}, {{1, "wgid"}, {1, "laneid"}}).canonicalize(Target::cuda), Error);
}

TEST_CASE("canonicalize orders replicas (case_sort_replicate_exclude_iters)", "[layout]") {
  const TileLayout a = S({1}, {1}, R({8, 4}, {{4, "laneid"}, {1, "laneid"}}), {{"warpid", 2}});
  const TileLayout b = S({1}, {1}, R({4, 8}, {{1, "laneid"}, {4, "laneid"}}), {{"warpid", 2}});
  CHECK(a != b);
  CHECK(a.canonicalize() == b.canonicalize());
}

TEST_CASE("canonicalize on P/F axes (test_normalize_trainium_layout)", "[layout]") {
  const TileLayout pf = S({8, 8}, {{8, "P"}, {1, "F"}});
  canonical(pf, pf);
  canonical(S({8, 1, 8}, {{8, "F"}, {1, "P"}, {1, "F"}}), S({64}, {{1, "F"}}));
  const TileLayout fpf = S({8, 8, 8}, {{8, "F"}, {1, "P"}, {1, "F"}});
  canonical(fpf, fpf);
}

TEST_CASE("canonicalize keeps meaning", "[layout]") {
  const std::vector<TileLayout> layouts{
      S({8, 2, 4, 2, 3, 6}, {2, 1, 4, 24, 6, 1}),
      S({8, 8, 8, 1, 4, 2, 1}, {16, {4, "laneid"}, 2, 1, {1, "laneid"}, 1, {4, "laneid"}}),
      S({2, 8, 2, 4, 2}, {{2, "warpid"}, {4, "laneid"}, {1, "warpid"}, {1, "laneid"}, 1}),
  };
  for (const TileLayout& layout : layouts) {
    const TileLayout canon = layout.canonicalize();
    const TileLayout fused = layout.canonicalize(Target::cuda);
    INFO(layout.str() << " -> " << canon.str() << " / " << fused.str());
    for (std::int64_t i = 0; i < layout.size(); ++i) {
      const Owner o = layout.apply_flat(i);
      const Owner c = canon.apply_flat(i);
      const Owner f = fused.apply_flat(i);
      CHECK(at(o, "m") == at(c, "m"));
      CHECK(at(o, "laneid") == at(c, "laneid"));
      CHECK(at(o, "m") == at(f, "m"));
      CHECK(32 * at(o, "warpid") + at(o, "laneid") + at(o, "tx") == at(f, "tx") + at(f, "laneid"));
    }
  }
}

}  // namespace test_layout_canonicalize
