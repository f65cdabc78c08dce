// mmacheck bench [--instr I] [--arch A] [--seconds S] [--threads T]
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
#include "core/base/error.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/throughput.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

// Runs `measure` (two timed phases of `seconds` each) under a progress line.
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
      ("json", po::bool_switch(), "print one JSON object instead of the text lines");
  const po::variables_map vm = parse_options(args, options, {});
  const std::string name = vm["instr"].as<std::string>();
  const MmaInst* inst = find_mma_inst(name);
  if (!inst) throw Error("bench: unknown instruction '" + name + "'");
  const sim::ArchParams& arch = sim::arch_params(vm["arch"].as<std::string>());

  const double seconds = vm["seconds"].as<double>();
  const sim::ThroughputResult r = with_progress(seconds, [&] {
    return sim::measure_throughput(*inst, arch, seconds, vm["threads"].as<int>());
  });
  const double ratio = r.sim.per_second() / r.eigen.per_second();
  if (vm["json"].as<bool>()) {
    const auto phase = [](const sim::PhaseResult& p) {
      return Json{{"mma_per_second", p.per_second()}, {"mma", p.mma}, {"wall_seconds", p.wall_seconds},
                  {"cpu_seconds", p.cpu_seconds}, {"mma_per_cpu_second", p.per_cpu_second()}};
    };
    std::cout << json_line({{"instruction", inst->ptx()}, {"arch", arch.name}, {"threads", r.threads},
                            {"simulator", phase(r.sim)}, {"eigen_float32", phase(r.eigen)}, {"ratio", ratio}})
              << std::endl;
    return kHolds;
  }
  std::cout << inst->ptx() << " (" << arch.name << "), " << r.threads << " threads\n";
  const auto phase = [](const char* name, const sim::PhaseResult& p) {
    char line[200];
    std::snprintf(line, sizeof line, "%-20s %.3g mma/s (%llu in %.2f s wall, %.2f s CPU: %.3g per CPU-second)\n",
                  name, p.per_second(), static_cast<unsigned long long>(p.mma), p.wall_seconds, p.cpu_seconds,
                  p.per_cpu_second());
    std::cout << line;
  };
  phase("bit-exact simulator:", r.sim);
  phase("Eigen float32:", r.eigen);
  char line[80];
  std::snprintf(line, sizeof line, "ratio %.3f (simulator / Eigen float32)\n", ratio);
  std::cout << line << std::flush;
  return kHolds;
}

}  // namespace mmacheck::cli
