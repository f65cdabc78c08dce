// Every examples/*.txt, loaded through the layout-file parser, does what its
// header comment says:
//   # Run with --inst-set extended          (first line: extended-set examples)
//   # Expected verdict: proved | refuted ... | dispatch_failed
//   # Expected instruction: PTX (N mma)
//   # Expected reason: ROW                    (one line per reason row)
// and, beyond the dispatch: a dispatched nest computes the gemm, and the
// file's stage/store statements agree with the layouts exactly when the
// verdict is "proved".
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "tests/support.h"
#include "tests/test_dispatch_support.h"

namespace test_examples_dispatch {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

struct Expectation {
  bool extended = false;
  std::string verdict;
  std::string instruction;
  int mma_count = -1;
  std::vector<std::string> reasons;
};

// The value after `# KEY: ` on a comment line, or nullopt.
std::optional<std::string> comment_value(const std::string& line, const std::string& key) {
  const std::string prefix = "# " + key + ": ";
  if (line.rfind(prefix, 0) != 0) return std::nullopt;
  return line.substr(prefix.size());
}

Expectation read_expectation(const std::string& path) {
  std::istringstream in(read_file(path));
  Expectation e;
  std::string line;
  for (bool first = true; std::getline(in, line); first = false) {
    if (first) e.extended = line.find("--inst-set extended") != std::string::npos;
    if (auto v = comment_value(line, "Expected verdict")) e.verdict = *v;
    if (auto v = comment_value(line, "Expected reason")) e.reasons.push_back(*v);
    if (auto v = comment_value(line, "Expected instruction")) {
      const std::size_t open = v->find(" (");
      e.instruction = v->substr(0, open);
      e.mma_count = std::stoi(v->substr(open + 2));
    }
  }
  return e;
}

std::vector<std::string> example_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(source_path("examples")))
    if (entry.path().extension() == ".txt" || entry.path().extension() == ".py") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("the examples cover the dispatch's cases", "[dispatch][examples]") {
  int proved = 0, failed = 0, extended = 0;
  for (const std::string& file : example_files()) {
    const Expectation e = read_expectation(file);
    proved += e.verdict == "proved";
    failed += e.verdict == "dispatch_failed";
    extended += e.extended;
  }
  CHECK(example_files().size() >= 12);
  CHECK(proved >= 10);
  CHECK(failed >= 7);
  CHECK(extended >= 4);
}

TEST_CASE("every example dispatches as its comment says", "[dispatch][examples]") {
  for (const std::string& file : example_files()) {
    INFO(file);
    const Expectation e = read_expectation(file);
    REQUIRE_FALSE(e.verdict.empty());
    const Program program = load_program(file);
    const Plan plan = dispatch(program, e.extended ? InstSet::extended : InstSet::tvm);
    if (e.verdict == "dispatch_failed") {
      CHECK_FALSE(plan.ok);
      CHECK(plan.reasons == e.reasons);
      continue;
    }
    REQUIRE(plan.ok);
    CHECK(plan.inst->ptx() == e.instruction);
    CHECK(plan.nest.mma_count() == e.mma_count);
    CHECK(nest_semantics_problem(program, plan) == "");
    if (e.extended) {
      const Plan tvm = dispatch(program, InstSet::tvm);
      CHECK_FALSE(tvm.ok);
      CHECK_THAT(tvm.reasons.at(0), Catch::StartsWith("declined — no mma instruction fits"));
    }
    const std::optional<StagingMismatch> mismatch = staging_mismatch(program);
    if (e.verdict == "proved") {
      CHECK_FALSE(mismatch.has_value());
    } else {
      CHECK(mismatch.has_value());
    }
  }
}

TEST_CASE("the seed's staging of A is wrong at lane 0, slot 2, the corrected one is right", "[dispatch][examples]") {
  const std::optional<StagingMismatch> m = staging_mismatch(load_program(source_path("examples/seed.txt")));
  REQUIRE(m.has_value());
  CHECK(m->statement == "stage A");
  CHECK(m->thread == 0);
  CHECK(m->slot == 2);
  CHECK(m->expected == std::pair<std::int64_t, std::int64_t>{8, 0});
  CHECK(m->actual == std::pair<std::int64_t, std::int64_t>{0, 8});
  CHECK_FALSE(staging_mismatch(load_program(source_path("examples/seed_corrected.txt"))).has_value());
}

}  // namespace test_examples_dispatch
