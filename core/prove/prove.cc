// prove(): bad-input checks, dispatch, then every check with the chosen
// method, in ProofSetup's order.
#include "core/prove/prove.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "core/prove/diagnosis.h"
#include "core/prove/engines.h"
#include "core/prove/fix_search.h"
#include "core/prove/mismatch.h"

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
  return prove(program, dispatch(program, options.inst_set), options);
}

namespace {

// A refuted frame or fragment check: the single layout change of its
// operand that makes every check prove.
void search_layout_fix(const Program& program, const ProofSetup& setup, const CheckSpec& check,
                       const ProveOptions& options, Counterexample& cx) {
  const GemmOperand op = setup.frame_buffer(check.operand);
  const std::string& buffer = setup.view(op).buffer();
  const MmaInst& inst = setup.inst;
  const auto fits = [&](const Program& p) { return !operand_fit(p, gemm_geometry(p), op, inst).has_value(); };
  if (const std::optional<Fix> fix = search_fix(program, buffer, options.inst_set, fits); fix && fix->proves) {
    cx.fix = fix->line;
    cx.fix_reason = fix->reason;
  }
}

}  // namespace

ProofReport prove(const Program& program, const Plan& plan, const ProveOptions& options) {
  validate_staging(program);
  ProofReport report;
  if (!plan.ok) {
    report.verdict = Verdict::dispatch_failed;
    report.reasons = plan.reasons;
    if (options.explain) report.diagnosis = diagnose(program, options, plan.reasons);
    return report;
  }
  report.inst = plan.inst;
  report.tiles_m = plan.tiles_m;
  report.tiles_n = plan.tiles_n;
  report.tiles_k = plan.tiles_k;
  report.mma_count = plan.nest.mma_count();
  if (program.stages.empty() && program.stores.empty())
    report.notes.push_back("the program has no stage or store statements: its staging was not checked");

  const ProofSetup setup(program, plan);
  std::optional<Z3Checker> z3;
  if (options.method == ProofMethod::z3) z3.emplace(setup, options.timeout_ms);
  bool refuted = false, unknown = false;
  std::vector<std::string> fixed;  // buffers whose layout fix was searched
  for (const CheckSpec& check : setup.checks) {
    const auto start = std::chrono::steady_clock::now();
    const Outcome outcome = z3 ? z3->check(check) : check_exhaustive(setup, check);
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    CheckReport c{check.name, outcome.result, options.method, ms.count(), outcome.note, outcome.solved};
    if (c.result == CheckResult::unknown && (c.note.find("timeout") != std::string::npos ||
                                             c.note.find("canceled") != std::string::npos ||
                                             ms.count() >= options.timeout_ms))
      c.note = "timed out after " + std::to_string(options.timeout_ms) + " ms";
    if (!c.solved) c.note = "no solving needed: the same query as an earlier check";
    report.checks.push_back(std::move(c));
    if (outcome.witness) {
      Counterexample cx = describe(setup, check, *outcome.witness);
      if (options.explain) {
        explain_mismatches(setup, check, cx);
        const std::string& buffer = setup.view(setup.frame_buffer(check.operand)).buffer();
        if ((check.kind == CheckKind::frame || check.kind == CheckKind::fragment) &&
            std::find(fixed.begin(), fixed.end(), buffer) == fixed.end()) {
          fixed.push_back(buffer);
          search_layout_fix(program, setup, check, options, cx);
        }
      }
      report.counterexamples.push_back(std::move(cx));
    }
    refuted = refuted || outcome.result == CheckResult::refuted;
    unknown = unknown || outcome.result == CheckResult::unknown;
  }
  report.verdict = refuted ? Verdict::refuted : unknown ? Verdict::unknown : Verdict::proved;
  return report;
}

}  // namespace mmacheck
