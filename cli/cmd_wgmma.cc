// The wgmma file check (cli/family_checks.h): what `mmacheck prove FILE`
// runs on a file its row of cli/input_kinds.cc recognises (`mmacheck wgmma`
// of earlier releases is an alias of prove for one release).
//
// FILE lists wgmma.mma_async operands in shared memory, each with its matrix
// descriptor and the buffer it reads (core/wgmma/wgmma_reader.h).  Each is
// checked element by element: does the instruction, given the descriptor,
// read every element where the buffer placed it (core/wgmma/wgmma_check.h)?
// Text output: one line per operand (verdict, name, instruction), the
// descriptor, the reason, and for a refuted one each descriptor that would
// read it right with the fields it changes; then `N operands: P proved, R
// refuted, U unchecked`.  --json prints {"file", "verdict" (the worst
// operand's), "wgmma_operands": [core/wgmma/wgmma_report_json.h], "unchecked",
// "notes"} (cli/json_shape.h).  Exit status 0 when every operand proves, 1
// when one is refuted or unchecked (unchecked is not success;
// --allow-unchecked accepts it: cli/unchecked.h), 2 bad input.  Several
// files or folders (.txt) run as `prove` runs them (cli/file_batch.h).
//
// A .ptx FILE is a kernel's PTX instead: its wgmma.fence, commit_group and
// wait_group order is checked (core/wgmma/wgmma_order.h): text, the verdict
// and each violation at its line; --json {"file", "verdict", "wgmma_order":
// {result, mma_count, group_count, message, violations: [{rule, line,
// column, message}]}}.
#include <algorithm>
#include <array>
#include <iostream>

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/json_shape.h"
#include "cli/file_batch.h"
#include "cli/unchecked.h"
#include "cli/verdict_tally.h"
#include "core/base/file_io.h"
#include "core/base/hex.h"
#include "core/base/json.h"
#include "core/wgmma/wgmma_check.h"
#include "core/wgmma/wgmma_order.h"
#include "core/wgmma/wgmma_reader.h"
#include "core/wgmma/wgmma_report_json.h"
#include "sim/numerics/element_value.h"
#include "sim/numerics/wgmma_model.h"
#include "sim/wgmma/wgmma_file_sim.h"

namespace mmacheck::cli {

FileOutcome check_wgmma_order_file(const std::string& path, const std::string& text, bool json, bool allow,
                                   std::ostream& out) {
  const WgmmaOrderReport r = check_wgmma_order(text, input_name(path));
  UncheckedTally unchecked;
  if (r.result == FrameVerdict::unchecked) unchecked.add(r.message);
  const bool failed = r.result == FrameVerdict::refuted;
  FileOutcome outcome{status(failed, unchecked, allow), std::string(verdict_name(r.result)), nullptr};
  if (json) {
    Json violations = Json::array();
    for (const WgmmaOrderViolation& v : r.violations)
      violations.push_back(
          {{"rule", wgmma_order_rule_name(v.rule)}, {"line", v.at.line}, {"column", v.at.col}, {"message", v.message}});
    outcome.json = Json{{"verdict", verdict_name(r.result)},
                        {"wgmma_order",
                         {{"result", verdict_name(r.result)},
                          {"mma_count", r.mma_count},
                          {"group_count", r.group_count},
                          {"message", r.message},
                          {"violations", std::move(violations)}}},
                        {"unchecked", unchecked.json()}};
    return outcome;
  }
  out << verdict_name(r.result) << ": " << r.message << "\n";
  for (const WgmmaOrderViolation& v : r.violations)
    out << "  " << v.at.str() << ": [" << wgmma_order_rule_name(v.rule) << "] " << v.message << "\n";
  out << unchecked.summary(allow) << std::flush;
  return outcome;
}

FileOutcome check_wgmma_file(const std::string& path, const std::string& text, bool json, bool allow,
                             std::ostream& out) {
  const std::vector<WgmmaCase> cases = read_wgmma_file(text, path);
  std::vector<WgmmaReport> reports;
  for (const WgmmaCase& c : cases) reports.push_back(check_wgmma(c));
  VerdictTally tally;
  for (const WgmmaReport& r : reports) tally.add(r.result, r.message);
  FileOutcome outcome = tally.outcome(allow);
  if (json) {
    Json list = Json::array();
    for (const WgmmaReport& r : reports) list.push_back(wgmma_report_json(r));
    outcome.json = Json{{"verdict", verdict_name(tally.worst)},
                        {"wgmma_operands", std::move(list)},
                        {"unchecked", tally.unchecked.json()}};
    return outcome;
  }
  for (const WgmmaReport& r : reports) {
    std::string verdict(verdict_name(r.result));
    verdict.resize(11, ' ');
    out << verdict << r.name << "  " << r.instruction << "\n"
        << "  descriptor " << hex(r.descriptor.encode()) << ": " << r.descriptor.str() << "\n"
        << "  " << r.message << "\n";
    for (std::size_t f = 1; f < r.fixes.size(); ++f) {
      std::string fields;
      for (const std::string& name : r.fixes[f].fields) fields += (fields.empty() ? "" : ", ") + name;
      out << "  also: " << fields << ": " << r.fixes[f].descriptor.str() << " major=" << major_name(r.fixes[f].major)
          << "\n";
    }
  }
  out << reports.size() << " operands: " << tally.count(FrameVerdict::proved) << " proved, "
      << tally.count(FrameVerdict::refuted) << " refuted, " << tally.count(FrameVerdict::unchecked) << " unchecked"
      << std::endl
      << tally.unchecked.summary(allow) << std::flush;
  return outcome;
}

FileOutcome simulate_wgmma_file(const std::string& path, const std::string& text, const KindOptions& options,
                                std::ostream& out) {
  const sim::ArchParams& arith = sim::wgmma_arith("sm_90");
  const sim::FileSimOptions o{
      .cases = options.cases, .seed = options.seed, .inputs = sim::input_set(options.inputs), .show = options.show};
  int passed = 0, failed = 0;
  std::int64_t cases = 0;
  Json operands = Json::array();
  for (const WgmmaCase& c : read_wgmma_file(text, path)) {
    const sim::WgmmaOperandSim r = sim::simulate_wgmma_operand(c, arith, o);
    const std::string verdict = r.failed_cases ? "failed" : "passed";
    (r.failed_cases ? failed : passed) += 1;
    cases += r.cases;
    std::string padded = verdict;
    padded.resize(11, ' ');
    out << padded << c.name << "  " << r.run.inst.ptx() << ", " << sim::layout_name(r.run) << ": " << r.cases
        << " cases, " << r.failed_cases << " differ (" << r.wrong_elements << " of " << r.outputs
        << " D elements) from the operands packed densely\n";
    Json mismatches = Json::array();
    for (const sim::TileMismatch& m : r.mismatches) {
      const std::string expected = sim::element_text(r.run.inst.d, m.expected);
      const std::string got = sim::element_text(r.run.inst.d, m.got);
      out << "  case " << m.case_index << " (" << sim::distribution_name(m.dist) << ") D[" << m.row << "][" << m.col
          << "]: " << got << " through the buffer and descriptor, " << expected << " packed densely\n";
      mismatches.push_back(mismatch_json(m.case_index, sim::distribution_name(m.dist), m.row, m.col, expected, got));
    }
    operands.push_back({{"operand", c.name},
                        {"instruction", r.run.inst.ptx()},
                        {"layout", sim::layout_name(r.run)},
                        {"verdict", verdict},
                        {"cases", r.cases},
                        {"failed_cases", r.failed_cases},
                        {"wrong_elements", r.wrong_elements},
                        {"mismatches", std::move(mismatches)}});
  }
  out << passed + failed << " operands: " << passed << " passed, " << failed << " failed" << std::endl;
  const std::string label = failed ? "failed" : "passed";
  return {failed ? kFails : kHolds, label,
          options.json ? Json{{"verdict", label}, {"cases", cases}, {"wgmma_sim", std::move(operands)}}
                       : Json(nullptr)};
}

}  // namespace mmacheck::cli
