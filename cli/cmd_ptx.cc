// The PTX kernel check (cli/family_checks.h): what `mmacheck prove FILE.ptx`
// runs on a PTX module without wgmma (cli/input_kinds.cc's `ptx` row):
// the kernel run on the CPU for the launch in FILE.launch.json beside it
// (core/ptx/ptx_launch.h), and D checked element by element against
// Σ_k A[i][k]·B[k][j] (core/ptx/ptx_check.h).  Text: the verdict and its
// reason, at the PTX line with the CTA and thread for a refutation; --json
// {"file", "verdict", "ptx": {kernel, grid, block, m, n, k, steps, message,
// line, column, cta, thread}, "unchecked"} (core/ptx/ptx_report_json.h, which
// the Python package's report shares).  Exit status 0 proved, 1 refuted or
// unchecked (--allow-unchecked), 2 bad input (the PTX, the launch file, or an
// instruction the machine does not model, at its line).
//
// `mmacheck sim FILE.ptx` runs --cases cases of the launch with numbers
// (sim/ptx/ptx_sim.h: sim's inputs and seed, --arch's arithmetic, default
// sm_90) and checks each D against an f64 reference within its rounding
// bound; the machine's refutations fail it as they fail prove.
#include <sstream>

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/kernel_source.h"
#include "cli/unchecked.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_reader.h"
#include "core/ptx/ptx_report_json.h"
#include "sim/ptx/ptx_sim.h"

namespace mmacheck::cli {

namespace {

Json source_json(const SourceLoc& s) { return {{"file", s.file}, {"line", s.line}, {"column", s.col}}; }

std::string dims_text(const std::array<int, 3>& d) {
  return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + "]";
}

}  // namespace

FileOutcome check_ptx_file(const std::string& path, const std::string& text, const KindOptions& options,
                           std::ostream& out) {
  const bool json = options.json, allow = options.allow;
  const KernelPtx source = kernel_ptx(path, text);
  const ptx::PtxModule module = ptx::read_ptx(source.text, source.file);
  const ptx::PtxReport r =
      ptx::check_ptx_launch(module, ptx::read_launch_for(path, options.launch), run_options(options));
  UncheckedTally unchecked;
  if (r.verdict == FrameVerdict::unchecked) unchecked.add(r.message);
  const bool failed = r.verdict == FrameVerdict::refuted;
  FileOutcome outcome{status(failed, unchecked, allow), std::string(verdict_name(r.verdict)), nullptr};
  if (json) {
    outcome.json = ptx::ptx_report_json(r);
    if (r.finding && !r.finding->source.file.empty())
      outcome.json["ptx"]["source"] = source_json(finding_source(*r.finding, source));
    return outcome;
  }
  out << verdict_name(r.verdict) << ": " << r.kernel << ", grid " << dims_text(r.shape.grid) << " x block "
      << dims_text(r.shape.block) << ", D " << r.m << " x " << r.n << ", K " << r.k << "\n";
  if (r.finding)
    out << "  " << finding_where(*r.finding, source) << ": CTA " << dims_text(r.finding->cta) << ", thread "
        << r.finding->thread << " (warp " << r.finding->thread / 32 << ", lane " << r.finding->thread % 32
        << "): " << r.message << "\n";
  else out << "  " << r.message << "\n";
  out << unchecked.summary(allow) << std::flush;
  return outcome;
}

FileOutcome simulate_ptx_file(const std::string& path, const std::string& text, const KindOptions& options,
                              std::ostream& out) {
  const KernelPtx source = kernel_ptx(path, text);
  const ptx::PtxModule module = ptx::read_ptx(source.text, source.file);
  ptx::PtxLaunch launch = ptx::read_launch_for(path, options.launch);
  const ptx::PtxKernel& kernel = ptx::bind_launch(launch, module);
  // sm_100a modules (tcgen05) default to sm_100's arithmetic.
  const sim::ArchParams& arch =
      sim::arch_params(options.arch.value_or(module.target.starts_with("sm_100") ? "sm_100" : "sm_90"));
  const sim::InputSet inputs = sim::input_set(options.inputs);
  int failed = 0;
  std::int64_t outside = 0;
  double worst = 0;
  std::optional<ptx::Finding> finding;
  std::string reason;
  for (int i = 0; i < options.cases && !finding; ++i) {
    const sim::PtxCase c = sim::simulate_ptx_case(kernel, launch, arch, options.seed, i, inputs, run_options(options));
    if (c.refutation || c.unfollowed) {
      finding = c.refutation ? c.refutation : c.unfollowed;
      reason = c.refutation ? "refuted" : "unchecked";
      ++failed;
      break;
    }
    if (c.outside_bound > 0) ++failed;
    outside += c.outside_bound;
    worst = std::max(worst, c.max_error);
  }
  const bool ok = failed == 0;
  FileOutcome outcome{ok ? kHolds : kFails, ok ? "passed" : "failed", nullptr};
  if (options.json) {
    Json j{{"kernel", kernel.name},  {"arch", std::string(arch.name)},    {"cases", options.cases},
           {"failed_cases", failed}, {"elements_outside_bound", outside}, {"worst_error_over_bound", worst}};
    if (finding) {
      j["finding"] = {{"line", finding->loc.line}, {"column", finding->loc.col},  {"cta", finding->cta},
                      {"thread", finding->thread}, {"message", finding->message}, {"verdict", reason}};
      if (!finding->source.file.empty()) j["finding"]["source"] = source_json(finding_source(*finding, source));
    }
    outcome.json = Json{{"verdict", outcome.label}, {"cases", options.cases}, {"ptx_sim", std::move(j)}};
    return outcome;
  }
  out << outcome.label << ": " << kernel.name << " on " << arch.name << ", " << options.cases << " cases (seed "
      << options.seed << ", " << options.inputs << " inputs)\n";
  if (finding)
    out << "  " << finding_where(*finding, source) << ": CTA " << dims_text(finding->cta) << ", thread "
        << finding->thread << ": " << reason << ": " << finding->message << "\n";
  else
    out << "  " << failed << " cases with D outside the f64 reference's rounding bound (" << outside
        << " elements); the largest error is " << worst << " of the bound\n";
  return outcome;
}

}  // namespace mmacheck::cli
