// The jobs as library calls, no GPU needed: the case options both commands
// share (sim/check/case_options.h) and the `sim` job over many cases
// (sim/check/run_cases.h); the `gpu` job's part before any device is
// test_cuda_jobs.cc.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "sim/check/case_options.h"
#include "sim/check/run_cases.h"
#include "tests/support.h"

namespace test_case_jobs {

using namespace mmacheck;

namespace {

Program example(const std::string& name) { return load_program(test::source_path("examples/" + name)); }

// B's two registers swapped in every mma: the nest feeds the instruction
// the wrong K halves of B, so D is wrong (a planted mistake).
Nest swapped_b(Nest nest) {
  for (NestStmt& s : nest.stmts)
    if (auto* mma = std::get_if<MmaStmt>(&s)) std::swap(mma->b.front(), mma->b.back());
  return nest;
}

}  // namespace

TEST_CASE("case options are checked with the command's name and option spelling", "[jobs]") {
  CHECK_NOTHROW(sim::check_case_options({}, "sim"));
  CHECK_THROWS_WITH(sim::check_case_options({.cases = 0}, "sim"), Catch::Contains("sim: --cases must be >= 1"));
  CHECK_THROWS_WITH(sim::check_case_options({.threads = -1}, "gpu"),
                    Catch::Contains("gpu: --threads must be in 0..1024"));
  CHECK_THROWS_WITH(sim::check_case_options({.threads = 1025}, "gpu"), Catch::Contains("--threads"));
  CHECK_THROWS_WITH(sim::check_case_options({.show = -1}, "sim"), Catch::Contains("sim: --show must be >= 0"));
  CHECK(sim::case_threads({.threads = 3}) == 3);
  CHECK(sim::case_threads({}) >= 1);
}

TEST_CASE("run_cases passes a right program and reports a planted mistake in case order", "[jobs][sim]") {
  const Program p = example("seed_corrected.txt");
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  const sim::ArchParams& arch = sim::arch_params("sm_90");
  const sim::CaseRunReport right = sim::run_cases(sim::SimCheck(p, plan.nest, arch), {.cases = 32, .threads = 2});
  CHECK(right.passed());
  CHECK(right.cases == 32);
  CHECK(right.failures.empty());

  const sim::SimCheck wrong(p, swapped_b(plan.nest), arch);
  std::int64_t last_progress = 0;
  const sim::CaseRunReport one = sim::run_cases(
      wrong,
      {.cases = 24, .seed = 4, .threads = 1, .show = 5, .progress = [&](std::int64_t done) { last_progress = done; }});
  CHECK(last_progress == 24);
  CHECK_FALSE(one.passed());
  CHECK(one.failed_cases > 0);
  CHECK(one.wrong_elements >= one.failed_cases);
  CHECK(one.not_bit_exact == one.wrong_elements);  // a wrong register is wrong bits
  REQUIRE(one.failures.size() == 5);               // show caps what is kept, not what is counted
  for (std::size_t i = 1; i < one.failures.size(); ++i) {
    CHECK(one.failures[i - 1].case_index <= one.failures[i].case_index);
    CHECK(one.failures[i].dist == sim::case_distribution(static_cast<int>(one.failures[i].case_index)));
  }
  // The same report on any number of threads.
  const sim::CaseRunReport four = sim::run_cases(wrong, {.cases = 24, .seed = 4, .threads = 4, .show = 5});
  CHECK(four.failed_cases == one.failed_cases);
  CHECK(four.wrong_elements == one.wrong_elements);
  CHECK(four.outside_bound == one.outside_bound);
  for (std::size_t i = 0; i < one.failures.size(); ++i) {
    CHECK(four.failures[i].case_index == one.failures[i].case_index);
    CHECK(four.failures[i].element.row == one.failures[i].element.row);
    CHECK(four.failures[i].element.col == one.failures[i].element.col);
    CHECK(four.failures[i].element.got == one.failures[i].element.got);
  }
}

}  // namespace test_case_jobs
