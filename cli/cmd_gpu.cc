// mmacheck gpu FILE... [--cases N] [--seed S] [--inputs standard|edge|all] [--inst-set tvm|extended] [--show N]
//                      [--devices all|0,1,..] [--threads T] [--batch B]
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
// Exit status: 0 every case matches; 1 a mismatch or a dispatch failure;
// 2 bad input (also: no arithmetic model for the device's architecture);
// 3 no GPU (no driver, no device, no NVRTC).  Everything that needs no GPU
// (parse, dispatch, staging, kernel generation) is checked first, so bad
// input exits 2 on any machine.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/file_batch.h"
#include "cli/progress.h"
#include "core/gemm/dispatch.h"
#include "core/base/error.h"
#include "core/base/worker_pool.h"
#include "core/program/read/read_program.h"
#include "cuda/case_batches.h"
#include "cuda/case_words.h"
#include "cuda/device_selection.h"
#include "cuda/differential.h"
#include "cuda/driver.h"
#include "cuda/gemm_runner.h"
#include "cuda/gemm_stream.h"
#include "cuda/gpu_session.h"
#include "cuda/nvrtc.h"
#include "sim/numerics/element_value.h"
#include "sim/machine/warp_machine.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

// Host memory per batch slot when --batch is not given: big enough that a
// launch costs little next to its cases, small enough for many devices.
constexpr std::int64_t kBatchBytes = std::int64_t{32} << 20;
constexpr int kSlotsPerDevice = 2;

struct GpuSettings {
  int cases;
  cuda::DeviceSelection devices;
  int threads;      // 0: every hardware thread
  std::int64_t batch;  // 0: from kBatchBytes
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

Json device_ordinals(const std::vector<cuda::Gpu>& gpus) {
  Json out = Json::array();
  for (const cuda::Gpu& g : gpus) out.push_back(g.ordinal());
  return out;
}

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
  const auto setup_start = std::chrono::steady_clock::now();
  const cuda::Gpu& first = session->gpu;
  cuda::Nvrtc& nvrtc = session->nvrtc;
  std::vector<cuda::Gpu> gpus;
  for (int ordinal : cuda::resolve_devices(s.devices, first.driver().device_count())) {
    gpus.push_back(ordinal == first.ordinal() ? first : cuda::Gpu(first.driver(), ordinal));
    if (gpus.back().info().sm != gpus.front().info().sm)
      throw Error("gpu: --devices mixes sm_" + std::to_string(gpus.front().info().sm) + " and sm_" +
                  std::to_string(gpus.back().info().sm) + " (one arithmetic model per run): choose devices of one "
                  "architecture");
  }
  const cuda::DeviceInfo& dev = gpus.front().info();
  const std::string driver = dev.driver_release.empty() ? "unknown" : dev.driver_release;
  for (const cuda::Gpu& g : gpus)
    out << g.info().name << " (sm_" << g.info().sm << ", device " << g.ordinal() << "), driver " << driver
        << ", NVRTC " << nvrtc.version() << "\n";
  out << plan.nest.inst->ptx() << ": " << plan.nest.tiles_m << " x " << plan.nest.tiles_n << " x "
      << plan.nest.tiles_k << " tiles per warp, " << plan.nest.mma_count() << " mma, " << staging.threads
      << " threads\n";
  const cuda::GemmRunner compiled(gpus.front(), nvrtc, plan.nest, staging);

  WorkerPool pool(s.threads > 0 ? s.threads : WorkerPool::hardware_threads());
  const int slots = kSlotsPerDevice;
  const std::int64_t batch =
      s.batch > 0 ? std::min<std::int64_t>(s.batch, s.cases)
                  : cuda::default_batch_cases(s.cases,
                                              static_cast<std::int64_t>(cuda::case_words(staging).case_bytes() +
                                                                        cuda::case_words(staging).d.case_bytes()),
                                              static_cast<int>(gpus.size()), slots, kBatchBytes);
  std::vector<std::unique_ptr<cuda::GemmStream>> streams;
  std::vector<cuda::BatchDevice*> devices;
  for (const cuda::Gpu& g : gpus) {
    streams.push_back(std::make_unique<cuda::GemmStream>(g, compiled, batch, slots));
    devices.push_back(streams.back().get());
  }
  // One warp machine per worker, copies of one (they keep scratch registers).
  const sim::WarpMachine machine(plan.nest, staging, sim::arch_params("sm_" + std::to_string(dev.sm)));
  std::vector<sim::WarpMachine> machines(static_cast<std::size_t>(pool.size()), machine);
  std::vector<cuda::CaseSimulator> simulators;
  for (sim::WarpMachine& m : machines)
    simulators.emplace_back([&m](const sim::GemmInputs& in) { return m.run(in); });
  const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();

  Progress progress(s.progress ? s.cases : 0, "cases simulated");
  const cuda::DiffReport report = cuda::run_differential(
      devices, staging, sim::input_specs(program), pool, simulators,
      {.cases = s.cases, .seed = s.seed, .max_mismatches = static_cast<std::size_t>(s.show), .inputs = s.input_set,
       .progress = [&](std::int64_t done) { progress.update(done); }});
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
      << report.mismatched_elements << " elements)\n";
  const cuda::DiffTiming& t = report.timing;
  char rate[256];
  std::snprintf(rate, sizeof rate,
                "%.3g M cases per minute (%.3f s; draw, pack and simulate %.3f s, wait for the device %.3f s, "
                "compare %.3f s; %lld batches of %lld cases, %zu device(s), %d threads; set-up %.3f s)",
                report.cases_per_minute() / 1e6, t.total, t.prepare, t.wait, t.compare,
                static_cast<long long>(t.batches), static_cast<long long>(t.batch_cases), devices.size(),
                pool.size(), setup);
  out << rate << std::endl;
  const bool match = report.failed_cases == 0;
  const Json json = {{"result", match ? "match" : "differ"},
                     {"device", dev.name},
                     {"devices", device_ordinals(gpus)},
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
                     {"mismatches", std::move(mismatches)},
                     {"cases_per_minute", report.cases_per_minute()},
                     {"sim_threads", pool.size()},
                     {"timing",
                      {{"setup_s", setup},
                       {"total_s", t.total},
                       {"prepare_s", t.prepare},
                       {"wait_s", t.wait},
                       {"compare_s", t.compare},
                       {"batches", t.batches},
                       {"batch_cases", t.batch_cases}}}};
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
      ("devices", po::value<std::string>()->default_value("0"),
       "GPUs to spread the cases over: all, or ordinals such as 0,1")
      ("threads", po::value<int>()->default_value(0), "simulator threads (0: one per hardware thread)")
      ("batch", po::value<std::int64_t>()->default_value(0), "cases per launch (0: as many as fit 32 MB)")
      ("json", po::bool_switch(), "print a JSON object (JSON Lines, one per file, for several)");
  options.add(limit_options());
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("gpu: no layout file (usage: " + usage_line("gpu") + ")");
  const std::vector<std::string> inputs = expand_inputs(vm["file"].as<std::vector<std::string>>());
  const GpuSettings settings{.cases = vm["cases"].as<int>(),
                             .devices = cuda::parse_device_selection(vm["devices"].as<std::string>()),
                             .threads = vm["threads"].as<int>(),
                             .batch = vm["batch"].as<std::int64_t>(),
                             .show = vm["show"].as<int>(),
                             .seed = vm["seed"].as<std::uint64_t>(),
                             .input_set = sim::input_set(vm["inputs"].as<std::string>()),
                             .inst_set = parse_inst_set(vm["inst-set"].as<std::string>()),
                             .limits = limits_from(vm),
                             .json = vm["json"].as<bool>(),
                             .progress = inputs.size() == 1};
  if (settings.cases < 1) throw Error("gpu: --cases must be >= 1");
  if (settings.show < 0) throw Error("gpu: --show must be >= 0");
  if (settings.threads < 0 || settings.threads > 1024) throw Error("gpu: --threads must be in 0..1024");
  if (settings.batch < 0) throw Error("gpu: --batch must be >= 0");
  LazySession lazy;
  // One file at a time: the files share the device and its NVRTC.
  return run_batch(inputs, {.jobs = 1, .json = settings.json},
                   [&](const std::string& path, std::ostream& out) { return run_gpu_file(path, settings, lazy, out); });
}

}  // namespace mmacheck::cli
