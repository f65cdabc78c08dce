// mmacheck sim FILE... [--cases N] [--seed S] [--inputs standard|edge|all] [--arch sm_70..sm_120]
//                      [--inst-set tvm|extended] [--show N] [--threads T]
//
// Dispatches the file's gemm and runs the whole program (stage -> nest ->
// store) on the lane-accurate warp machine for N random cases, the input
// distributions taking turns (normal, wide, cancel, bits, spread, sparse,
// specials, nearsum).  Every element of D's region must be
//   1. bit-identical to the direct evaluation (logical tiles, same K order),
//   2. within the error bound of the Eigen reference (NaN/Inf by class).
// Failing elements are named (case, distribution, D[row][col], got vs
// expected bits and values, which check failed), then a summary line.
// Cases are checked T at a time (default: the hardware threads, shared
// among the files of -j); the report is the same for any T.  A vector file
// (cli/vector_replay.h) is replayed through its family's simulator instead,
// with --arch when given, else the family's; a family's file runs through
// its row of cli/input_kinds.h (a wgmma operand file: random cases through
// its buffer and descriptor against the operands packed densely,
// sim/wgmma/wgmma_file_sim.h); a family with no arithmetic model to run
// its file with is bad input saying so.
//
// Exit status: 0 every case passes; 1 some element fails or the dispatch
// fails (its reasons printed); 2 bad input.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>

#include "cli/command.h"
#include "cli/vector_replay.h"
#include "cli/options.h"
#include "cli/file_batch.h"
#include "cli/input_kinds.h"
#include "cli/kernel_batch.h"
#include "cli/progress.h"
#include "core/gemm/dispatch.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/worker_pool.h"
#include "core/program/read/read_program.h"
#include "sim/numerics/element_value.h"
#include "sim/check/error_bound.h"
#include "sim/numerics/random_inputs.h"
#include "sim/check/case_options.h"
#include "sim/check/run_cases.h"
#include "sim/check/sim_check.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

std::string number(long double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9Lg", v);
  return buf;
}

// What the reference accepts, e.g. "1.5 ± 1.2e-07", "1.5 ± 1.2e-07 or +Inf", "NaN".
std::string expectation_text(const sim::Expectation& e, DType type) {
  if (!dtype_info(type).is_float) return number(e.value) + " (mod 2^32)";
  std::string out;
  const auto add = [&](const std::string& s) { out += (out.empty() ? "" : " or ") + s; };
  if (e.classes & sim::kFinite) {
    char bound[32];
    std::snprintf(bound, sizeof bound, "%.2Lg", e.bound);
    add(number(e.value) + " ± " + bound);
  }
  if (e.classes & sim::kPosInf) add("+Inf");
  if (e.classes & sim::kNegInf) add("-Inf");
  if (e.classes & sim::kNaN) add("NaN");
  return out;
}

std::string failure_text(const sim::ElementCheck& f, DType type) {
  std::string failed = !f.bit_exact && !f.within_bound ? "bit-exact and bound checks"
                       : !f.bit_exact                  ? "bit-exact check"
                                                       : "bound check";
  return "got " + sim::element_text(type, f.got) + "; direct evaluation " + sim::element_text(type, f.direct) +
         "; reference " + expectation_text(f.reference, type) + " [" + failed + " failed]";
}

// The bits as JSON reads them back: "0x3c00", as wide as the type.
std::string hex_bits(DType type, std::uint64_t bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", dtype_info(type).bits / 4, static_cast<unsigned long long>(bits));
  return buf;
}

Json failure_json(const sim::CaseFailure& failure, const std::string& buffer, DType type) {
  const sim::ElementCheck& f = failure.element;
  return {{"case", failure.case_index},
          {"distribution", sim::distribution_name(failure.dist)},
          {"element", buffer + "[" + std::to_string(f.row) + "][" + std::to_string(f.col) + "]"},
          {"row", f.row},
          {"col", f.col},
          {"got", hex_bits(type, f.got)},
          {"direct", hex_bits(type, f.direct)},
          {"reference", expectation_text(f.reference, type)},
          {"bit_exact", f.bit_exact},
          {"within_bound", f.within_bound}};
}

struct SimSettings {
  sim::CaseOptions cases;  // threads: cases checked at once per file
  const sim::ArchParams* arch;
  InstSet inst_set;
  Limits limits;
  bool json;
  bool progress;                           // off when several files run at once: one line per run
  std::optional<std::string> replay_arch;  // --arch as given, for vector files (else their family's)
  ptx::LaunchChoice launch;                // a PTX or CUDA kernel's launch options
};

// `notes_for(dispatch failed)`: the report's notes, which depend on whether the kernel dispatches.
KernelOutcome simulate_program(const Program& program, const std::function<std::vector<std::string>(bool)>& notes_for,
                               const SimSettings& s, std::ostream& out) {
  const Plan plan = dispatch(program, s.inst_set, s.limits);
  const std::vector<std::string> notes = notes_for(!plan.ok);
  if (!plan.ok) {
    out << "dispatch_failed\n";
    for (const std::string& r : plan.reasons) out << "  " << r << "\n";
    for (const std::string& n : notes) out << "note: " << n << "\n";
    return {
        false, "dispatch_failed", true, {{"verdict", "dispatch_failed"}, {"reasons", plan.reasons}, {"notes", notes}}};
  }
  const sim::SimCheck check(program, plan.nest, *s.arch);
  const GemmGeometry& g = check.geometry();
  const std::string& d_name = program.gemm->d.buffer;
  out << plan.inst->ptx() << " on " << s.arch->name << ": M x N x K = " << g.m << " x " << g.n << " x " << g.k << ", "
      << plan.nest.mma_count() << " mma per warp, " << check.machine().warps() << " warp(s); " << s.cases.cases
      << " cases, seed " << s.cases.seed << "\n";

  sim::CaseRunReport r;
  {
    Progress progress(s.progress ? s.cases.cases : 0, "cases");
    sim::CaseOptions options = s.cases;
    options.progress = [&](std::int64_t done) { progress.update(done); };
    r = sim::run_cases(check, options);
  }
  Json failures = Json::array();
  for (const sim::CaseFailure& f : r.failures) {
    if (s.json) failures.push_back(failure_json(f, d_name, g.d.dtype()));
    else
      out << "  case " << f.case_index << " (" << sim::distribution_name(f.dist) << ") " << d_name << "["
          << f.element.row << "][" << f.element.col << "]: " << failure_text(f.element, g.d.dtype()) << "\n";
  }
  const bool passed = r.passed();
  if (r.wrong_elements > s.cases.show) out << "  ... " << r.wrong_elements - s.cases.show << " more failing elements\n";
  if (passed)
    out << "passed: " << s.cases.cases << " cases, every element bit-identical to the direct evaluation and "
        << "within the Eigen reference bound" << std::endl;
  else
    out << "FAILED: " << r.failed_cases << " of " << s.cases.cases << " cases, " << r.wrong_elements
        << " wrong elements (" << r.not_bit_exact << " differ from the direct evaluation, " << r.outside_bound
        << " outside the Eigen reference bound)" << std::endl;
  const Json report = {{"verdict", passed ? "passed" : "failed"},
                       {"instruction", plan.inst->ptx()},
                       {"arch", s.arch->name},
                       {"shape", {{"M", g.m}, {"N", g.n}, {"K", g.k}}},
                       {"mma_count", plan.nest.mma_count()},
                       {"warps", check.machine().warps()},
                       {"cases", s.cases.cases},
                       {"seed", s.cases.seed},
                       {"inputs", sim::input_set_name(s.cases.inputs)},
                       {"failed_cases", r.failed_cases},
                       {"wrong_elements", r.wrong_elements},
                       {"not_bit_exact", r.not_bit_exact},
                       {"outside_bound", r.outside_bound},
                       {"failures", std::move(failures)},
                       {"notes", notes}};
  for (const std::string& n : notes) out << "note: " << n << "\n";
  return {passed, passed ? "passed" : "failed", false, report};
}

// One file: its own program, or each kernel its tests build (cli/kernel_batch.h);
// a family's file its row's simulation (a vector file is replayed through its
// family's simulator, as `mmacheck replay` does).
FileOutcome simulate_file(const std::string& path, const SimSettings& s, std::ostream& out) {
  const std::string text = read_text_file(path);  // once: it may be standard input
  const InputKind* kind = recognise(path, text, s.launch);
  check_launch_options(s.launch, kind, path);
  // A family's file: its row's simulation (cli/input_kinds.h).
  if (kind != nullptr) {
    if (!kind->simulate)
      throw Error(SourceLoc{input_name(path), 0, 0}, "sim has no arithmetic model to run " + std::string(kind->what) +
                                                         " with yet; 'mmacheck prove " + path + "' checks it");
    KindOptions o;
    o.json = s.json;
    o.limits = s.limits;
    o.arch = s.replay_arch;
    o.cases = static_cast<int>(s.cases.cases);
    o.seed = s.cases.seed;
    o.inputs = std::string(sim::input_set_name(s.cases.inputs));
    o.show = s.cases.show;
    o.launch = s.launch;
    return kind->simulate(path, text, o, out);
  }
  const ReadProgram read = read_program(text, input_name(path));
  return check_kernels(read, s.json, out, [&](const Program& program, const KernelInstance* kernel, std::ostream& o) {
    return simulate_program(
        program, [&](bool failed) { return kernel ? kernel_notes(read, kernel, failed) : std::vector<std::string>{}; },
        s, o);
  });
}

}  // namespace

int run_sim(const Args& args) {
  po::options_description options("mmacheck sim");
  // clang-format off
  options.add_options()
      ("file", po::value<std::vector<std::string>>(),
       "program files (layout files, TVMScript, the released TIRx), vector files (replayed through their family's "
       "simulator), wgmma operand files (random cases through their buffer and descriptor) or folders (.txt, .py); "
       "- is standard input")
      ("cases", po::value<int>()->default_value(64), "random cases")
      ("seed", po::value<std::uint64_t>()->default_value(1), "random seed")
      ("inputs", po::value<std::string>()->default_value("standard"),
       "random input kinds: standard (the shared vectors' eight), edge (threshold, zeroterm, underflow, ties, "
       "overflow, lowbits) or all")
      ("arch", po::value<std::string>()->default_value("sm_90"), ("arithmetic model: " + sim::arch_names()).c_str())
      ("inst-set", po::value<std::string>()->default_value("tvm"), "instruction set: tvm or extended")
      ("json", po::bool_switch(), "print a JSON object (JSON Lines, one per file, for several)")
      ("jobs,j", po::value<int>()->default_value(1), "files simulated at once (0: one per hardware thread)");
  // clang-format on
  options.add(threads_option("cases checked at once in each file; 0 shares them among the -j files"));
  options.add(show_option("failing elements to print per file"));
  options.add(limit_options());
  options.add(input_options());
  options.add(launch_options());
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("sim: no layout file (usage: " + usage_line("sim") + ")");
  const std::vector<std::string> operands = vm["file"].as<std::vector<std::string>>();
  const std::vector<std::string> inputs = expand_inputs(operands, input_selection(vm), folder_extensions(Job::sim));
  SimSettings settings{.cases = {.cases = vm["cases"].as<int>(),
                                 .seed = vm["seed"].as<std::uint64_t>(),
                                 .inputs = sim::input_set(vm["inputs"].as<std::string>()),
                                 .threads = vm["threads"].as<int>(),
                                 .show = vm["show"].as<int>()},
                       .arch = &sim::arch_params(vm["arch"].as<std::string>()),
                       .inst_set = parse_inst_set(vm["inst-set"].as<std::string>()),
                       .limits = limits_from(vm),
                       .json = vm["json"].as<bool>(),
                       .progress = inputs.size() == 1,
                       .replay_arch =
                           vm["arch"].defaulted() ? std::nullopt : std::optional(vm["arch"].as<std::string>()),
                       .launch = launch_choice_from(vm)};
  sim::check_case_options(settings.cases, "sim");
  const BatchOptions batch{
      .jobs = checked_jobs(vm["jobs"].as<int>()),
      .json = settings.json,
      .skip_no_gemm = skip_no_gemm(vm, operands),
      .also_checks = [](std::string_view path, std::string_view text) { return recognise(path, text) != nullptr; }};
  // Unless asked, the files of -j share the hardware threads.
  if (settings.cases.threads == 0)
    settings.cases.threads =
        std::max(1, WorkerPool::hardware_threads() / std::min<int>(batch.jobs, static_cast<int>(inputs.size())));
  return run_batch(inputs, batch,
                   [&](const std::string& path, std::ostream& out) { return simulate_file(path, settings, out); });
}

}  // namespace mmacheck::cli
