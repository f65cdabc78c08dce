// The Triton file check (cli/family_checks.h): what `mmacheck prove FILE`
// runs on a file its row of cli/input_kinds.cc recognises (`mmacheck triton`
// of earlier releases is an alias of prove for one release).
//
// FILE lists Triton linear layouts of NVIDIA MMA v2 accumulators and dot
// operands (core/triton/triton_dot.h), or is TTGIR text whose tt.dot ops and
// tensor types mmacheck converts to such layouts itself
// (core/triton/triton_ttgir.h; wgmma dots are reported unchecked).  Each is checked against the PTX
// frame of the mma.sync Triton's lowering feeds it to (core/prove/
// triton_check.h).  Text output: one line per layout (verdict, name,
// instruction) with the reason when it does not prove, zero bases and K
// permutations; then `N layouts: P proved, R refuted, I ill_formed, U
// unchecked`.  --json prints {"file", "verdict" (the worst layout's), "layouts":
// [{"name", "operand", "instruction", "result", "counterexample",
// "zero_bases", "k_permutation", "message"}], "unchecked", "notes"}
// (cli/json_shape.h).
// Exit status 0 when every layout proves, 1 when one is refuted, ill-formed or
// unchecked (unchecked is not success; --allow-unchecked accepts it:
// cli/unchecked.h; the summary lists why), 2 bad input.  Several files or
// folders run as `prove` runs them (cli/file_batch.h).
#include <algorithm>
#include <array>
#include <iostream>

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/file_batch.h"
#include "cli/unchecked.h"
#include "cli/verdict_tally.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "core/triton/triton_check.h"
#include "core/triton/triton_report_json.h"
#include "core/triton/triton_ttgir.h"

namespace mmacheck::cli {

namespace {

// One file's layouts checked and reported.

}  // namespace

FileOutcome check_triton_file(const std::string& path, const std::string& text, bool json, bool allow,
                              std::ostream& out) {
  std::vector<TritonReport> reports;
  if (is_ttgir_text(text)) {
    // TTGIR: the dots' encodings, converted by mmacheck (core/triton/triton_ttgir.h).
    TtgirFile ttgir = read_ttgir(text, path);
    if (!ttgir.operands.empty()) reports = check_triton(ttgir.operands);
    for (TritonReport& r : ttgir.judged) reports.push_back(std::move(r));
  } else {
    const std::vector<TritonDotOperand> operands = read_triton_file(text, path);
    if (operands.empty()) throw Error(SourceLoc{path, 0, 0}, "no layouts in \"operands\"");
    reports = check_triton(operands);
  }
  VerdictTally tally;
  for (const TritonReport& r : reports) tally.add(r.result, r.message);
  FileOutcome outcome = tally.outcome(allow);
  if (json) {
    Json list = Json::array();
    for (const TritonReport& r : reports) list.push_back(triton_report_json(r));
    outcome.json = Json{
        {"verdict", verdict_name(tally.worst)}, {"layouts", std::move(list)}, {"unchecked", tally.unchecked.json()}};
    return outcome;
  }
  for (const TritonReport& r : reports) {
    std::string verdict(verdict_name(r.result));
    verdict.resize(11, ' ');
    out << verdict << r.name << "  " << (r.instruction.empty() ? "(accumulator)" : r.instruction) << "\n"
        << "  " << r.message << "\n";
    if (!r.zero_bases.empty()) {
      out << "  zero bases:";
      for (const auto& [dim, b] : r.zero_bases) out << " " << dim << "[" << b << "]";
      out << "\n";
    }
  }
  out << reports.size() << " layouts: " << tally.count(FrameVerdict::proved) << " proved, "
      << tally.count(FrameVerdict::refuted) << " refuted, " << tally.count(FrameVerdict::ill_formed) << " ill_formed, "
      << tally.count(FrameVerdict::unchecked) << " unchecked" << std::endl
      << tally.unchecked.summary(allow) << std::flush;
  return outcome;
}

}  // namespace mmacheck::cli
