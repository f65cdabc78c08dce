// mmacheck gpu FILE... [--cases N] [--seed S] [--inputs standard|edge|all] [--inst-set tvm|extended] [--show N]
//                      [--devices all|0,1,..] [--threads T] [--batch B]
// mmacheck gpu --inst wgmma|PTX|mma.sp|TAG... [--n N,..|every] [--selector F|all] [--unordered] [--capture PATH]
// mmacheck gpu FILE|--inst ... --print-kernel
//
// Dispatches the file's gemm, generates a CUDA kernel from its nest (staging
// from the file's stage/store statements or the buffers' layouts), compiles
// it with NVRTC for the device, runs N random cases (one CTA each) and
// compares D bit for bit with the lane-accurate simulator: the warp machine
// (sim/machine/warp_machine.h) staged through the same tables, with the arithmetic
// of the device's architecture.  The cases go in batches of B (default: as
// many as fit 32 MB of host memory) spread over the chosen devices, while T
// threads (default: every hardware thread) draw and simulate the next
// batches (cuda/differential.h); the last line gives cases per minute and
// where the time went.  Files run one after another: each uses every
// thread and every chosen device.
//
// A wgmma operand file runs its proved operands on the device (the front
// door's row, cli/input_kinds.h; cli/gpu_wgmma.cc); another family's file is
// bad input naming prove.  --inst runs single instructions of the wgmma and
// mma.sp families, one report per family after the files' (cli/gpu_runs.h);
// the family commands wgmma-gpu and sparse-gpu of earlier releases are
// aliases of these runs (cli/commands.cc).
//
// Exit status: 0 every case matches; 1 a mismatch or a dispatch failure;
// 2 bad input (also: no arithmetic model for the device's architecture);
// 3 no GPU (no driver, no device, no NVRTC).  Everything that needs no GPU
// (parse, dispatch, staging, kernel generation) is checked first, so bad
// input exits 2 on any machine.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/command.h"
#include "cli/json_shape.h"
#include "cli/options.h"
#include "cli/file_batch.h"
#include "cli/kernel_batch.h"
#include "cli/family_checks.h"
#include "cli/gpu_runs.h"
#include "cli/input_kinds.h"
#include "cli/progress.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/program/read/read_program.h"
#include "cuda/device_selection.h"
#include "cuda/gpu_check.h"
#include "sim/check/case_options.h"
#include "sim/numerics/element_value.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

struct GpuSettings {
  cuda::GpuCheckOptions check;
  bool json;
  bool progress;             // off over several files: the batch draws one line
  ptx::LaunchChoice launch;  // a PTX or CUDA kernel's launch options
};

Json device_ordinals(const std::vector<cuda::GpuCheckDevice>& devices) {
  Json out = Json::array();
  for (const cuda::GpuCheckDevice& d : devices) out.push_back(d.ordinal);
  return out;
}

FileOutcome run_gpu_program(const Program& program, const GpuSettings& s, cuda::LazyGpuSession& session,
                            std::ostream& out);

FileOutcome run_gpu_file(const std::string& path, const GpuSettings& s, cuda::LazyGpuSession& session,
                         std::ostream& out) {
  // A family's file: its row's run on the device (cli/input_kinds.h).
  if (path != "-") {
    const std::string text = read_text_file(path);
    const InputKind* kind = recognise(path, text, s.launch);
    check_launch_options(s.launch, kind, path);
    if (kind != nullptr) {
      if (!kind->gpu)
        throw Error(SourceLoc{input_name(path), 0, 0}, "gpu has no run of " + std::string(kind->what) +
                                                           " on the device yet; 'mmacheck prove " + path +
                                                           "' checks it");
      KindOptions o;
      o.json = s.json;
      o.cases = static_cast<int>(s.check.cases.cases);
      o.seed = s.check.cases.seed;
      o.inputs = std::string(sim::input_set_name(s.check.cases.inputs));
      o.show = s.check.cases.show;
      o.launch = s.launch;
      return kind->gpu(path, text, o, out);
    }
  }
  // A file of several kernels (a test file's builds, factories): each runs.
  const ReadProgram read = read_program_file(path);
  if (read.instances.empty()) return run_gpu_program(read.program, s, session, out);
  std::optional<Json> no_gpu;  // the first kernel's answer, said once
  FileOutcome each = check_kernels(read, s.json, out, [&](const Program& p, const KernelInstance*, std::ostream& o) {
    if (no_gpu) return KernelOutcome{false, "no GPU", false, *no_gpu};
    FileOutcome r = run_gpu_program(p, s, session, o);
    if (r.status == kNoGpu) no_gpu = r.json;
    return KernelOutcome{r.status == kHolds, r.label, r.label == "dispatch_failed", std::move(r.json)};
  });
  if (no_gpu) return {kNoGpu, "no GPU", std::move(each.json)};
  return each;
}

FileOutcome run_gpu_program(const Program& program, const GpuSettings& s, cuda::LazyGpuSession& session,
                            std::ostream& out) {
  Progress progress(s.progress ? s.check.cases.cases : 0, "cases simulated");
  cuda::GpuCheckOptions options = s.check;
  options.cases.progress = [&](std::int64_t done) { progress.update(done); };
  const cuda::GpuCheckReport r = cuda::run_gpu_check(program, session, options);
  if (r.result == cuda::GpuCheckResult::dispatch_failed) {
    out << "dispatch_failed\n";
    for (const std::string& reason : r.dispatch_reasons) out << "  " << reason << "\n";
    return {kFails, "dispatch_failed", {{"verdict", "dispatch_failed"}, {"reasons", r.dispatch_reasons}}};
  }
  if (r.result == cuda::GpuCheckResult::no_gpu) {
    std::cerr << "gpu: no GPU: " << r.no_gpu_reason << "\n";
    return {kNoGpu, "no GPU", {{"verdict", "no_gpu"}, {"message", r.no_gpu_reason}}};
  }
  const Nest& nest = r.plan->nest;
  for (const cuda::GpuCheckDevice& d : r.devices)
    out << d.name << " (sm_" << d.sm << ", device " << d.ordinal << "), driver " << r.driver << ", NVRTC " << r.nvrtc
        << "\n";
  out << nest.inst->ptx() << ": " << nest.tiles_m << " x " << nest.tiles_n << " x " << nest.tiles_k
      << " tiles per warp, " << nest.mma_count() << " mma, " << r.cta_threads << " threads\n";
  const cuda::DiffReport& report = r.diff;
  Json mismatches = Json::array();
  for (const cuda::DiffMismatch& m : report.mismatches) {
    mismatches.push_back(mismatch_json(m.case_index, sim::distribution_name(m.dist), m.row, m.col,
                                       sim::element_text(r.d_type, m.expected), sim::element_text(r.d_type, m.got)));
    out << "  case " << m.case_index << " (" << sim::distribution_name(m.dist) << ") " << r.d_buffer << "[" << m.row
        << "][" << m.col << "]: expected " << sim::element_text(r.d_type, m.expected) << ", got "
        << sim::element_text(r.d_type, m.got) << "\n";
  }
  out << report.cases - report.failed_cases << " cases match, " << report.failed_cases << " differ ("
      << report.mismatched_elements << " elements)\n";
  const cuda::DiffTiming& t = report.timing;
  char rate[256];
  std::snprintf(rate, sizeof rate,
                "%.3g M cases per minute (%.3f s; draw, pack and simulate %.3f s, wait for the device %.3f s, "
                "compare %.3f s; %lld batches of %lld cases, %zu device(s), %d threads; set-up %.3f s)",
                report.cases_per_minute() / 1e6, t.total, t.prepare, t.wait, t.compare,
                static_cast<long long>(t.batches), static_cast<long long>(t.batch_cases), r.devices.size(),
                r.sim_threads, r.setup_s);
  out << rate << std::endl;
  const bool match = r.result == cuda::GpuCheckResult::match;
  const Json json = {{"verdict", match ? "match" : "differ"},
                     {"device", r.devices.front().name},
                     {"devices", device_ordinals(r.devices)},
                     {"sm", r.devices.front().sm},
                     {"driver", r.driver},
                     {"nvrtc", r.nvrtc},
                     {"instruction", nest.inst->ptx()},
                     {"tiles", {{"M", nest.tiles_m}, {"N", nest.tiles_n}, {"K", nest.tiles_k}}},
                     {"mma_count", nest.mma_count()},
                     {"threads", r.cta_threads},
                     {"cases", report.cases},
                     {"seed", s.check.cases.seed},
                     {"inputs", sim::input_set_name(s.check.cases.inputs)},
                     {"failed_cases", report.failed_cases},
                     {"mismatched_elements", report.mismatched_elements},
                     {"mismatches", std::move(mismatches)},
                     {"cases_per_minute", report.cases_per_minute()},
                     {"sim_threads", r.sim_threads},
                     {"timing",
                      {{"setup_s", r.setup_s},
                       {"total_s", t.total},
                       {"prepare_s", t.prepare},
                       {"wait_s", t.wait},
                       {"compare_s", t.compare},
                       {"batches", t.batches},
                       {"batch_cases", t.batch_cases}}}};
  return {match ? kHolds : kFails, match ? "match" : "differ", json};
}

}  // namespace

namespace {

enum class InstFamily { wgmma, sparse };

// The family of an --inst name by its spelling; whether the family models
// the name is its run's question.
InstFamily inst_family(const std::string& name) {
  if (name.starts_with("wgmma")) return InstFamily::wgmma;
  if (name.starts_with("mma.sp") || name.starts_with("sp.")) return InstFamily::sparse;
  throw Error("gpu: --inst '" + printable(name) +
              "' is no wgmma or mma.sp instruction (gpu --inst runs wgmma, wgmma.mma_async..., mma.sp, sp.TAG or "
              "mma.sp...; an mma.sync instruction runs from a program file, or alone with 'capture --instr')");
}

// --print-kernel: the first wgmma run's source, from the wgmma files given
// and the wgmma names.
int print_wgmma_kernel(const std::vector<std::string>& inputs, const std::vector<std::string>& names,
                       const std::string& n) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const std::string& path : inputs) {
    std::string text = read_text_file(path);
    const InputKind* kind = recognise(path, text);
    if (!kind || kind->gpu != gpu_wgmma_file)
      throw Error(SourceLoc{input_name(path), 0, 0},
                  "--print-kernel prints wgmma kernels; for a program's kernel run 'mmacheck emit " + path +
                      " --cuda'");
    files.emplace_back(path, std::move(text));
  }
  std::vector<std::string> wgmma_names;
  for (const std::string& name : names)
    if (inst_family(name) == InstFamily::wgmma) wgmma_names.push_back(name);
  std::cout << wgmma_kernel_source(files, wgmma_names, n);
  return kHolds;
}

}  // namespace

int run_gpu(const Args& args) {
  po::options_description options("mmacheck gpu");
  // clang-format off
  options.add_options()
      ("file", po::value<std::vector<std::string>>(),
       "program files, wgmma operand files (their proved operands) or folders; - is standard input (a program)")
      ("inst", po::value<std::vector<std::string>>(),
       "also run single instructions (repeatable): wgmma (every type row), a wgmma.mma_async PTX name (every "
       "layout), mma.sp (every row and selector) or an mma.sp tag (sp.m16n8k32.f16) or PTX name")
      ("cases", po::value<int>()->default_value(64), "random cases (a program: one CTA each; an instruction: per run)")
      ("seed", po::value<std::uint64_t>()->default_value(1), "random seed")
      ("inputs", po::value<std::string>()->default_value("standard"),
       "random input kinds: standard (the shared vectors' eight), edge (threshold, zeroterm, underflow, ties, "
       "overflow, lowbits) or all")
      ("inst-set", po::value<std::string>()->default_value("tvm"), "instruction set: tvm or extended")
      ("devices", po::value<std::string>()->default_value("0"),
       "GPUs to spread the cases over: all, or ordinals such as 0,1")
      ("batch", po::value<std::int64_t>()->default_value(0), "cases per launch (0: as many as fit 32 MB)")
      ("n", po::value<std::string>()->default_value(""),
       "with --inst wgmma: the N to run, N,N,... or every (default 8,16,24,64,128,256; s32 8,16,24,32,64,256)")
      ("selector", po::value<std::string>()->default_value("all"), "with mma.sp: the sparsity selector, or all")
      ("unordered", po::bool_switch(), "with mma.sp: spell it mma.sp (default mma.sp::ordered_metadata)")
      ("capture", po::value<std::string>(),
       "with --inst: write the cases with the device's D as vector files (replay replays them): wgmma, one per run "
       "into this folder; mma.sp, this one file")
      ("print-kernel", po::bool_switch(), "print the first wgmma run's CUDA source and exit (no GPU needed)")
      ("json", po::bool_switch(), "print a JSON object (JSON Lines, one per file and instruction family)");
  // clang-format on
  options.add(threads_option("simulator threads"));
  options.add(show_option("mismatching elements to print per file"));
  options.add(limit_options());
  options.add(launch_options());
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  const std::vector<std::string> names =
      vm.count("inst") ? vm["inst"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (!vm.count("file") && names.empty()) throw Error("gpu: no file and no --inst (usage: " + usage_line("gpu") + ")");
  const std::vector<std::string> inputs =
      vm.count("file") ? expand_inputs(vm["file"].as<std::vector<std::string>>(), {}, folder_extensions(Job::gpu))
                       : std::vector<std::string>{};
  if (vm["print-kernel"].as<bool>()) return print_wgmma_kernel(inputs, names, vm["n"].as<std::string>());
  const GpuSettings settings{.check = {.cases = {.cases = vm["cases"].as<int>(),
                                                 .seed = vm["seed"].as<std::uint64_t>(),
                                                 .inputs = sim::input_set(vm["inputs"].as<std::string>()),
                                                 .threads = vm["threads"].as<int>(),
                                                 .show = vm["show"].as<int>()},
                                       .devices = cuda::parse_device_selection(vm["devices"].as<std::string>()),
                                       .batch = vm["batch"].as<std::int64_t>(),
                                       .inst_set = parse_inst_set(vm["inst-set"].as<std::string>()),
                                       .limits = limits_from(vm)},
                             .json = vm["json"].as<bool>(),
                             .progress = inputs.size() == 1,
                             .launch = launch_choice_from(vm)};
  sim::check_case_options(settings.check.cases, "gpu");
  if (settings.check.batch < 0) throw Error("gpu: --batch must be >= 0");
  // The instructions by family, each family one report; checked before any
  // file runs, so bad usage exits 2 first.
  std::vector<std::string> by_family[2];
  for (const std::string& name : names) by_family[static_cast<int>(inst_family(name))].push_back(name);
  const InstRunOptions inst_options{.cases = vm["cases"].as<int>(),
                                    .seed = settings.check.cases.seed,
                                    .inputs = vm["inputs"].as<std::string>(),
                                    .show = settings.check.cases.show,
                                    .n = vm["n"].as<std::string>(),
                                    .selector = vm["selector"].as<std::string>(),
                                    .unordered = vm["unordered"].as<bool>(),
                                    .capture = vm.count("capture") ? vm["capture"].as<std::string>() : ""};
  if (!inst_options.capture.empty() && (names.empty() || (!by_family[0].empty() && !by_family[1].empty())))
    throw Error("gpu: --capture takes the vectors of one family's --inst runs (wgmma: a folder; mma.sp: a file)");
  int status = kHolds;
  if (!inputs.empty()) {
    cuda::LazyGpuSession session;
    // One file at a time: the files share the device and its NVRTC.
    status = run_batch(inputs, {.jobs = 1, .json = settings.json}, [&](const std::string& path, std::ostream& out) {
      return run_gpu_file(path, settings, session, out);
    });
  }
  constexpr FileOutcome (*kRuns[])(const std::vector<std::string>&, const InstRunOptions&,
                                   std::ostream&) = {gpu_wgmma_instructions, gpu_sparse_instructions};
  for (int family = 0; family < 2; ++family) {
    if (by_family[family].empty()) continue;
    std::ostringstream discard;
    const FileOutcome o = kRuns[family](by_family[family], inst_options, settings.json ? discard : std::cout);
    if (settings.json) std::cout << json_line(file_json("", o.json)) << "\n";
    status = std::max(status, o.status);
  }
  return status;
}

}  // namespace mmacheck::cli
