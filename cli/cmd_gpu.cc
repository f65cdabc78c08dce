// mmacheck gpu FILE... [--cases N] [--seed S] [--inputs standard|edge|all] [--inst-set tvm|extended] [--show N]
//
// Dispatches the file's gemm, generates a CUDA kernel from its nest (staging
// from the file's stage/store statements or the buffers' layouts), compiles
// it with NVRTC for the device, runs N random cases (one CTA each) and
// compares D bit for bit with the lane-accurate simulator: the warp machine
// (sim/machine/warp_machine.h) staged through the same tables, with the arithmetic
// of the device's architecture.
//
// Exit status: 0 every case matches; 1 a mismatch or a dispatch failure;
// 2 bad input (also: no arithmetic model for the device's architecture);
// 3 no GPU (no driver, no device, no NVRTC).  Everything that needs no GPU
// (parse, dispatch, staging, kernel generation) is checked first, so bad
// input exits 2 on any machine.
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/file_batch.h"
#include "cli/progress.h"
#include "core/gemm/dispatch.h"
#include "core/base/error.h"
#include "cuda/differential.h"
#include "cuda/driver.h"
#include "cuda/gemm_runner.h"
#include "cuda/gpu_session.h"
#include "cuda/nvrtc.h"
#include "sim/numerics/element_value.h"
#include "sim/machine/warp_machine.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

struct GpuSettings {
  int cases;
  int show;
  std::uint64_t seed;
  sim::InputSet input_set;
  InstSet inst_set;
  Limits limits;
  bool json;
  bool progress;  // off over several files: the batch draws one line
};

// Opened at the first file that gets as far as the GPU, then shared.
struct LazySession {
  bool tried = false;
  std::string why;
  std::optional<cuda::GpuSession> session;

  cuda::GpuSession* get() {
    if (!tried) session = cuda::open_gpu_session(why);
    tried = true;
    return session ? &*session : nullptr;
  }
};

FileOutcome run_gpu_file(const std::string& path, const GpuSettings& s, LazySession& lazy, std::ostream& out) {
  const Program program = load_program(path);
  const Plan plan = dispatch(program, s.inst_set, s.limits);
  if (!plan.ok) {
    out << "dispatch_failed\n";
    for (const std::string& r : plan.reasons) out << "  " << r << "\n";
    return {kFails, "dispatch_failed", {{"result", "dispatch_failed"}, {"reasons", plan.reasons}}};
  }
  const Staging staging = build_staging(program, plan.nest);
  const cuda::GemmKernel kernel = cuda::gemm_kernel(plan.nest, staging);  // bad input surfaces here

  cuda::GpuSession* session = lazy.get();
  if (!session) {
    std::cerr << "gpu: no GPU: " << lazy.why << "\n";
    return {kNoGpu, "no GPU", {{"result", "no_gpu"}, {"message", lazy.why}}};
  }
  cuda::Gpu& gpu = session->gpu;
  cuda::Nvrtc& nvrtc = session->nvrtc;
  const cuda::DeviceInfo& dev = gpu.info();
  const std::string driver = dev.driver_release.empty() ? "unknown" : dev.driver_release;
  out << dev.name << " (sm_" << dev.sm << "), driver " << driver << ", NVRTC " << nvrtc.version() << "\n"
      << plan.nest.inst->ptx() << ": " << plan.nest.tiles_m << " x " << plan.nest.tiles_n << " x "
      << plan.nest.tiles_k << " tiles per warp, " << plan.nest.mma_count() << " mma, " << staging.threads
      << " threads\n";
  const cuda::GemmRunner runner(gpu, nvrtc, plan.nest, staging);

  sim::WarpMachine machine(plan.nest, staging, sim::arch_params("sm_" + std::to_string(dev.sm)));
  Progress progress(s.progress ? s.cases : 0, "cases simulated");
  int simulated = 0;
  const cuda::Simulator simulate = [&](const Program&, const Nest&, const sim::GemmInputs& in) {
    std::vector<std::uint64_t> d = machine.run(in);
    progress.update(++simulated);
    return d;
  };
  const cuda::DiffReport report = cuda::run_differential(
      runner, program, plan.nest, simulate,
      {.cases = s.cases, .seed = s.seed, .max_mismatches = static_cast<std::size_t>(s.show),
       .inputs = s.input_set});
  const DType d_type = staging.d.dtype;
  Json mismatches = Json::array();
  for (const cuda::DiffMismatch& m : report.mismatches) {
    mismatches.push_back({{"case", m.case_index},
                          {"distribution", sim::distribution_name(m.dist)},
                          {"row", m.row},
                          {"col", m.col},
                          {"expected", sim::element_text(d_type, m.expected)},
                          {"got", sim::element_text(d_type, m.got)}});
    out << "  case " << m.case_index << " (" << sim::distribution_name(m.dist) << ") " << staging.d.buffer << "["
        << m.row << "][" << m.col << "]: expected " << sim::element_text(d_type, m.expected) << ", got "
        << sim::element_text(d_type, m.got) << "\n";
  }
  out << report.cases - report.failed_cases << " cases match, " << report.failed_cases << " differ ("
      << report.mismatched_elements << " elements)" << std::endl;
  const bool match = report.failed_cases == 0;
  const Json json = {{"result", match ? "match" : "differ"},
                     {"device", dev.name},
                     {"sm", dev.sm},
                     {"driver", driver},
                     {"nvrtc", nvrtc.version()},
                     {"instruction", plan.nest.inst->ptx()},
                     {"tiles", {{"M", plan.nest.tiles_m}, {"N", plan.nest.tiles_n}, {"K", plan.nest.tiles_k}}},
                     {"mma_count", plan.nest.mma_count()},
                     {"threads", staging.threads},
                     {"cases", report.cases},
                     {"seed", s.seed},
                     {"inputs", sim::input_set_name(s.input_set)},
                     {"failed_cases", report.failed_cases},
                     {"mismatched_elements", report.mismatched_elements},
                     {"mismatches", std::move(mismatches)}};
  return {match ? kHolds : kFails, match ? "match" : "differ", json};
}

}  // namespace

int run_gpu(const Args& args) {
  po::options_description options("mmacheck gpu");
  options.add_options()
      ("file", po::value<std::vector<std::string>>(), "layout files or folders; - is standard input")
      ("cases", po::value<int>()->default_value(64), "random cases (one CTA each)")
      ("seed", po::value<std::uint64_t>()->default_value(1), "random seed")
      ("inputs", po::value<std::string>()->default_value("standard"),
       "random input kinds: standard (the shared vectors' eight), edge (threshold, zeroterm, underflow, ties, "
       "overflow, lowbits) or all")
      ("inst-set", po::value<std::string>()->default_value("tvm"), "instruction set: tvm or extended")
      ("show", po::value<int>()->default_value(10), "mismatching elements to print")
      ("json", po::bool_switch(), "print a JSON object (JSON Lines, one per file, for several)");
  options.add(limit_options());
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("gpu: no layout file (usage: " + usage_line("gpu") + ")");
  const std::vector<std::string> inputs = expand_inputs(vm["file"].as<std::vector<std::string>>());
  const GpuSettings settings{.cases = vm["cases"].as<int>(),
                             .show = vm["show"].as<int>(),
                             .seed = vm["seed"].as<std::uint64_t>(),
                             .input_set = sim::input_set(vm["inputs"].as<std::string>()),
                             .inst_set = parse_inst_set(vm["inst-set"].as<std::string>()),
                             .limits = limits_from(vm),
                             .json = vm["json"].as<bool>(),
                             .progress = inputs.size() == 1};
  if (settings.cases < 1) throw Error("gpu: --cases must be >= 1");
  if (settings.show < 0) throw Error("gpu: --show must be >= 0");
  LazySession lazy;
  // One file at a time: the files share the device and its NVRTC.
  return run_batch(inputs, {.jobs = 1, .json = settings.json},
                   [&](const std::string& path, std::ostream& out) { return run_gpu_file(path, settings, lazy, out); });
}

}  // namespace mmacheck::cli
