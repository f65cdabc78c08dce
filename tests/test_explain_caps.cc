// Explaining a refuted check is bounded by the limits table: the mismatch
// listing by --max-explain-points, the layout-fix search by
// --max-fix-elements (core/base/limits.h).  Over a cap the verdict stands
// and the summary says what was left out.
#include <catch2/catch.hpp>

#include "core/gemm/dispatch.h"
#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_explain_caps {

using namespace mmacheck;
using namespace mmacheck::test;
using Catch::Matchers::Contains;

namespace {

// One warp's S x S x S m16n8k16 tiling (TVM's fragments tile_to the shape),
// with A's two lane strides as given: "4 @ laneid, 1 @ laneid" is right.
Program tiling(int s, const std::string& a_lanes) {
  const std::string n = std::to_string(s);
  return program_from(
      "D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]\n"
      "A_FRAG = S[(2, 8, 4, 2) : (2, " +
      a_lanes +
      ", 1)].tile_to([16, 16], [16, 8])\n"
      "B_FRAG = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8])\n"
      "A = buffer((" +
      n + ", " + n + "), float16, local, A_FRAG.tile_to([" + n + ", " + n +
      "], [16, 16]))\n"
      "B = buffer((" +
      n + ", " + n + "), float16, local, B_FRAG.tile_to([" + n + ", " + n +
      "], [16, 8]))\n"
      "D = buffer((" +
      n + ", " + n + "), float32, local, D_FRAG.tile_to([" + n + ", " + n +
      "], [16, 8]))\n"
      "scope warp\n"
      "gemm(D, A, B, D)\n");
}

// The 64^3 tiling (128 mma) with A's lane strides exchanged, proved against
// the correct tiling's plan (the dispatch declines the mistake itself).
ProofReport refuted_64(const Limits& limits) {
  const Plan plan = dispatch(tiling(64, "4 @ laneid, 1 @ laneid"));
  REQUIRE(plan.ok);
  ProveOptions options;
  options.limits = limits;
  options.method = ProofMethod::exhaustive;
  return prove(tiling(64, "1 @ laneid, 4 @ laneid"), plan, options);
}

}  // namespace

TEST_CASE("the mismatch listing stops at --max-explain-points, whole mma at a time, and says so",
          "[mismatch][limits]") {
  const ProofReport full = refuted_64(Limits{});
  REQUIRE(full.verdict == Verdict::refuted);
  const Counterexample* all = counterexample(full, "A frame");
  REQUIRE(all != nullptr);
  // 128 mma x 32 lanes x 8 elements: under the default cap, all listed, no note.
  CHECK(all->points == 128 * 32 * 8);
  CHECK(all->summary.find("caps it") == std::string::npos);
  CHECK(all->summary.rfind(std::to_string(all->mismatches.size()) + " of 32768 (lane, slot) pairs wrong", 0) == 0);

  Limits capped;
  capped.set(Resource::explain_points, 1000);  // three mma of 256 points
  const ProofReport r = refuted_64(capped);
  CHECK(r.verdict == Verdict::refuted);  // the verdict does not depend on the cap
  const Counterexample* cx = counterexample(r, "A frame");
  REQUIRE(cx != nullptr);
  CHECK(cx->points == 3 * 256);
  CHECK_THAT(cx->summary, Contains("(explained over the first 768 of 32768 points: --max-explain-points caps it)"));
  REQUIRE_FALSE(cx->mismatches.empty());
  CHECK(cx->mismatches.size() <= 768);
  // The listed ones are the first of the full listing, in the same order.
  REQUIRE(cx->mismatches.size() <= all->mismatches.size());
  for (std::size_t i = 0; i < cx->mismatches.size(); ++i) {
    CHECK(cx->mismatches[i].lane == all->mismatches[i].lane);
    CHECK(cx->mismatches[i].slot == all->mismatches[i].slot);
    CHECK(cx->mismatches[i].actual == all->mismatches[i].actual);
  }

  // A cap below one mma still explains one whole mma.
  Limits tiny;
  tiny.set(Resource::explain_points, 1);
  const ProofReport one_mma = refuted_64(tiny);  // the counterexample points into it
  const Counterexample* one = counterexample(one_mma, "A frame");
  REQUIRE(one != nullptr);
  CHECK(one->points == 256);
  CHECK_THAT(one->summary, Contains("first 256 of 32768 points"));
}

TEST_CASE("a staging listing is capped a whole thread at a time, from the command line too", "[mismatch][limits]") {
  // seed.txt: stage A refuted, 32 lanes x 8 slots; a cap of 20 points lists two lanes.
  const RunResult run = run_mmacheck({"prove", source_path("examples/seed.txt"), "--max-explain-points", "20"});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Contains("of 16 (lane, slot) pairs wrong") &&
                          Contains("(explained over the first 16 of 256 points: --max-explain-points caps it)"));
  const RunResult whole = run_mmacheck({"prove", source_path("examples/seed.txt")});
  CHECK_THAT(whole.out, Contains("128 of 256 (lane, slot) pairs wrong"));
  CHECK(whole.out.find("caps it") == std::string::npos);
}

TEST_CASE("no fix search over --max-fix-elements: the summary says which layout and why", "[mismatch][limits]") {
  Limits capped;
  capped.set(Resource::fix_elements, 1024);  // A has 64 x 64 = 4096 elements
  const ProofReport r = refuted_64(capped);
  const Counterexample* cx = counterexample(r, "A frame");
  REQUIRE(cx != nullptr);
  CHECK_FALSE(cx->fix.has_value());
  CHECK_THAT(cx->summary,
             Contains("; no layout fix searched: A's layout has 4096 elements, over --max-fix-elements 1024"));
  // Under the default cap (8192) the search runs, and says nothing of a cap.
  const ProofReport uncapped = refuted_64(Limits{});
  const Counterexample* searched = counterexample(uncapped, "A frame");
  REQUIRE(searched != nullptr);
  CHECK(searched->summary.find("no layout fix searched") == std::string::npos);
}

}  // namespace test_explain_caps
