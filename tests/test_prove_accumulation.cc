// The accumulation check: warps splitting K, beta = 1 with C laid out
// differently from D, and inits out of place.
#include <catch2/catch.hpp>

#include <variant>

#include "tests/test_prove_support.h"

namespace test_prove_accumulation {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const std::string kFrags = R"(
D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]
A_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([16, 16], [16, 8])
B_FRAG = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8])
A = buffer((16, 16), float16, local, A_FRAG)
B = buffer((16, 8), float16, local, B_FRAG)
D = buffer((16, 8), float32, local, D_FRAG)
scope warp
)";

// One m16n8k16 tile with beta = 1 and C declared by `c_decl`.
Program beta_one(const std::string& c_decl, const std::string& c_operand = "C") {
  return program_from(kFrags + c_decl + "\ngemm(D, A, B, " + c_operand + ", beta=1.0)\n");
}

}  // namespace

TEST_CASE("two warps splitting K without a reduction are refuted", "[prove]") {
  // A and B put K's upper half on warp 1; D is on laneid only, so each warp
  // accumulates its half into its own copy of D.
  const Program p = program_from(R"(
A = buffer((16, 32), float16, local, S[(2, 8, 2, 2, 4, 2) : (2, 4 @ laneid, 1 @ warpid, 4, 1 @ laneid, 1)])
B = buffer((32, 8), float16, local, S[(2, 2, 4, 2, 8) : (1 @ warpid, 2, 1 @ laneid, 1, 4 @ laneid)])
D = buffer((16, 8), float32, local, S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
scope cta threads 64
gemm(D, A, B, D)
)");
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);  // TVM lowers it
  CHECK(plan.tiles_k == 1);
  const ProofReport report = prove_both(p, plan);
  CHECK(report.verdict == Verdict::refuted);
  REQUIRE(report.counterexamples.size() == 2);  // every frame and fragment holds; the program run refutes too
  const Counterexample& cx = report.counterexamples.front();
  CHECK(cx.check.name() == "accumulation");
  CHECK(cx.warp == 0);
  CHECK(cx.lane == 0);
  CHECK(cx.slot == 0);
  CHECK(cx.expected == Element{0, 0});
  CHECK(cx.k == 16);  // warp 0 has K 0..15 only
  CHECK(cx.message.find("another warp forms it") != std::string::npos);
}

TEST_CASE("warps splitting M are proved", "[prove]") {
  const Program p = program_from(R"(
B_FRAG = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8])
A = buffer((32, 16), float16, local, S[(2, 2, 8, 2, 4, 2) : (1 @ warpid, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
B = buffer((16, 8), float16, local, B_FRAG)
D = buffer((32, 8), float32, local, S[(2, 2, 8, 4, 2) : (1 @ warpid, 2, 4 @ laneid, 1 @ laneid, 1)])
scope cta threads 64
gemm(D, A, B, D)
stage A[s] = A_g[16 * warp + lane // 4 + 8 * ((s // 2) % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
store D[s] -> D_g[16 * (tid // 32) + lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2]
)");
  const ProofReport report = prove_both(p);
  CHECK(report.verdict == Verdict::proved);
}

TEST_CASE("beta = 1 with C laid out unlike D but consistently is proved", "[prove]") {
  SECTION("C in slots 4..7") {
    const ProofReport report = prove_both(beta_one("C = buffer((16, 8), float32, local, D_FRAG + 4)"));
    CHECK(report.verdict == Verdict::proved);
    CHECK(result_of(report, "C fragment") == CheckResult::proved);
  }
  SECTION("C the lower half of a larger buffer") {
    const ProofReport report =
        prove_both(beta_one("C = buffer((32, 8), float32, local, D_FRAG.tile_to([32, 8], [16, 8]))", "C[16:32, 0:8]"));
    CHECK(report.verdict == Verdict::proved);
  }
}

TEST_CASE("beta = 1 with an init that copies the wrong C element is refuted", "[prove]") {
  SECTION("C's registers ordered differently from what the nest copies") {
    // The plan copies C as laid out by D_FRAG; the file's C has rM and rN
    // exchanged, so C slot 1 holds C[8][0].
    const Program good = beta_one("C = buffer((16, 8), float32, local, D_FRAG)");
    const Program bad =
        beta_one("C = buffer((16, 8), float32, local, S[(2, 8, 4, 2) : (1, 4 @ laneid, 1 @ laneid, 2)])");
    const ProofReport report = prove_both(bad, dispatch(good));
    const Counterexample* cx = counterexample(report, "accumulation");
    REQUIRE(cx != nullptr);
    CHECK(cx->lane == 0);
    CHECK(cx->slot == 1);
    CHECK(cx->expected == Element{0, 1});
    CHECK(cx->actual == Element{8, 0});
  }
  SECTION("a hand-edited init") {
    const Program p = beta_one("C = buffer((16, 8), float32, local, D_FRAG)");
    Plan plan = dispatch(p);
    REQUIRE(plan.ok);
    std::swap(std::get<InitStmt>(plan.nest.stmts.at(0)).c_slots[0],
              std::get<InitStmt>(plan.nest.stmts.at(0)).c_slots[1]);
    const ProofReport report = prove_both(p, plan);
    const Counterexample* cx = counterexample(report, "accumulation");
    REQUIRE(cx != nullptr);
    CHECK(cx->slot == 0);
    CHECK(cx->expected == Element{0, 0});
    CHECK(cx->actual == Element{0, 1});
  }
  SECTION("zeroing where beta = 1 asks for C") {
    const Program p = beta_one("C = buffer((16, 8), float32, local, D_FRAG)");
    Plan plan = dispatch(p);
    REQUIRE(plan.ok);
    std::get<InitStmt>(plan.nest.stmts.at(0)).c_slots.clear();
    const ProofReport report = prove_both(p, plan);
    REQUIRE(counterexample(report, "accumulation") != nullptr);
    CHECK(counterexample(report, "accumulation")->message.find("zeroes it") != std::string::npos);
  }
}

TEST_CASE("inits must precede the mmas of their elements and products be formed once", "[prove]") {
  const Program p = program_from(kSeedCorrected);
  Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  SECTION("init after the mma") {
    std::swap(plan.nest.stmts.at(0), plan.nest.stmts.at(1));
    const ProofReport report = prove_both(p, plan);
    const Counterexample* cx = counterexample(report, "accumulation");
    REQUIRE(cx != nullptr);
    CHECK(cx->expected == Element{0, 0});
    CHECK(cx->message.find("before any init") != std::string::npos);
  }
  SECTION("an init that misses slot 2 (D[8][0] of lane 0)") {
    std::get<InitStmt>(plan.nest.stmts.at(0)).d_slots = {0, 1, 3};
    const ProofReport report = prove_both(p, plan);
    const Counterexample* cx = counterexample(report, "accumulation");
    REQUIRE(cx != nullptr);
    CHECK(cx->lane == 0);
    CHECK(cx->slot == 2);
    CHECK(cx->expected == Element{8, 0});
  }
  SECTION("the mma issued twice") {
    plan.nest.stmts.push_back(plan.nest.stmts.at(1));
    const ProofReport report = prove_both(p, plan);
    const Counterexample* cx = counterexample(report, "accumulation");
    REQUIRE(cx != nullptr);
    CHECK(cx->expected == Element{0, 0});
    CHECK(cx->k == 0);
    CHECK(cx->message.find("2 times") != std::string::npos);
  }
}

}  // namespace test_prove_accumulation
