// The CuTe file check (cli/family_checks.h): what `mmacheck prove FILE`
// runs on a file its row of cli/input_kinds.cc recognises (`mmacheck cute`
// of earlier releases is an alias of prove for one release).
//
// FILE is a CUTLASS trait header (it mentions MMA_Traits) or an atom list
// (core/cute/cute_traits.h).  Every atom is matched to the instruction
// its name names and each of A, B, C is checked against the PTX frame
// (core/cute/cute_check.h; GMMA and UMMA atoms: core/cute/cute_gmma_check.h,
// whose shared- and tensor-memory operands are unchecked).  Text output:
// one line per atom (verdict, instruction), a line per operand that does
// not prove, and a summary
// `N atoms: P proved, R refuted, I ill_formed, U unchecked`.  --json prints
// {"file", "verdict" (the worst atom's), "atoms": [{"atom", "instruction",
// "operands": [{"operand", "result", "counterexample", "message"}],
// "result"}], "unchecked": [{"reason", "count"}], "notes": []}
// (cli/json_shape.h).  Exit status 0 when every atom proves, 1 when one is refuted,
// ill-formed or unchecked (unchecked is not success; --allow-unchecked
// accepts it: cli/unchecked.h), 2 bad input (the reader is strict: anything
// it does not understand is a located error).  Several files or folders run
// as `prove` runs them (cli/file_batch.h): a report each, the worst status.
#include <algorithm>
#include <array>
#include <iostream>

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/file_batch.h"
#include "cli/options.h"
#include "cli/unchecked.h"
#include "cli/verdict_tally.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "core/cute/cute_check.h"
#include "core/cute/cute_report_json.h"
#include "core/cute/cute_tiled_check.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

void print_atom(std::ostream& os, const CuteAtomReport& r) {
  std::string name = r.atom;
  name.resize(std::max<std::size_t>(name.size() + 1, 42), ' ');
  std::string verdict(verdict_name(r.result));
  verdict.resize(11, ' ');
  os << name << verdict << (r.instruction ? *r.instruction : "-") << "\n";
  for (const CuteOperandReport& o : r.operands)
    if (o.result != FrameVerdict::proved)
      os << "  " << operand_name(o.operand) << ": " << verdict_name(o.result) << ": " << o.message << "\n";
}

// Why an unchecked atom is unchecked: its first unchecked operand's reason.
std::string unchecked_reason(const CuteAtomReport& r) {
  for (const CuteOperandReport& o : r.operands)
    if (o.result == FrameVerdict::unchecked) return o.message;
  return "unchecked";
}

// One file's atoms checked and reported.

}  // namespace

FileOutcome check_cute_file(const std::string& path, const std::string& text, const Limits& limits, bool json,
                            bool allow, std::ostream& out) {
  const std::vector<CuteAtomTraits> atoms = read_cute_file(text, path, limits);
  if (atoms.empty()) throw Error(SourceLoc{path, 0, 0}, "no MMA atoms found");

  std::vector<CuteAtomReport> reports;
  for (const CuteAtomTraits& atom : atoms)
    reports.push_back(atom.tiled ? check_cute_tiled(atom, limits) : check_cute_atom(atom));
  VerdictTally tally;
  for (const CuteAtomReport& r : reports)
    tally.add(r.result, r.result == FrameVerdict::unchecked ? unchecked_reason(r) : "");
  FileOutcome outcome = tally.outcome(allow);
  if (json) {
    Json list = Json::array();
    for (const CuteAtomReport& r : reports) list.push_back(cute_report_json(r));
    outcome.json =
        Json{{"verdict", verdict_name(tally.worst)}, {"atoms", std::move(list)}, {"unchecked", tally.unchecked.json()}};
  } else {
    for (const CuteAtomReport& r : reports) print_atom(out, r);
    out << reports.size() << " atoms: " << tally.count(FrameVerdict::proved) << " proved, "
        << tally.count(FrameVerdict::refuted) << " refuted, " << tally.count(FrameVerdict::ill_formed)
        << " ill_formed, " << tally.count(FrameVerdict::unchecked) << " unchecked" << std::endl
        << tally.unchecked.summary(allow) << std::flush;
  }
  return outcome;
}

}  // namespace mmacheck::cli
