// Planted single mistakes in the corrected seed, each caught by the right
// check with a counterexample at a lane and slot where the mistake shows.
// Layout mistakes the dispatch would decline are proved against the plan of
// the correct program: the prover judges a nest against the file's layouts,
// whoever emitted the nest.
#include <catch2/catch.hpp>

#include <variant>

#include "tests/test_prove_support.h"

namespace test_prove_mistakes {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// The one refuted check's counterexample (CHECKs that `check` is refuted).
const Counterexample& refuted(const ProofReport& report, const std::string& check) {
  CHECK(report.verdict == Verdict::refuted);
  CHECK(result_of(report, check) == CheckResult::refuted);
  const Counterexample* cx = counterexample(report, check);
  REQUIRE(cx != nullptr);
  INFO(cx->message);
  return *cx;
}

MmaStmt& only_mma(Plan& plan) { return std::get<MmaStmt>(plan.nest.stmts.at(1)); }

}  // namespace

TEST_CASE("swapped lane strides in A's layout are caught by the A frame at lane 1", "[prove]") {
  // g = lane / 4 and t = lane % 4 exchanged: 4@laneid <-> 1@laneid.
  const std::string bad_text =
      replace_once(kSeedCorrected, "A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])",
                   "A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 1 @ laneid, 4 @ laneid, 1)])");
  const Program good = program_from(kSeedCorrected);
  const Program bad = program_from(bad_text);
  CHECK_FALSE(dispatch(bad).ok);  // TVM's dispatch declines it outright
  const ProofReport report = prove_both(bad, dispatch(good));
  const Counterexample& cx = refuted(report, "A frame");
  // Lane 0 is g = t = 0 either way; lane 1's first element is A[0][2] in the
  // frame, but the swapped layout puts A[1][0] there.
  CHECK(cx.operand == "A");
  CHECK(cx.lane == 1);
  CHECK(cx.element == 0);
  CHECK(cx.slot == 0);
  CHECK(cx.expected == Element{0, 2});
  CHECK(cx.actual == Element{1, 0});
  // The staging, written for the intended layout, fails at the same place.
  const Counterexample& stage = refuted(report, "stage A");
  CHECK(stage.lane == 1);
  CHECK(stage.slot == 0);
  CHECK(result_of(report, "B frame") == CheckResult::proved);
  // g now steps lanes by 1 and t by 4: lane 4 gets g = 4 and t = 1 alike.
  const Counterexample& twice = refuted(report, "A fragment");
  CHECK(twice.lane == 4);
  CHECK(twice.slot == 0);
  CHECK(twice.expected == Element{0, 2});
  CHECK(twice.actual == Element{4, 0});
}

TEST_CASE("a register offset of + 1 on A misaligns its packed pairs", "[prove]") {
  // Dispatched as written: the nest names registers slot / 2, so element 0
  // is read from slot 0, which now holds nothing.
  const Program p = program_from(replace_once(kSeedCorrected, "A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8])",
                                              "A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8]) + 1"));
  const ProofReport report = prove_both(p);
  const Counterexample& cx = refuted(report, "A frame");
  CHECK(cx.lane == 0);
  CHECK(cx.slot == 0);
  CHECK(cx.element == 0);
  CHECK(cx.expected == Element{0, 0});
  CHECK_FALSE(cx.actual.has_value());
  CHECK(cx.message.find("A[0][0] is at lane 0, slot 1") != std::string::npos);
  CHECK(result_of(report, "A fragment") == CheckResult::proved);  // still one element per slot
}

TEST_CASE("a lane offset pushes A's last lanes out of the warp", "[prove]") {
  const Program p = program_from(replace_once(kSeedCorrected, "A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8])",
                                              "A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8]) + 1 @ laneid"));
  const ProofReport report = prove_both(p);
  const Counterexample& cx = refuted(report, "A fragment");
  CHECK(cx.lane == 32);
  CHECK(cx.expected == Element{7, 6});  // the first element of lane 31, row-major
  CHECK(refuted(report, "A frame").lane == 0);
}

TEST_CASE("a staging typo (lane // 4 -> lane % 4) is caught at lane 1", "[prove]") {
  const Program p =
      program_from(replace_once(kSeedCorrected, "stage A[s] = A_g[lane // 4", "stage A[s] = A_g[lane % 4"));
  const ProofReport report = prove_both(p);
  REQUIRE(report.counterexamples.size() == 2);  // the piece's, then the program run's
  const Counterexample& cx = refuted(report, "stage A");
  CHECK(cx.lane == 1);
  CHECK(cx.slot == 0);
  CHECK(cx.expected == Element{0, 2});
  CHECK(cx.actual == Element{1, 2});
}

TEST_CASE("a store typo (s % 2 -> s // 2) is caught at lane 0, slot 1", "[prove]") {
  const Program p =
      program_from(replace_once(kSeedCorrected, "2 * (lane % 4) + s % 2]\n", "2 * (lane % 4) + s // 2]\n"));
  const ProofReport report = prove_both(p);
  REQUIRE(report.counterexamples.size() == 2);  // the piece's, then the program run's
  const Counterexample& cx = refuted(report, "store D");
  CHECK(cx.lane == 0);
  CHECK(cx.slot == 1);
  CHECK(cx.expected == Element{0, 1});
  CHECK(cx.actual == Element{0, 0});
  CHECK(cx.message == "lane 0, slot 1: store D writes the slot to D_g[0][0] but D_FRAG places D[0][1]");
}

TEST_CASE("a wrong register in a hand-edited nest is caught at its element", "[prove]") {
  const Program p = program_from(kSeedCorrected);
  Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  SECTION("A register 1 -> 2") {
    only_mma(plan).a[1] = 2;  // kHi = 1 where the frame wants rM = 1
    const ProofReport report = prove_both(p, plan);
    const Counterexample& cx = refuted(report, "A frame");
    CHECK(cx.lane == 0);
    CHECK(cx.element == 2);
    CHECK(cx.slot == 4);
    CHECK(cx.stmt == 1);
    CHECK(cx.tile == std::vector<int>{0, 0, 0});
    CHECK(cx.expected == Element{8, 0});
    CHECK(cx.actual == Element{0, 8});
    CHECK(result_of(report, "B frame") == CheckResult::proved);
  }
  SECTION("B registers exchanged") {
    std::swap(only_mma(plan).b[0], only_mma(plan).b[1]);
    const ProofReport report = prove_both(p, plan);
    // B's origin is read from lane 0's first B slot, now B[8][0]: k0 = 8
    // disagrees with A's k0 = 0 and the B frame is refuted at once.
    const Counterexample& cx = refuted(report, "B frame");
    CHECK(cx.lane == 0);
    CHECK(cx.element == 0);
    CHECK(cx.expected == Element{0, 0});
    CHECK(cx.actual == Element{8, 0});
  }
  SECTION("D output register 2 -> 3") {
    only_mma(plan).d[2] = 3;
    const ProofReport report = prove_both(p, plan);
    const Counterexample& cx = refuted(report, "D frame");
    CHECK(cx.lane == 0);
    CHECK(cx.element == 2);
    CHECK(cx.expected == Element{8, 0});
    CHECK(cx.actual == Element{8, 1});
    CHECK(result_of(report, "C frame") == CheckResult::proved);  // the input registers are intact
  }
  SECTION("too few registers is malformed") {
    only_mma(plan).a.pop_back();
    CHECK_THROWS_AS(prove(p, plan, {}), Error);
  }
}

TEST_CASE("a layout placing two elements in one slot fails its fragment check", "[prove]") {
  // rM's stride 2 -> 0: D[r][c] and D[r + 8][c] share a slot.
  const std::string bad_text = replace_once(kSeedCorrected, "D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid",
                                            "D_FRAG = TileLayout(S[(2, 8, 4, 2) : (0, 4 @ laneid");
  const ProofReport report = prove_both(program_from(bad_text), dispatch(program_from(kSeedCorrected)));
  const Counterexample& cx = refuted(report, "D fragment");
  CHECK(cx.lane == 0);
  CHECK(cx.slot == 0);
  CHECK(cx.expected == Element{0, 0});
  CHECK(cx.actual == Element{8, 0});
  CHECK(cx.message == "lane 0, slot 0 holds both D[0][0] and D[8][0]");
}

}  // namespace test_prove_mistakes
