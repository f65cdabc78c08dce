// prove(): bad-input checks, dispatch, then every check with the chosen
// method, in ProofSetup's order.
#include "core/prove/prove.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <tuple>

#include "core/layout/shape_text.h"
#include "core/prove/diagnosis.h"
#include "core/gemm/resources.h"
#include "core/prove/engines.h"
#include "core/prove/fix_search.h"
#include "core/prove/mismatch.h"
#include "core/prove/program_run.h"
#include "core/prove/shared_checks.h"

namespace mmacheck {

using namespace prove_detail;

namespace {

// A proof of the layouts says nothing about how the program fills them.
std::vector<std::string> staging_notes(const Program& program) {
  if (program.stages.empty() && program.stores.empty() && program.copies.empty() && program.tile_copies.empty())
    return {
        "staging not checked: the program does not stage its registers (no stage/store statements, no "
        "TVMScript staging loops)"};
  const GemmCall& g = *program.gemm;
  std::string missing;
  const auto staged = [&](const OperandRef& op, bool store) {
    for (const StageStmt& s : program.stages)
      if (!store && s.buffer == op.buffer) return true;
    for (const StoreStmt& s : program.stores)
      if (store && s.buffer == op.buffer) return true;
    for (const SharedCopyStmt& s : program.copies)
      if (s.store() == store && s.reg == op.buffer) return true;
    for (const TileCopyStmt& s : program.tile_copies)
      if (s.store == store && s.reg == op.buffer) return true;
    return false;
  };
  for (const auto& [name, op, store] :
       {std::tuple{"A", &g.a, false}, std::tuple{"B", &g.b, false}, std::tuple{"D", &g.d, true}})
    if (!staged(*op, store)) missing += std::string(missing.empty() ? "" : ", ") + name + " (" + op->buffer + ")";
  std::vector<std::string> notes;
  if (!missing.empty()) notes.push_back("staging not checked for " + missing + ": the program gives no staging for it");
  // Statements over part of a buffer's registers: only the run (check program) decides them.
  const auto part = [&](const std::string& what, const std::string& buffer, const SlotLoop& loop, const SourceLoc& at) {
    notes.push_back(what + " " + buffer + "[" + loop.str() + "] (line " + std::to_string(at.line) +
                    ") has no staging check of its own (its loop covers part of the registers, or indexes them by "
                    "an expression): the program as executed decides it with the statements around it (check "
                    "program)");
  };
  for (const StageStmt& s : program.stages)
    if (s.slots) part("stage", s.buffer, *s.slots, s.loc);
  for (const StoreStmt& s : program.stores)
    if (s.slots) part("store", s.buffer, *s.slots, s.loc);
  // A statement between a buffer and a tensor of another shape.
  const auto other_shape = [&](const std::string& what, const std::string& buffer, const std::string& tensor,
                               const SourceLoc& at) {
    if (shaped_alike(program, buffer, tensor)) return;
    notes.push_back(what + " (line " + std::to_string(at.line) + ") moves " + tensor + ", a " +
                    coord_text(program.buffer(tensor, at).shape) + " tensor, and " + buffer + ", a " +
                    coord_text(program.buffer(buffer, at).shape) +
                    " buffer: it has no staging check of its own; the program as executed decides it (check program)");
  };
  for (const StageStmt& s : program.stages)
    other_shape("stage " + s.buffer + " = " + s.source, s.buffer, s.source, s.loc);
  for (const StoreStmt& s : program.stores)
    other_shape("store " + s.buffer + " -> " + s.target, s.buffer, s.target, s.loc);
  return notes;
}

}  // namespace

ProofReport prove(const Program& program, const ProveOptions& options) {
  return prove(program, dispatch(program, options.inst_set, options.limits), options);
}

namespace {

// A refuted frame or fragment check: the single layout change of its
// operand that makes every check prove.
// Every stage/store statement of `buffer` moves exactly what its layout
// keeps (the staging checks, concretely; cheaper than proving).
bool staging_agrees(const Program& program, const std::string& buffer) {
  const Storage st(program.buffer(buffer, {}));
  const Shape& shape = st.buffer().shape;
  const auto agrees = [&](const IndexExpr& row, const IndexExpr& col, const std::optional<SlotLoop>& loop) {
    const auto pairs = moved_slots(loop, st.span());
    for (int w = 0; w < program.scope.warps(); ++w)
      for (int l = 0; l < 32; ++l)
        for (const auto& [s, slot] : pairs) {
          const IndexEnv env{l, w, 32 * std::int64_t{w} + l, s};
          const Element y{row.eval(env), col.eval(env)};
          if (y[0] < 0 || y[0] >= shape[0] || y[1] < 0 || y[1] >= shape[1] || slot < 0 || slot >= st.span() ||
              !st.places(st.flat(y), {w, l}, slot))
            return false;
        }
    return true;
  };
  for (const StageStmt& s : program.stages)
    if (s.buffer == buffer && !agrees(s.row, s.col, s.slots)) return false;
  for (const StoreStmt& s : program.stores)
    if (s.buffer == buffer && !agrees(s.row, s.col, s.slots)) return false;
  return true;
}

// A refuted stage or store check: the layout change that makes the staging,
// as written, agree (the other reading of the same mismatch).
void search_layout_fix(const Program& program, const ProofSetup& setup, const CheckSpec& check,
                       const ProveOptions& options, Counterexample& cx) {
  std::optional<GemmOperand> op;
  if (!is_staging(check.id.kind)) op = setup.frame_buffer(check.operand);
  const std::string buffer = is_staging(check.id.kind) ? setup.staging[check.staging].buffer : setup.view(*op).buffer();
  for (GemmOperand o : {GemmOperand::A, GemmOperand::B, GemmOperand::C, GemmOperand::D})
    if (!op && setup.view(o).buffer() == buffer) op = o;
  if (!op) return;  // a staged buffer the gemm does not use
  const MmaInst& inst = setup.inst;
  const bool staging = is_staging(check.id.kind);
  const auto fits = [&](const Program& p) {
    return !operand_fit(p, gemm_geometry(p), *op, inst).has_value() && (!staging || staging_agrees(p, buffer));
  };
  const auto role = [&](int i) { return iter_role(program, setup.view(*op), *op, inst, i); };
  if (const auto capped = fix_search_capped(program, buffer, options.limits)) {
    cx.summary += (cx.summary.empty() ? "" : "; ") + *capped;
    return;
  }
  if (const std::optional<Fix> fix = search_fix(program, buffer, options.inst_set, options.limits, fits, role);
      fix && fix->proves) {
    cx.fix = fix->line;
    cx.fix_reason = fix->reason;
  }
}

}  // namespace

ProofReport prove(const Program& program, const Plan& plan, const ProveOptions& options) {
  check_resources(program, options.limits);
  ProofReport report;
  // A declined dispatch is the decision, before the staging is looked at:
  // `sim` and `gpu` stop there too, so every command decides a file alike
  // (a released-TIRx image whose repeats disagree is TVM's "Repeat shapes
  // must agree", not a staging shape error).
  if (!plan.ok) {
    report.verdict = Verdict::dispatch_failed;
    report.reasons = plan.reasons;
    // The diagnosis searches TVM main's dispatch; the release's pattern refuses by its own rules.
    if (options.explain && !program.release) report.diagnosis = diagnose(program, options, plan.reasons);
    return report;
  }
  validate_staging(program);
  report.inst = plan.inst;
  report.tiles_m = plan.tiles_m;
  report.tiles_n = plan.tiles_n;
  report.tiles_k = plan.tiles_k;
  report.mma_count = plan.nest.mma_count();

  // The z3 method reads the origins of a nest in the dispatch's order off
  // its first statement and proves the rest agree (OriginRule): the layouts
  // are then never tabulated.
  const auto start = std::chrono::steady_clock::now();
  const bool tiles = options.method == ProofMethod::z3;
  std::optional<ProofSetup> setup_store;
  setup_store.emplace(program, plan, tiles ? OriginRule::affine : OriginRule::anchors);
  std::optional<Z3Checker> z3;
  if (options.method != ProofMethod::exhaustive) z3.emplace(*setup_store, options.timeout_ms, tiles, start);
  if (tiles && setup_store->origin_rule == OriginRule::affine && z3->anchors_agree() == CheckResult::refuted) {
    z3.reset();
    setup_store.emplace(program, plan, OriginRule::anchors);
    z3.emplace(*setup_store, options.timeout_ms, tiles, start);
  }
  const ProofSetup& setup = *setup_store;
  bool refuted = false, unknown = false;
  std::vector<std::string> fixed;  // buffers whose layout fix was searched
  for (const CheckSpec& check : setup.checks) {
    const auto start = std::chrono::steady_clock::now();
    const Outcome outcome = z3 ? z3->check(check) : check_exhaustive(setup, check);
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    CheckReport c{check.id, outcome.result, options.method, ms.count(), outcome.note, outcome.solved};
    if (c.result == CheckResult::unknown &&
        (c.note.find("timeout") != std::string::npos || c.note.find("canceled") != std::string::npos ||
         ms.count() >= options.timeout_ms))
      c.note = "timed out after " + std::to_string(options.timeout_ms) + " ms";
    if (!c.solved) c.note = "no solving needed: the same query as an earlier check";
    report.checks.push_back(std::move(c));
    if (outcome.witness) {
      Counterexample cx = describe(setup, check, *outcome.witness);
      if (options.explain) {
        explain_mismatches(setup, check, options.limits, cx);
        const std::string buffer = is_staging(check.id.kind) ? setup.staging[check.staging].buffer
                                                             : setup.view(setup.frame_buffer(check.operand)).buffer();
        // A staging mismatch explained as an index typo (offset, stride,
        // modulus) is the statement's fault; a swap may be either's.
        const bool statement_typo =
            is_staging(check.id.kind) && (cx.summary.find("; an offset") != std::string::npos ||
                                          cx.summary.find("; a wrong stride") != std::string::npos ||
                                          cx.summary.find("; a wrong modulus") != std::string::npos);
        // A layout fix is searched through TVM main's dispatch: not for the release's pattern.
        if (check.id.kind != CheckKind::accumulation && !statement_typo && !program.release &&
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
  SharedFindings shared = shared_findings(setup);
  for (SharedCheck& c : shared.checks) {
    refuted = refuted || c.report.result == CheckResult::refuted;
    report.checks.push_back(std::move(c.report));
    if (c.counterexample) report.counterexamples.push_back(std::move(*c.counterexample));
  }
  report.bank_conflicts = std::move(shared.banks);

  // The program as executed decides (core/prove/program_run.h): a refuted
  // run refutes whatever the pieces say; a proved run supersedes the pieces
  // that only depart from the layouts' plain reading (a consistent K order,
  // tiles swapped in A and D alike, a staging overwritten before the mma).
  // A layout that is no bijection into the scope's registers (fragment) is
  // an ill-formed declaration, and alignment and swizzle rules are the
  // hardware's: those refutations stand.
  const auto run_start = std::chrono::steady_clock::now();
  ProgramRun run = run_program(program, plan, start + std::chrono::milliseconds(options.timeout_ms));
  const std::chrono::duration<double, std::milli> run_ms = std::chrono::steady_clock::now() - run_start;
  if (run.result == CheckResult::proved && refuted) {
    const auto placement = [](CheckKind k) {
      return k != CheckKind::fragment && k != CheckKind::rows && k != CheckKind::swizzle &&
             k != CheckKind::swizzle_fill && k != CheckKind::swizzle_drain;
    };
    bool stands = false;
    for (const CheckReport& c : report.checks)
      stands = stands || (c.result == CheckResult::refuted && !placement(c.check.kind));
    if (!stands) {
      for (CheckReport& c : report.checks)
        if (c.result == CheckResult::refuted) {
          c.result = CheckResult::superseded;
          c.note = "departs from the layouts' reading; the program as executed computes the gemm (check program)";
        }
      for (const Counterexample& cx : report.counterexamples)
        report.notes.push_back(cx.check.name() + " departs from the layouts' reading (" + cx.message +
                               "), and the program as executed computes the gemm all the same");
      report.counterexamples.clear();
      refuted = false;
    }
  }
  if (run.result == CheckResult::refuted) {
    refuted = true;
    report.counterexamples.push_back(std::move(*run.counterexample));
  }
  unknown = unknown || run.result == CheckResult::unknown;
  if (run.result == CheckResult::unknown &&
      std::chrono::steady_clock::now() >= start + std::chrono::milliseconds(options.timeout_ms))
    run.note = "the run's time limit of " + std::to_string(options.timeout_ms) + " ms ran out before this check";
  report.checks.push_back(CheckReport{CheckId{CheckKind::program, ""}, run.result, options.method, run_ms.count(),
                                      run.note.empty() ? "decided by execution" : "decided by execution: " + run.note,
                                      true});
  report.verdict = refuted ? Verdict::refuted : unknown ? Verdict::unknown : Verdict::proved;
  for (std::string& note : staging_notes(program)) report.notes.push_back(std::move(note));
  return report;
}

}  // namespace mmacheck
