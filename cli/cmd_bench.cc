// mmacheck bench [--instr I] [--arch A] [--seconds S] [--threads T] [--nest FILE]... [--vectors FILE]...
//
// Lines: `kernel: R mma/s` (the arithmetic model alone, finite inputs), the
// same with special values, `nest FILE: R mma/s` for each --nest file (the
// whole program through the warp machine, finite and special inputs),
// `vectors FILE: R mma/s` for each --vectors file (`mma --vectors` end to
// end: read, parse, every case through the lane path), the
// float32 baseline, and last `ratio R (simulator / BASELINE)` (kernel,
// finite, against the baseline).
//
// Bit-exact simulator throughput against Eigen float32 on the same random
// tiles (sim/numerics/throughput.h).  The last line is the ratio.
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

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
        progress.update(std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start)
                            .count());
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

struct NestRate {
  std::string file;
  sim::PhaseResult finite, specials;
};

Json phase_json(const sim::PhaseResult& p) {
  return {{"mma_per_second", p.per_second()}, {"mma", p.mma}, {"wall_seconds", p.wall_seconds},
          {"cpu_seconds", p.cpu_seconds}, {"mma_per_cpu_second", p.per_cpu_second()}};
}

void print_phase(const std::string& name, const sim::PhaseResult& p) {
  char line[300];
  std::snprintf(line, sizeof line, "%-44s %.3g mma/s (%llu in %.2f s wall, %.2f s CPU: %.3g per CPU-second)\n",
                (name + ":").c_str(), p.per_second(), static_cast<unsigned long long>(p.mma), p.wall_seconds,
                p.cpu_seconds, p.per_cpu_second());
  std::cout << line;
}

}  // namespace

int run_bench(const Args& args) {
  const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  po::options_description options("mmacheck bench");
  options.add_options()
      ("instr", po::value<std::string>()->default_value("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
       "instruction (full PTX name)")
      ("arch", po::value<std::string>()->default_value("sm_90"), "architecture model")
      ("seconds", po::value<double>()->default_value(2.0), "seconds per phase")
      ("threads", po::value<int>()->default_value(hardware), "threads (default: hardware threads)")
      ("nest", po::value<std::vector<std::string>>(),
       "also time this layout file's whole program through the warp machine; repeatable")
      ("vectors", po::value<std::vector<std::string>>(),
       "also time `mma --vectors` on this vector file (read, parse, run); repeatable")
      ("json", po::bool_switch(), "print one JSON object instead of the text lines");
  const po::variables_map vm = parse_options(args, options, {});
  const std::string name = vm["instr"].as<std::string>();
  const MmaInst* inst = find_mma_inst(name);
  if (!inst) throw Error("bench: unknown instruction '" + name + "'");
  const sim::ArchParams& arch = sim::arch_params(vm["arch"].as<std::string>());
  const double seconds = vm["seconds"].as<double>();
  const int threads = vm["threads"].as<int>();

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
      if (!plan.ok) throw Error(SourceLoc{file, 0, 0}, "bench --nest: the dispatch declines it: " + plan.reasons.front());
      jobs.push_back({file, std::move(program), std::move(plan)});
    }

  std::vector<std::string> vector_files;
  if (vm.count("vectors")) vector_files = vm["vectors"].as<std::vector<std::string>>();
  for (const std::string& file : vector_files) sim::read_vector_file(file);  // bad input exits 2 at once

  const double phases = 3 + 2.0 * static_cast<double>(jobs.size()) + static_cast<double>(vector_files.size());
  sim::ThroughputResult r;
  std::vector<NestRate> nests;
  std::vector<std::pair<std::string, sim::PhaseResult>> vectors;
  with_progress(seconds * phases / 2, [&] {
    r = sim::measure_throughput(*inst, arch, seconds, threads);
    for (const NestJob& job : jobs)
      nests.push_back({job.file,
                       sim::measure_nest_throughput(job.program, job.plan.nest, arch, sim::Distribution::normal,
                                                    seconds, threads),
                       sim::measure_nest_throughput(job.program, job.plan.nest, arch, sim::Distribution::specials,
                                                    seconds, threads)});
    for (const std::string& file : vector_files)
      vectors.emplace_back(file, sim::measure_vector_throughput(file, arch, seconds, threads));
    return 0;
  });
  const double ratio = r.sim.per_second() / r.eigen.per_second();
  if (vm["json"].as<bool>()) {
    Json nest_json = Json::array();
    for (const NestRate& n : nests)
      nest_json.push_back({{"file", n.file}, {"finite", phase_json(n.finite)}, {"specials", phase_json(n.specials)}});
    Json vector_json = Json::array();
    for (const auto& [file, rate] : vectors) vector_json.push_back({{"file", file}, {"result", phase_json(rate)}});
    std::cout << json_line({{"instruction", inst->ptx()},
                            {"arch", arch.name},
                            {"threads", r.threads},
                            {"kernel", {{"finite", phase_json(r.sim)}, {"specials", phase_json(r.sim_specials)}}},
                            {"nests", std::move(nest_json)},
                            {"vectors", std::move(vector_json)},
                            {"baseline", r.baseline},
                            {"baseline_result", phase_json(r.eigen)},
                            {"ratio", ratio}})
              << std::endl;
    return kHolds;
  }
  std::cout << inst->ptx() << " (" << arch.name << "), " << r.threads << " threads\n";
  print_phase("kernel", r.sim);
  print_phase("kernel (special values)", r.sim_specials);
  for (const NestRate& n : nests) {
    print_phase("nest " + n.file, n.finite);
    print_phase("nest " + n.file + " (special values)", n.specials);
  }
  for (const auto& [file, rate] : vectors) print_phase("vectors " + file, rate);
  print_phase(std::string(r.baseline), r.eigen);
  char line[160];
  std::snprintf(line, sizeof line, "ratio %.3f (simulator / %s)\n", ratio, std::string(r.baseline).c_str());
  std::cout << line << std::flush;
  return kHolds;
}

}  // namespace mmacheck::cli
