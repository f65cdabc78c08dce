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
#include "cli/unchecked.h"
#include "core/base/file_io.h"
#include "core/scales/scale_reader.h"

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

}  // namespace mmacheck::cli
