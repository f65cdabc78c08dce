// mmacheck tma FILE... [--json] [-j N] [--allow-unchecked]
//
// FILE lists TMA copies (a cuTensorMapEncodeTiled tensor map and the
// copy's shared destination) and the wgmma operands that read what they
// wrote, each with its matrix descriptor (core/tma/tma_reader.h).  Each
// operand is checked element by element: does the instruction read every
// element of its tile where the copy wrote it (core/tma/tma_check.h)?
// Text output: one line per operand (verdict, name, instruction), the
// tensor map, the descriptor, the mismatched fields and the reason; then
// `N operands: P proved, R refuted, U unchecked`.  --json prints {"file",
// "verdict", "tma_operands": [core/tma/tma_report_json.h], "unchecked",
// "notes"}.  Exit status 0 when every operand proves, 1 when one is refuted
// or unchecked (--allow-unchecked accepts unchecked), 2 bad input.
#include <algorithm>
#include <array>
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "cli/file_batch.h"
#include "cli/unchecked.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "core/tma/tma_check.h"
#include "core/tma/tma_reader.h"
#include "core/tma/tma_report_json.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

std::string hex(std::uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

FileOutcome check_tma_file(const std::string& path, bool json, bool allow, std::ostream& out) {
  const std::vector<TmaCase> cases = read_tma_file(read_text_file(path), path);
  std::vector<TmaReport> reports;
  for (const TmaCase& c : cases) reports.push_back(check_tma(c));
  std::array<int, 4> counts{};
  UncheckedTally unchecked;
  FrameVerdict worst = FrameVerdict::proved;
  for (const TmaReport& r : reports) {
    ++counts[static_cast<std::size_t>(r.result)];
    if (r.result == FrameVerdict::unchecked) unchecked.add(r.message);
    worst = std::max(worst, r.result);
  }
  const bool failed = counts[2] || counts[3];
  FileOutcome outcome{status(failed, unchecked, allow),
                      failed              ? "refuted"
                      : unchecked.count() ? "unchecked"
                                          : "proved",
                      nullptr};
  if (json) {
    Json list = Json::array();
    for (const TmaReport& r : reports) list.push_back(tma_report_json(r));
    outcome.json =
        Json{{"verdict", verdict_name(worst)}, {"tma_operands", std::move(list)}, {"unchecked", unchecked.json()}};
    return outcome;
  }
  for (const TmaReport& r : reports) {
    std::string verdict(verdict_name(r.result));
    verdict.resize(11, ' ');
    out << verdict << r.name << "  " << r.instruction << "\n"
        << "  tensor map " << r.tensor_map << "\n"
        << "  descriptor " << hex(r.descriptor.encode()) << ": " << r.descriptor.str() << "\n";
    if (!r.fields.empty()) {
      std::string fields;
      for (const std::string& f : r.fields) fields += (fields.empty() ? "" : ", ") + f;
      out << "  fields: " << fields << "\n";
    }
    out << "  " << r.message << "\n";
    for (const std::string& note : r.notes) out << "  note: " << note << "\n";
  }
  out << reports.size() << " operands: " << counts[0] << " proved, " << counts[2] << " refuted, " << counts[1]
      << " unchecked" << std::endl
      << unchecked.summary(allow) << std::flush;
  return outcome;
}

}  // namespace

int run_tma(const Args& args) {
  po::options_description options("mmacheck tma");
  // clang-format off
  options.add_options()
      ("file", po::value<std::vector<std::string>>(), "TMA copy and wgmma operand files (core/tma/tma_reader.h) or folders of them; - is standard input")
      ("json", po::bool_switch(), "print the JSON report (JSON Lines, one object per file, for several)")
      ("jobs,j", po::value<int>()->default_value(1), "files checked at once (0: one per hardware thread)");
  // clang-format on
  options.add(unchecked_option());
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("tma: no FILE (tma, operand, descriptor and smem lines)");
  const bool json = vm["json"].as<bool>();
  const bool allow = vm["allow-unchecked"].as<bool>();
  const BatchOptions batch{.jobs = checked_jobs(vm["jobs"].as<int>()), .json = json};
  return run_batch(expand_inputs(vm["file"].as<std::vector<std::string>>(), {}, {".txt"}), batch,
                   [&](const std::string& path, std::ostream& out) { return check_tma_file(path, json, allow, out); });
}

}  // namespace mmacheck::cli
