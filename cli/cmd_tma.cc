// The TMA file check (cli/family_checks.h): what `mmacheck prove FILE`
// runs on a file its row of cli/input_kinds.cc recognises (`mmacheck tma`
// of earlier releases is an alias of prove for one release).
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

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/file_batch.h"
#include "cli/unchecked.h"
#include "cli/verdict_tally.h"
#include "core/base/file_io.h"
#include "core/base/hex.h"
#include "core/base/json.h"
#include "core/tma/tma_check.h"
#include "core/tma/tma_reader.h"
#include "core/tma/tma_report_json.h"

namespace mmacheck::cli {

FileOutcome check_tma_file(const std::string& path, const std::string& text, bool json, bool allow, std::ostream& out) {
  const std::vector<TmaCase> cases = read_tma_file(text, path);
  std::vector<TmaReport> reports;
  for (const TmaCase& c : cases) reports.push_back(check_tma(c));
  VerdictTally tally;
  for (const TmaReport& r : reports) tally.add(r.result, r.message);
  FileOutcome outcome = tally.outcome(allow);
  if (json) {
    Json list = Json::array();
    for (const TmaReport& r : reports) list.push_back(tma_report_json(r));
    outcome.json = Json{{"verdict", verdict_name(tally.worst)},
                        {"tma_operands", std::move(list)},
                        {"unchecked", tally.unchecked.json()}};
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
  out << reports.size() << " operands: " << tally.count(FrameVerdict::proved) << " proved, "
      << tally.count(FrameVerdict::refuted) << " refuted, " << tally.count(FrameVerdict::unchecked) << " unchecked"
      << std::endl
      << tally.unchecked.summary(allow) << std::flush;
  return outcome;
}

}  // namespace mmacheck::cli
