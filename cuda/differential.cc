#include "cuda/differential.h"

#include "core/base/error.h"

namespace mmacheck::cuda {

std::vector<sim::GemmInputs> random_cases(const sim::InputSpecs& specs, int cases, std::uint64_t seed,
                                          sim::InputSet inputs) {
  std::vector<sim::GemmInputs> out;
  for (int i = 0; i < cases; ++i)
    out.push_back(sim::random_gemm_inputs(specs.a, specs.b, specs.c, sim::case_distribution(i, inputs), seed, i));
  return out;
}

DiffReport run_differential(const GemmRunner& runner, const Program& program, const Nest& nest,
                            const Simulator& simulate, const DiffOptions& options) {
  const std::vector<sim::GemmInputs> cases = random_cases(sim::input_specs(program), options.cases, options.seed, options.inputs);
  const std::vector<std::vector<std::uint64_t>> gpu = runner.run(cases);
  const SlotTable& d = runner.staging().d;
  DiffReport report;
  report.cases = options.cases;
  for (int i = 0; i < options.cases; ++i) {
    const std::vector<std::uint64_t> expected = simulate(program, nest, cases[i]);
    if (expected.size() != gpu[i].size())
      throw Error("the simulator returned " + std::to_string(expected.size()) + " D elements, buffer '" +
                  d.buffer + "' has " + std::to_string(gpu[i].size()));
    bool failed = false;
    for (std::size_t e = 0; e < expected.size(); ++e) {
      if (expected[e] == gpu[i][e]) continue;
      failed = true;
      ++report.mismatched_elements;
      if (report.mismatches.size() < options.max_mismatches)
        report.mismatches.push_back({i, sim::case_distribution(i, options.inputs), static_cast<std::int64_t>(e) / d.cols,
                                     static_cast<std::int64_t>(e) % d.cols, expected[e], gpu[i][e]});
    }
    report.failed_cases += failed;
  }
  return report;
}

}  // namespace mmacheck::cuda
