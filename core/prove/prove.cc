// prove(): bad-input checks, dispatch, then every check with the chosen
// method, in ProofSetup's order.
#include "core/prove/prove.h"

#include <chrono>
#include <optional>

#include "core/gemm/resources.h"
#include "core/prove/engines.h"

namespace mmacheck {

using namespace prove_detail;

ProofMethod parse_proof_method(std::string_view name) {
  if (name == "z3") return ProofMethod::z3;
  if (name == "exhaustive") return ProofMethod::exhaustive;
  throw Error("unknown proof method '" + std::string(name) + "' (expected z3 or exhaustive)");
}

std::string_view proof_method_name(ProofMethod method) {
  return method == ProofMethod::z3 ? "z3" : "exhaustive";
}

std::string_view check_result_name(CheckResult result) {
  switch (result) {
    case CheckResult::proved: return "proved";
    case CheckResult::refuted: return "refuted";
    case CheckResult::unknown: return "unknown";
  }
  return "?";
}

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::proved: return "proved";
    case Verdict::refuted: return "refuted";
    case Verdict::dispatch_failed: return "dispatch_failed";
    case Verdict::unknown: return "unknown";
  }
  return "?";
}

ProofReport prove(const Program& program, const ProveOptions& options) {
  validate_staging(program);
  return prove(program, dispatch(program, options.inst_set, options.limits), options);
}

ProofReport prove(const Program& program, const Plan& plan, const ProveOptions& options) {
  validate_staging(program);
  check_resources(program, options.limits);
  ProofReport report;
  if (!plan.ok) {
    report.verdict = Verdict::dispatch_failed;
    report.reasons = plan.reasons;
    return report;
  }
  report.inst = plan.inst;
  report.tiles_m = plan.tiles_m;
  report.tiles_n = plan.tiles_n;
  report.tiles_k = plan.tiles_k;
  report.mma_count = plan.nest.mma_count();

  const ProofSetup setup(program, plan);
  std::optional<Z3Checker> z3;
  if (options.method == ProofMethod::z3) z3.emplace(setup, options.timeout_ms);
  bool refuted = false, unknown = false;
  for (const CheckSpec& check : setup.checks) {
    const auto start = std::chrono::steady_clock::now();
    const Outcome outcome = z3 ? z3->check(check) : check_exhaustive(setup, check);
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    report.checks.push_back({check.name, outcome.result, options.method, ms.count(), outcome.note});
    if (outcome.witness) report.counterexamples.push_back(describe(setup, check, *outcome.witness));
    refuted = refuted || outcome.result == CheckResult::refuted;
    unknown = unknown || outcome.result == CheckResult::unknown;
  }
  report.verdict = refuted ? Verdict::refuted : unknown ? Verdict::unknown : Verdict::proved;
  return report;
}

}  // namespace mmacheck
