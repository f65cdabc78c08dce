// The block-scale file check (cli/family_checks.h): what `mmacheck prove FILE`
// runs on a file its row of cli/input_kinds.cc recognises (`mmacheck scales`
// of earlier releases is an alias of prove for one release).
//
// FILE says how a program places sm_120 block-scaled mma.sync's scale
// factors: the instruction, the selectors it passes and what each lane's
// scale word holds (core/scales/scale_reader.h).  Each operand's placement is
// proved or refuted against the scale-factor frame (core/scales/scale_check.h):
// one line per operand (verdict, A or B, the reason or the lane and byte
// that disagree), then `N operands: P proved, R refuted, U unchecked`.  Exit
// status 0 when every operand proves, 1 when one is refuted or unchecked
// (--allow-unchecked accepts unchecked: cli/unchecked.h), 2 bad input.
// Several files or folders (.txt) run as `prove` runs them (cli/file_batch.h).
#include <algorithm>
#include <array>
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/file_batch.h"
#include "cli/json_shape.h"
#include "cli/unchecked.h"
#include "core/base/file_io.h"
#include "core/scales/scale_reader.h"
#include "sim/numerics/element_value.h"
#include "sim/scales/scale_file_sim.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

FileOutcome check_scale_file(const std::string& path, const std::string& text, bool json, bool allow,
                             std::ostream& report) {
  const std::vector<ScaleCase> cases = read_scale_file(text, input_name(path));
  std::array<int, 4> counts{};
  UncheckedTally unchecked;
  Json operands = Json::array();
  std::ostringstream discard;
  std::ostream& out = json ? discard : report;
  for (const ScaleCase& c : cases) {
    out << c.inst->ptx() << "\n";
    for (const Operand op : {Operand::A, Operand::B}) {
      const std::optional<ScalePlacement>& p = op == Operand::A ? c.a : c.b;
      const ScaleReport r =
          p ? check_scales(*c.inst, *p)
            : ScaleReport{op, FrameVerdict::unchecked,
                          std::string("no 'place ") + (op == Operand::A ? "a" : "b") + "' line", std::nullopt};
      ++counts[static_cast<std::size_t>(r.result)];
      operands.push_back({{"instruction", c.inst->ptx()},
                          {"operand", operand_name(op)},
                          {"result", verdict_name(r.result)},
                          {"message", r.message}});
      if (r.result == FrameVerdict::unchecked) unchecked.add(r.message);
      std::string verdict(verdict_name(r.result));
      verdict.resize(11, ' ');
      out << "  " << verdict << operand_name(op) << "  " << r.message << "\n";
    }
  }
  const bool failed = counts[2] != 0;
  out << 2 * cases.size() << " operands: " << counts[0] << " proved, " << counts[2] << " refuted, " << counts[1]
      << " unchecked" << std::endl
      << unchecked.summary(allow) << std::flush;
  const std::string label = failed ? "refuted" : unchecked.count() ? "unchecked" : "proved";
  return {status(failed, unchecked, allow), label,
          json ? Json{{"verdict", label}, {"scales", std::move(operands)}} : Json(nullptr)};
}

FileOutcome simulate_scale_file(const std::string& path, const std::string& text, const KindOptions& options,
                                std::ostream& out) {
  const std::vector<ScaleCase> cases = read_scale_file(text, input_name(path));
  const std::string arch = options.arch.value_or("sm_120");
  int passed = 0, failed = 0, unchecked = 0;
  std::int64_t all_cases = 0;
  Json runs = Json::array();
  for (const ScaleCase& c : cases) {
    const sim::ScaleCaseSim r = sim::simulate_scale_case(
        c, sim::arch_params(arch),
        {.cases = options.cases, .seed = options.seed, .inputs = sim::input_set(options.inputs), .show = options.show});
    const std::string verdict = !r.unchecked.empty() ? "unchecked" : r.failed_cases ? "failed" : "passed";
    (verdict == "passed" ? passed : verdict == "failed" ? failed : unchecked) += 1;
    std::string padded = verdict;
    padded.resize(11, ' ');
    out << padded << c.inst->ptx() << " (line " << c.at.line << ")\n  ";
    if (!r.unchecked.empty()) out << r.unchecked << "\n";
    else
      out << r.cases << " cases on " << arch << "'s arithmetic, " << r.failed_cases << " differ (" << r.wrong_elements
          << " of " << r.outputs << " D elements) from the scale factors where the ISA reads them\n";
    Json mismatches = Json::array();
    for (const sim::TileMismatch& m : r.mismatches) {
      const std::string expected = sim::element_text(c.inst->d, m.expected), got = sim::element_text(c.inst->d, m.got);
      out << "  case " << m.case_index << " (" << sim::distribution_name(m.dist) << ") D[" << m.row << "][" << m.col
          << "]: " << got << " through the program's scale words, " << expected << " as the ISA places them\n";
      mismatches.push_back(mismatch_json(m.case_index, sim::distribution_name(m.dist), m.row, m.col, expected, got));
    }
    all_cases += r.cases;
    Json run{{"instruction", c.inst->ptx()},
             {"verdict", verdict},
             {"cases", r.cases},
             {"failed_cases", r.failed_cases},
             {"mismatches", std::move(mismatches)}};
    if (!r.unchecked.empty()) run["reason"] = r.unchecked;
    runs.push_back(std::move(run));
  }
  const std::string label = failed ? "failed" : unchecked ? "unchecked" : "passed";
  out << cases.size() << " instructions: " << passed << " passed, " << failed << " failed, " << unchecked
      << " unchecked" << std::endl;
  FileOutcome outcome{label == "passed" ? kHolds : kFails, label, nullptr};
  if (options.json) outcome.json = Json{{"verdict", label}, {"cases", all_cases}, {"scales_sim", std::move(runs)}};
  return outcome;
}

}  // namespace mmacheck::cli
