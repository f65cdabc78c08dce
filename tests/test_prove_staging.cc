// Stage and store statements: Python's floor `//` and `%` (also with negative
// operands and divisors), non-constant divisors, every slot of the storage
// span, and the errors of the expressions themselves.
#include <catch2/catch.hpp>

#include "tests/test_prove_support.h"

namespace test_prove_staging {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// The corrected seed with B's staging replaced.
Program with_b_stage(const std::string& stage) {
  return program_from(
      replace_once(kSeedCorrected, "stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2), lane // 4]", stage));
}

}  // namespace

TEST_CASE("floor division and modulo follow Python for negative values", "[prove]") {
  const std::string stage = GENERATE(
      // (lane - 32) // 4 = lane // 4 - 8 only when // floors (truncation is off by one).
      std::string("stage B[s] = B_g[2 * ((lane - 32) % 4) + s % 2 + 8 * (s // 2), (lane - 32) // 4 + 8]"),
      // A negative divisor: (-lane) // -4 = lane // 4, and (-s) % -2 = -(s % 2).
      std::string("stage B[s] = B_g[2 * (lane % 4) - (-s) % -2 + 8 * (s // 2), (-lane) // -4]"),
      // A divisor that is not a literal (but never zero).
      std::string("stage B[s] = B_g[2 * (lane % (s - s + 4)) + s % 2 + 8 * (s // 2), lane // (4 + s * 0)]"));
  INFO(stage);
  const ProofReport report = prove_both(with_b_stage(stage));
  CHECK(result_of(report, "stage B") == CheckResult::proved);
}

TEST_CASE("truncating instead of flooring would be refuted where it differs", "[prove]") {
  // -(-lane // 4) is ceil(lane / 4): right for lanes 0, 4, 8, ... only.
  const ProofReport report =
      prove_both(with_b_stage("stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2), -(-lane // 4)]"));
  const Counterexample* cx = counterexample(report, "stage B");
  REQUIRE(cx != nullptr);
  CHECK(cx->lane == 1);
  CHECK(cx->slot == 0);
  CHECK(cx->expected == Element{2, 0});
  CHECK(cx->actual == Element{2, 1});
}

TEST_CASE("an element outside the buffer is refuted", "[prove]") {
  const ProofReport report =
      prove_both(with_b_stage("stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2) + 16 * (s // 3), lane // 4]"));
  const Counterexample* cx = counterexample(report, "stage B");
  REQUIRE(cx != nullptr);
  CHECK(cx->lane == 0);
  CHECK(cx->slot == 3);
  CHECK(cx->expected == Element{9, 0});
  CHECK(cx->actual == Element{25, 0});
}

TEST_CASE("a slot of the storage span that holds nothing cannot be staged", "[prove]") {
  // A_FRAG + 8 leaves slots 0..7 empty: a staging of slots 0..15 loads
  // something into slot 0, where the layout places nothing.
  const std::string text = replace_once(kSeedCorrected, "A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8])",
                                        "A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8]) + 8");
  const ProofReport report = prove_both(program_from(text));
  const Counterexample* cx = counterexample(report, "stage A");
  REQUIRE(cx != nullptr);
  CHECK(cx->slot == 0);
  CHECK_FALSE(cx->expected.has_value());
  CHECK(cx->message.find("places nothing there") != std::string::npos);
}

TEST_CASE("a division by zero is the expression's error under both methods", "[prove]") {
  const Program p = with_b_stage("stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2), lane // (s - 1)]");
  for (ProofMethod method : {ProofMethod::z3, ProofMethod::exhaustive}) {
    ProveOptions options;
    options.method = method;
    try {
      prove(p, options);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.loc().line == 10);
      CHECK(e.message() == "division by zero");
    }
  }
}

TEST_CASE("a shared gemm operand is declined before its staging is read, by prove and sim alike", "[prove]") {
  // The dispatch decides first (TVM declines a shared B), so prove and sim
  // give one decision; the stage into B is never taken for a register stage.
  const std::string shared = replace_once(kSeedCorrected, "B = T.alloc_buffer((16, 8), \"float16\", scope=\"local\"",
                                          "B = T.alloc_buffer((16, 8), \"float16\", scope=\"shared\"");
  const ProofReport r = prove(program_from(shared), {});
  CHECK(r.verdict == Verdict::dispatch_failed);
  REQUIRE_FALSE(r.reasons.empty());
  CHECK_THAT(r.reasons.front(), Catch::Contains("requires B in register (local) scope, got shared"));
}

}  // namespace test_prove_staging
