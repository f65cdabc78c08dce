// Every example file proves (or not) as its "Expected verdict" comment says,
// with both methods agreeing; the seed erratum is refuted exactly as
// README.md states it ("First example: the seed's erratum") and the corrected seed is proved.
#include <catch2/catch.hpp>

#include <filesystem>

#include "core/program/read/read_program.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_prove_examples {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// The first word after "# Expected verdict: ".
std::string expected_verdict(const std::string& text) {
  const std::string tag = "# Expected verdict: ";
  const std::size_t at = text.find(tag);
  if (at == std::string::npos) return "";
  const std::size_t begin = at + tag.size();
  const std::size_t end = text.find_first_of(" \n(", begin);
  return text.substr(begin, end - begin);
}

}  // namespace

TEST_CASE("every example gets its stated verdict from both methods", "[prove]") {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_path("examples"))) {
    if (entry.path().extension() != ".txt" && entry.path().extension() != ".py") continue;
    const std::string text = read_file(entry.path().string());
    const std::string expected = expected_verdict(text);
    INFO(entry.path().filename().string());
    REQUIRE_FALSE(expected.empty());
    const InstSet set = text.find("--inst-set extended") != std::string::npos ? InstSet::extended : InstSet::tvm;
    const ProofReport report = prove_both(parse_program(text, entry.path().string()), set);
    CHECK(verdict_name(report.verdict) == expected);
    // A refuted verdict comes with a counterexample for every refuted check.
    int refuted = 0;
    for (const CheckReport& c : report.checks) refuted += c.result == CheckResult::refuted;
    CHECK(static_cast<int>(report.counterexamples.size()) == refuted);
    ++files;
  }
  CHECK(files > 0);
}

TEST_CASE("the seed's A staging is refuted at lane 0, slot 2: A[8][0] expected, A[0][8] loaded", "[prove]") {
  const ProofReport report = prove_both(load_program(source_path("examples/seed.txt")));
  CHECK(report.verdict == Verdict::refuted);
  REQUIRE(report.counterexamples.size() == 2);  // the piece's, then the program run's
  const Counterexample& cx = report.counterexamples.front();
  CHECK(cx.check.name() == "stage A");
  CHECK(cx.lane == 0);
  CHECK(cx.slot == 2);
  CHECK(cx.expected == Element{8, 0});
  CHECK(cx.actual == Element{0, 8});
  CHECK_FALSE(cx.warp.has_value());
  CHECK(cx.message == "lane 0, slot 2: stage A loads A_g[0][8] but A_FRAG places A[8][0]");
  // Everything else about the seed holds: only the staging is wrong.
  for (const CheckReport& c : report.checks)
    if (c.check.name() != "stage A" && c.check.name() != "program") CHECK(c.result == CheckResult::proved);
}

TEST_CASE("the corrected seed is proved, every check named", "[prove]") {
  const ProofReport report = prove_both(load_program(source_path("examples/seed_corrected.txt")));
  CHECK(report.verdict == Verdict::proved);
  CHECK(report.inst->ptx() == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  CHECK(report.mma_count == 1);
  std::vector<std::string> names;
  for (const CheckReport& c : report.checks) names.push_back(c.check.name());
  // beta = 0: C is never read, so it has no fragment check.
  CHECK(names == std::vector<std::string>{"A frame", "B frame", "C frame", "D frame", "A fragment", "B fragment",
                                          "D fragment", "accumulation", "stage A", "stage B", "store D", "program"});
  CHECK(report.counterexamples.empty());
}

TEST_CASE("a dispatch failure is reported with TVM's reasons and no checks", "[prove]") {
  const ProofReport report = prove_both(load_program(source_path("examples/reject_alpha.txt")));
  CHECK(report.verdict == Verdict::dispatch_failed);
  CHECK(report.inst == nullptr);
  CHECK_FALSE(report.reasons.empty());
  CHECK(report.checks.empty());
}

}  // namespace test_prove_examples
