// mmacheck bench [--instr I] [--arch A] [--seconds S] [--threads T] [--nest FILE]... [--vectors FILE]...
//
// Lines: `kernel: R mma/s` (the arithmetic model alone, finite inputs), the
// same with special values, `nest FILE: R mma/s` for each --nest file (the
// whole program through the warp machine, finite and special inputs),
// `vectors FILE: R mma/s` for each --vectors file (`mma --vectors` end to
// end: read, parse, every case through the lane path), the
// float32 baseline, and last `ratio R (simulator / BASELINE)` (kernel,
// finite, against the baseline: the median over the rounds of the two
// phases' rates per CPU-second of their threads), after a line with its
// quartiles.
//
// Bit-exact simulator throughput against Eigen float32 on the same random
// tiles (sim/numerics/throughput.h), every phase interleaved with the
// others in short slices, so that a load change on the machine falls on all
// of them.  The last line is the ratio.
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include "cli/json_shape.h"
#include "cli/options.h"
#include "cli/command.h"
#include "cli/progress.h"
#include "core/base/json.h"
#include "core/gemm/dispatch.h"
#include "sim/check/nest_throughput.h"
#include "core/base/error.h"
#include "core/program/read/read_program.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/throughput.h"
#include "sim/vectors/vector_file.h"
#include "sim/vectors/vector_throughput.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

// Runs `measure`, which takes 2 x `seconds` in all, under a progress line.
template <typename Measure>
auto with_progress(double seconds, const Measure& measure) {
  const bool bounded = std::isfinite(seconds) && seconds > 0 && seconds < 1e6;
  const auto total = bounded ? static_cast<std::int64_t>(std::ceil(2 * seconds)) : 0;
  std::mutex mutex;
  std::condition_variable stop;
  bool done = false;
  std::thread ticker;
  try {
    ticker = std::thread([&] {
      Progress progress(total, "s");
      const auto start = std::chrono::steady_clock::now();
      std::unique_lock lock(mutex);
      while (!stop.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; }))
        progress.update(
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count());
    });
  } catch (const std::system_error&) {
    // No thread for the progress line: measure without it.
  }
  const auto finish = [&] {
    {
      const std::lock_guard lock(mutex);
      done = true;
    }
    stop.notify_one();
    if (ticker.joinable()) ticker.join();
  };
  try {
    auto result = measure();
    finish();
    return result;
  } catch (...) {
    finish();
    throw;
  }
}

Json phase_json(const sim::PhaseResult& p) {
  return {
      {"mma_per_second", p.per_second()}, {"spread", p.spread()},         {"mma", p.mma},
      {"wall_seconds", p.wall_seconds},   {"cpu_seconds", p.cpu_seconds}, {"mma_per_cpu_second", p.per_cpu_second()}};
}

void print_phase(const std::string& name, const sim::PhaseResult& p) {
  char line[300];
  std::snprintf(line, sizeof line, "%-44s %.3g mma/s ±%.0f%% (%llu in %.2f s wall, %.2f s CPU: %.3g per CPU-second)\n",
                (name + ":").c_str(), p.per_second(), 50 * p.spread(), static_cast<unsigned long long>(p.mma),
                p.wall_seconds, p.cpu_seconds, p.per_cpu_second());
  std::cout << line;
}

}  // namespace

int run_bench(const Args& args) {
  po::options_description options("mmacheck bench");
  // clang-format off
  options.add_options()
      ("instr", po::value<std::string>()->default_value("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
       "instruction (full PTX name)")
      ("arch", po::value<std::string>()->default_value("sm_90"), "architecture model")
      ("seconds", po::value<double>()->default_value(2.0), "seconds per phase")
      ("nest", po::value<std::vector<std::string>>(),
       "also time this layout file's whole program through the warp machine; repeatable")
      ("vectors", po::value<std::vector<std::string>>(),
       "also time `mma --vectors` on this vector file (read, parse, run); repeatable")
      ("json", po::bool_switch(), "print one JSON object instead of the text lines");
  // clang-format on
  options.add(threads_option("threads timing at once"));
  const po::variables_map vm = parse_options(args, options, {});
  const std::string name = vm["instr"].as<std::string>();
  const MmaInst* inst = find_mma_inst(name);
  if (!inst) throw Error("bench: unknown instruction '" + name + "'");
  const sim::ArchParams& arch = sim::arch_params(vm["arch"].as<std::string>());
  const double seconds = vm["seconds"].as<double>();
  const int threads = hardware_if_zero(vm["threads"].as<int>());

  // Every file is read and dispatched before anything is timed: bad input exits 2 at once.
  struct NestJob {
    std::string file;
    Program program;
    Plan plan;
  };
  std::vector<NestJob> jobs;
  if (vm.count("nest"))
    for (const std::string& file : vm["nest"].as<std::vector<std::string>>()) {
      Program program = load_program(file);
      Plan plan = dispatch(program, InstSet::extended);
      if (!plan.ok)
        throw Error(SourceLoc{file, 0, 0}, "bench --nest: the dispatch declines it: " + plan.reasons.front());
      jobs.push_back({file, std::move(program), std::move(plan)});
    }

  std::vector<std::string> vector_files;
  if (vm.count("vectors")) vector_files = vm["vectors"].as<std::vector<std::string>>();
  for (const std::string& file : vector_files) sim::read_vector_file(file);  // bad input exits 2 at once

  // Every phase is built first (bad input exits 2 before any timing), then
  // all run interleaved, a slice each in turn (sim/numerics/throughput.h).
  std::vector<sim::Phase> phases = sim::kernel_phases(*inst, arch, threads);  // kernel, specials, baseline
  for (const NestJob& job : jobs)
    for (const sim::Distribution dist : {sim::Distribution::normal, sim::Distribution::specials})
      phases.push_back(
          sim::nest_phase("nest " + job.file + (dist == sim::Distribution::specials ? " (special values)" : ""),
                          job.program, job.plan.nest, arch, dist, threads));
  for (const std::string& file : vector_files) phases.push_back(sim::vector_phase(file, arch));
  const std::size_t first_isa = phases.size();
  for (sim::Phase& p : sim::isa_phases(*inst, arch, threads)) phases.push_back(std::move(p));
  const std::vector<sim::PhaseResult> r = with_progress(seconds * static_cast<double>(phases.size()) / 2,
                                                        [&] { return sim::interleaved(phases, threads, seconds); });
  const std::string& baseline = phases[2].name;
  const sim::Ratio ratio = sim::paired_ratio(r[0], r[2]);
  if (vm["json"].as<bool>()) {
    Json nest_json = Json::array();
    for (std::size_t n = 0; n < jobs.size(); ++n)
      nest_json.push_back(
          {{"file", jobs[n].file}, {"finite", phase_json(r[3 + 2 * n])}, {"specials", phase_json(r[4 + 2 * n])}});
    Json vector_json = Json::array();
    for (std::size_t v = 0; v < vector_files.size(); ++v)
      vector_json.push_back({{"file", vector_files[v]}, {"result", phase_json(r[3 + 2 * jobs.size() + v])}});
    Json isa_json = Json::array();
    for (std::size_t p = first_isa; p < phases.size(); ++p)
      isa_json.push_back({{"name", phases[p].name}, {"result", phase_json(r[p])}});
    std::cout << json_line(file_json("", {{"verdict", "measured"},
                                          {"instruction", inst->ptx()},
                                          {"arch", arch.name},
                                          {"threads", threads},
                                          {"slices", r[0].slice_rates.size()},
                                          {"kernel", {{"finite", phase_json(r[0])}, {"specials", phase_json(r[1])}}},
                                          {"nests", std::move(nest_json)},
                                          {"vectors", std::move(vector_json)},
                                          {"instruction_sets", std::move(isa_json)},
                                          {"baseline", baseline},
                                          {"baseline_result", phase_json(r[2])},
                                          {"ratio", ratio.median},
                                          {"ratio_q1", ratio.q1},
                                          {"ratio_q3", ratio.q3}}))
              << std::endl;
    return kHolds;
  }
  std::cout << inst->ptx() << " (" << arch.name << "), " << threads << " threads, " << r[0].slice_rates.size()
            << " interleaved slices per phase (rates: median slice, ± half the interquartile range)\n";
  for (std::size_t p = 0; p < phases.size(); ++p)
    if (p != 2) print_phase(phases[p].name, r[p]);
  print_phase(baseline, r[2]);
  char line[200];
  std::snprintf(line, sizeof line, "ratio per CPU-second, round by round: quartiles %.3f .. %.3f over %zu rounds\n",
                ratio.q1, ratio.q3, r[0].slice_rates.size());
  std::cout << line;
  std::snprintf(line, sizeof line, "ratio %.3f (simulator / %s)\n", ratio.median, baseline.c_str());
  std::cout << line << std::flush;
  return kHolds;
}

}  // namespace mmacheck::cli
