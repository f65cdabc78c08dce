// The mma.sp file check (cli/family_checks.h): what `mmacheck prove FILE`
// runs on a file its row of cli/input_kinds.cc recognises (`mmacheck sparse`
// of earlier releases is an alias of prove for one release).
//
// FILE says what a kernel assumes about one mma.sp instruction's metadata
// (core/sparse/sparse_reader.h): the selector, its metadata layout, and
// optionally the sparsity pattern.  It is checked point by point against the
// ISA (core/sparse/sparse_check.h): text output is the verdict, the
// instruction, and the first failing point (lane, e bits, register, element)
// or what was proved; refuted lists up to eight more points.  Exit 0 proved,
// 1 refuted, 2 bad input.
#include <algorithm>
#include <iostream>

#include "cli/family_checks.h"
#include "cli/file_batch.h"
#include "cli/json_shape.h"

#include "cli/command.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/sparse/sparse_reader.h"
#include "cli/vector_replay.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/element_value.h"
#include "sim/numerics/sparse_model.h"
#include "sim/sparse/sparse_file_sim.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

FileOutcome check_sparse_file(const std::string& path, const std::string& text, bool json, bool /*allow*/,
                              std::ostream& out) {
  const SparseReport r = check_sparse(read_sparse_file(text, input_name(path)));
  const bool failed = r.result != FrameVerdict::proved;
  FileOutcome outcome{failed ? kFails : kHolds, std::string(verdict_name(r.result)), nullptr};
  if (json) {
    outcome.json = Json{
        {"verdict", verdict_name(r.result)},
        {"sparse", {{"instruction", r.instruction}, {"check", r.check}, {"message", r.message}, {"also", r.also}}}};
    return outcome;
  }
  out << verdict_name(r.result) << "  " << path << "  " << r.instruction << "\n"
      << "  " << (r.check.empty() ? "" : "[" + r.check + "] ") << r.message << "\n";
  for (const std::string& a : r.also) out << "  also: " << a << "\n";
  return outcome;
}

FileOutcome simulate_sparse_file(const std::string& path, const std::string& text, const KindOptions& options,
                                 std::ostream& out) {
  const SparseCase c = read_sparse_file(text, input_name(path));
  const std::string arch = options.arch.value_or("sm_90");
  const sim::SparseFileSim r = sim::simulate_sparse_file(
      c, sim::arch_params(arch),
      {.cases = options.cases, .seed = options.seed, .inputs = sim::input_set(options.inputs), .show = options.show});
  const std::string label = r.failed_cases ? "failed" : "passed";
  out << label << "  " << path << "  " << c.inst->ptx(c.ordered) << " selector " << c.selector << " on " << arch
      << "'s arithmetic (" << sim::sparse_arith_name(sim::kDefaultSparseArith) << "): " << r.cases << " cases, "
      << r.failed_cases << " differ (" << r.wrong_elements << " of " << r.outputs
      << " D elements) from the metadata where the ISA reads it\n";
  if (!r.undefined.empty()) out << "  " << r.undefined << "\n";
  Json mismatches = Json::array();
  for (const sim::TileMismatch& m : r.mismatches) {
    const std::string expected = sim::element_text(c.inst->d, m.expected);
    const std::string got = sim::element_text(c.inst->d, m.got);
    out << "  case " << m.case_index << " (" << sim::distribution_name(m.dist) << ") D[" << m.row << "][" << m.col
        << "]: " << got << " through the kernel's metadata, " << expected << " as the ISA places it\n";
    mismatches.push_back(mismatch_json(m.case_index, sim::distribution_name(m.dist), m.row, m.col, expected, got));
  }
  FileOutcome outcome{r.failed_cases ? kFails : kHolds, label, nullptr};
  if (options.json) {
    Json sim{{"instruction", c.inst->ptx(c.ordered)},
             {"selector", c.selector},
             {"arch", arch},
             {"failed_cases", r.failed_cases},
             {"wrong_elements", r.wrong_elements},
             {"mismatches", std::move(mismatches)}};
    if (!r.undefined.empty()) sim["undefined"] = r.undefined;
    outcome.json = Json{{"verdict", label}, {"cases", r.cases}, {"sparse_sim", std::move(sim)}};
  }
  return outcome;
}

}  // namespace mmacheck::cli
