// The simulator and the prover agree on every example: a proved program
// computes its gemm on the warp machine (bit-exact with the direct
// evaluation, within the reference bound), a refuted one computes something
// else.  Issue "Lane-accurate warp simulator": `mmacheck sim` passes on
// every proved example and fails on the seed as written.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "sim/check/sim_check.h"
#include "tests/support.h"

namespace test_sim_examples {

using namespace mmacheck;

namespace {
std::vector<std::string> example_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("examples")))
    if (entry.path().extension() == ".txt" || entry.path().extension() == ".py") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

bool extended(const std::string& path) {
  const std::string text = test::read_file(path);
  return text.substr(0, text.find('\n')).find("--inst-set extended") != std::string::npos;
}
}  // namespace

TEST_CASE("every proved example simulates correctly and every refuted one does not", "[sim][examples]") {
  int proved = 0, refuted = 0;
  for (const std::string& path : example_files()) {
    INFO(path);
    const Program program = load_program(path);
    const InstSet set = extended(path) ? InstSet::extended : InstSet::tvm;
    const Plan plan = dispatch(program, set);
    if (!plan.ok) continue;
    ProveOptions options;
    options.method = ProofMethod::exhaustive;
    options.inst_set = set;
    const Verdict verdict = prove(program, plan, options).verdict;
    REQUIRE((verdict == Verdict::proved || verdict == Verdict::refuted));

    sim::SimCheck check(program, plan.nest, sim::arch_params("sm_90"));
    std::size_t wrong = 0;
    for (int i = 0; i < 16; ++i) wrong += check.failures(check.random_case(i, 7)).size();
    if (verdict == Verdict::proved) {
      CHECK(wrong == 0);
      ++proved;
    } else {
      CHECK(wrong > 0);
      ++refuted;
    }
  }
  CHECK(proved >= 20);
  CHECK(refuted >= 1);  // the seed as written
}

}  // namespace test_sim_examples
