// The tcgen05 file check (cli/family_checks.h): what `mmacheck prove FILE`
// runs on a file its row of cli/input_kinds.cc recognises (`mmacheck tcgen05`
// of earlier releases is an alias of prove for one release).
//
// FILE describes one tcgen05.mma (sm_100a) as the program means it, the
// instruction descriptor and shared-memory descriptors it passes, the buffers
// they read and where it reads D in tensor memory
// (core/tcgen05/tcgen05_reader.h), or is a TIRx lowered dump of a
// tcgen05.mma program, recognised by its content (a kernel decorator and
// tcgen05: core/tcgen05/tcgen05_tirx.h).  Checked (core/tcgen05/tcgen05_check.h): the
// instruction descriptor field by field, each operand element by element,
// D's TMEM layout element by element.  Text output: the instruction, the
// idesc verdict and each differing field, one block per operand (verdict,
// descriptor, reason, other fixes), the TMEM verdict; then a summary line.
// --json prints {"file", "verdict", "tcgen05": {instruction, idesc,
// operands, tmem}, "unchecked"}.  Exit status 0 when everything proves, 1
// when something is refuted or unchecked (--allow-unchecked accepts
// unchecked: cli/unchecked.h), 2 bad input.  Several files or folders
// (.txt) run as `prove` runs them (cli/file_batch.h).
#include <algorithm>
#include <iostream>

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/file_batch.h"
#include "cli/json_shape.h"
#include "cli/unchecked.h"
#include "core/base/file_io.h"
#include "core/base/hex.h"
#include "core/base/json.h"
#include "core/tcgen05/tcgen05_check.h"
#include "core/tcgen05/tcgen05_reader.h"
#include "core/tcgen05/tcgen05_tirx.h"
#include "sim/numerics/element_value.h"
#include "sim/tcgen05/tcgen05_arith.h"
#include "sim/tcgen05/tcgen05_file_sim.h"

namespace mmacheck::cli {

namespace {

std::string padded(FrameVerdict v) {
  std::string s(verdict_name(v));
  s.resize(11, ' ');
  return s;
}

Json fields_json(const std::vector<std::string>& fields) {
  Json out = Json::array();
  for (const std::string& f : fields) out.push_back(f);
  return out;
}

Json report_json(const Tcgen05Report& r) {
  Json diffs = Json::array();
  for (const IdescDifference& d : r.idesc_differences)
    diffs.push_back({{"field", d.field->name},
                     {"low_bit", d.field->low},
                     {"width", d.field->width},
                     {"got", d.got},
                     {"want", d.want},
                     {"message", d.message}});
  Json operands = Json::array();
  for (const Tcgen05OperandReport& o : r.operands) {
    Json fixes = Json::array();
    for (const Tcgen05Fix& f : o.fixes)
      fixes.push_back({{"fields", fields_json(f.fields)},
                       {"descriptor", hex(f.descriptor.encode())},
                       {"major", major_name(f.major)}});
    Json op = {{"name", o.name},
               {"operand", std::string(1, o.operand)},
               {"result", verdict_name(o.result)},
               {"descriptor", hex(o.descriptor.encode())},
               {"message", o.message},
               {"mismatches", o.mismatches},
               {"fixes", std::move(fixes)}};
    if (o.counterexample)
      op["counterexample"] = {{"row", o.counterexample->i},
                              {"k", o.counterexample->k},
                              {"read", o.counterexample->read},
                              {"placed", o.counterexample->placed}};
    operands.push_back(std::move(op));
  }
  Json out = {{"instruction", r.instruction},
              {"idesc",
               {{"result", verdict_name(r.idesc_result)},
                {"value", hex(r.idesc)},
                {"expected", hex(r.idesc_expected)},
                {"differences", std::move(diffs)}}},
              {"operands", std::move(operands)},
              {"computation", r.computation}};
  if (!r.k_loop_messages.empty()) {
    Json messages = Json::array();
    for (const std::string& m : r.k_loop_messages) messages.push_back(m);
    out["k_loop"] = {{"result", verdict_name(r.k_loop_result)}, {"messages", std::move(messages)}};
  }
  if (r.tmem) {
    Json t = {{"name", r.tmem->name},
              {"result", verdict_name(r.tmem->result)},
              {"message", r.tmem->message},
              {"mismatches", r.tmem->mismatches}};
    if (r.tmem->counterexample) {
      const TmemMismatch& x = *r.tmem->counterexample;
      const auto pos = [](const TmemPosition& p) {
        return Json{{"cta", p.cta}, {"lane", p.lane}, {"column", p.column}};
      };
      t["counterexample"] = {{"m", x.row}, {"n", x.col}, {"written", pos(x.written)}, {"placed", pos(x.placed)}};
    }
    out["tmem"] = std::move(t);
  }
  return out;
}

}  // namespace

FileOutcome check_tcgen05_file(const std::string& path, const std::string& text, bool json, bool allow,
                               std::ostream& out) {
  const Tcgen05Case c = is_tcgen05_tirx(text) ? read_tcgen05_tirx(text, path) : read_tcgen05_file(text, path);
  const Tcgen05Report r = check_tcgen05(c);
  UncheckedTally unchecked;
  for (const Tcgen05OperandReport& o : r.operands)
    if (o.result == FrameVerdict::unchecked) unchecked.add(o.message);
  if (r.tmem && r.tmem->result == FrameVerdict::unchecked) unchecked.add(r.tmem->message);
  const bool failed = r.result >= FrameVerdict::refuted;
  FileOutcome outcome{status(failed, unchecked, allow), std::string(verdict_name(r.result)), nullptr};
  if (json) {
    outcome.json =
        Json{{"verdict", verdict_name(r.result)}, {"tcgen05", report_json(r)}, {"unchecked", unchecked.json()}};
    return outcome;
  }
  out << r.instruction << "\n"
      << padded(r.idesc_result) << "idesc " << hex(r.idesc) << " (the instruction's: " << hex(r.idesc_expected)
      << ")\n";
  for (const IdescDifference& d : r.idesc_differences) out << "  " << d.message << "\n";
  for (const Tcgen05OperandReport& o : r.operands) {
    out << padded(o.result) << o.name << "\n"
        << "  descriptor " << hex(o.descriptor.encode()) << ": " << o.descriptor.str() << "\n"
        << "  " << o.message << "\n";
    for (std::size_t f = 1; f < o.fixes.size(); ++f) {
      std::string fields;
      for (const std::string& name : o.fixes[f].fields) fields += (fields.empty() ? "" : ", ") + name;
      out << "  also: " << fields << ": " << o.fixes[f].descriptor.str() << " major=" << major_name(o.fixes[f].major)
          << "\n";
    }
  }
  if (r.tmem) out << padded(r.tmem->result) << r.tmem->name << "\n  " << r.tmem->message << "\n";
  if (!r.k_loop_messages.empty()) {
    out << padded(r.k_loop_result) << "K loop\n";
    for (const std::string& m : r.k_loop_messages) out << "  " << m << "\n";
  }
  out << verdict_name(r.result) << ": idesc " << verdict_name(r.idesc_result) << ", " << r.operands.size()
      << " operands, " << (r.tmem ? "TMEM " + std::string(verdict_name(r.tmem->result)) : std::string("no TMEM layout"))
      << (r.k_loop_messages.empty() ? "" : ", K loop " + std::string(verdict_name(r.k_loop_result))) << std::endl
      << "  " << r.computation << "\n"
      << unchecked.summary(allow) << std::flush;
  return outcome;
}

FileOutcome simulate_tcgen05_file(const std::string& path, const std::string& text, const KindOptions& options,
                                  std::ostream& out) {
  const Tcgen05Case c = is_tcgen05_tirx(text) ? read_tcgen05_tirx(text, path) : read_tcgen05_file(text, path);
  const sim::Tcgen05FileSim r = sim::simulate_tcgen05_file(
      c, sim::tcgen05_arith("sm_100"),
      {.cases = options.cases, .seed = options.seed, .inputs = sim::input_set(options.inputs), .show = options.show});
  const DType d = sim::tcgen05_dtype(c.instr.d->name);
  const std::string label = r.failed() ? "failed" : r.unchecked_any() ? "unchecked" : "passed";
  out << r.instr.str() << " on sm_100's arithmetic\n";
  if (!r.problem.empty()) out << "failed     " << r.problem << "\n";
  if (!r.unchecked.empty()) out << "unchecked  " << r.unchecked << "\n";
  std::int64_t cases = 0;
  Json operands = Json::array();
  for (const sim::Tcgen05OperandSim& o : r.operands) {
    const std::string verdict = !o.unchecked.empty() ? "unchecked" : o.failed_cases ? "failed" : "passed";
    std::string padded = verdict;
    padded.resize(11, ' ');
    out << padded << o.name;
    if (!o.unchecked.empty()) {
      out << "\n  " << o.unchecked << "\n";
    } else {
      out << "  " << o.layout << ": " << o.cases << " cases, " << o.failed_cases << " differ (" << o.wrong_elements
          << " of " << o.outputs << " D elements) from the program's instruction packed densely\n";
    }
    Json mismatches = Json::array();
    for (const sim::TileMismatch& m : o.mismatches) {
      const std::string expected = sim::element_text(d, m.expected);
      const std::string got = sim::element_text(d, m.got);
      out << "  case " << m.case_index << " (" << sim::distribution_name(m.dist) << ") D[" << m.row << "][" << m.col
          << "]: " << got << " through the program's descriptors and TMEM layout, " << expected << " packed densely\n";
      mismatches.push_back(mismatch_json(m.case_index, sim::distribution_name(m.dist), m.row, m.col, expected, got));
    }
    cases += o.cases;
    Json item{{"operand", o.name},
              {"instruction", r.instr.str()},
              {"verdict", verdict},
              {"cases", o.cases},
              {"failed_cases", o.failed_cases},
              {"wrong_elements", o.wrong_elements},
              {"mismatches", std::move(mismatches)}};
    if (!o.unchecked.empty()) item["reason"] = o.unchecked;
    else item["layout"] = o.layout;
    operands.push_back(std::move(item));
  }
  out << label << ": " << r.operands.size() << (r.operands.size() == 1 ? " run" : " runs") << std::endl;
  FileOutcome outcome{label == "passed" ? kHolds : kFails, label, nullptr};
  if (options.json) {
    outcome.json = Json{{"verdict", label}, {"cases", cases}, {"tcgen05_sim", std::move(operands)}};
    if (!r.problem.empty()) outcome.json["problem"] = r.problem;
    if (!r.unchecked.empty()) outcome.json["reason"] = r.unchecked;
  }
  return outcome;
}

}  // namespace mmacheck::cli
