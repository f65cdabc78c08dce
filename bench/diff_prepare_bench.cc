// diff_prepare_bench — the CPU side of the GPU differential (cuda/differential.h)
// without a GPU: where a case's host time goes, and how many cases a minute
// the host can prepare, the limit of `mmacheck gpu` when the device waits.
//
//     build/bin/diff_prepare_bench [FILE] [--cases N] [--threads T] [--inputs standard|edge|all]
//                                  [--path scalar|avx2|avx512]
//
// First N cases (default 65536) on one thread, timing each phase in CPU
// time: drawing the inputs, packing them into the kernel's words, the warp
// machine, packing its D, comparing D with a copy (memcmp).  Then the same
// work on T threads (default: every hardware thread) through the worker
// pool, wall clock, as the differential runs it: its cases per minute.
// --path draws on one instruction set's path (sim/numerics/philox_blocks.h;
// default the widest the processor has), to time each: the inputs are the same.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/heap_tuning.h"
#include "core/base/worker_pool.h"
#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "cuda/case_words.h"
#include "sim/check/input_specs.h"
#include "sim/machine/warp_machine.h"
#include "sim/numerics/random_inputs.h"

using namespace mmacheck;

namespace {

constexpr const char* kPathNames[] = {"scalar", "avx2", "avx512"};

double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
double wall_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Job {
  sim::InputSpecs specs;
  Staging staging;
  cuda::CaseWords words;
  sim::InputSet inputs;
  sim::PhiloxPath path;
};

// One case's host work, as Pipeline::prepare and finish do it.
void one_case(const Job& job, sim::WarpMachine& machine, std::int64_t index, std::vector<std::byte>& host,
              std::vector<std::byte>& expected, double* phases) {
  double t = phases ? thread_seconds() : 0;
  const auto tick = [&](int phase) {
    if (!phases) return;
    const double now = thread_seconds();
    phases[phase] += now - t;
    t = now;
  };
  const sim::GemmInputs in = sim::random_gemm_inputs(job.specs.a, job.specs.b, job.specs.c,
                                                     sim::case_distribution(static_cast<int>(index), job.inputs), 1,
                                                     static_cast<int>(index), job.path);
  tick(0);
  std::byte* p = host.data();
  cuda::write_matrix(in.a, job.staging.a, job.words.a, p, "A");
  cuda::write_matrix(in.b, job.staging.b, job.words.b, p + job.words.a.case_bytes(), "B");
  cuda::write_matrix(in.c, job.staging.c, job.words.c, p + job.words.a.case_bytes() + job.words.b.case_bytes(), "C");
  tick(1);
  const std::vector<std::uint64_t> d = machine.run(in);
  tick(2);
  cuda::write_result(d, job.staging.d, job.words.d, expected.data());
  tick(3);
  std::byte* got = p + job.words.a.case_bytes() + job.words.b.case_bytes() + job.words.c.case_bytes();
  std::memcpy(got, expected.data(), job.words.d.case_bytes());
  if (std::memcmp(got, expected.data(), job.words.d.case_bytes()) != 0) std::abort();
  tick(4);
}

}  // namespace

int main(int argc, char** argv) {
  keep_large_blocks_in_heap();
  std::string path_name = "examples/m64.txt";
  std::int64_t cases = 65536;
  int threads = WorkerPool::hardware_threads();
  std::string inputs = "standard";
  sim::PhiloxPath path = sim::best_philox_path();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--cases" && i + 1 < argc) cases = std::atoll(argv[++i]);
    else if (arg == "--threads" && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (arg == "--inputs" && i + 1 < argc) inputs = argv[++i];
    else if (arg == "--path" && i + 1 < argc) {
      const std::string name = argv[++i];
      int at = 0;
      while (at < 3 && name != kPathNames[at]) ++at;
      path = static_cast<sim::PhiloxPath>(at);
      if (at == 3 || !sim::philox_path_available(path)) {
        std::fprintf(stderr, "diff_prepare_bench: --path scalar, avx2 or avx512 (one this processor has), not '%s'\n",
                     name.c_str());
        return 2;
      }
    } else if (!arg.empty() && arg[0] != '-') path_name = arg;
    else {
      std::fprintf(stderr, "usage: diff_prepare_bench [FILE] [--cases N] [--threads T] [--inputs KIND] [--path P]\n");
      return 2;
    }
  }
  try {
    const Program program = load_program(path_name);
    const Plan plan = dispatch(program);
    if (!plan.ok) throw Error(path_name + " does not dispatch");
    Job job{sim::input_specs(program), build_staging(program, plan.nest), {}, sim::input_set(inputs), path};
    job.words = cuda::case_words(job.staging);
    const sim::WarpMachine machine(plan.nest, job.staging, sim::arch_params("sm_90"));
    std::vector<std::byte> host(job.words.case_bytes()), expected(job.words.d.case_bytes());

    sim::WarpMachine one = machine;
    double phases[5] = {};
    for (std::int64_t i = 0; i < cases; ++i) one_case(job, one, i, host, expected, phases);
    const double per = 1e6 / static_cast<double>(cases);
    const double sum = phases[0] + phases[1] + phases[2] + phases[3] + phases[4];
    std::printf(
        "%s, %lld cases (%s, %s path), 1 thread, CPU time per case: draw %.2f us, pack A B C %.2f us, "
        "simulate %.2f us, pack D %.2f us, compare %.2f us; total %.2f us (%.3g M cases/min/thread)\n",
        path_name.c_str(), static_cast<long long>(cases), inputs.c_str(), kPathNames[static_cast<int>(job.path)],
        per * phases[0], per * phases[1], per * phases[2], per * phases[3], per * phases[4], per * sum,
        60.0 * cases / sum / 1e6);

    WorkerPool pool(threads);
    std::vector<sim::WarpMachine> machines(static_cast<std::size_t>(pool.size()), machine);
    std::vector<std::vector<std::byte>> hosts(static_cast<std::size_t>(pool.size()), host);
    std::vector<std::vector<std::byte>> expecteds(static_cast<std::size_t>(pool.size()), expected);
    const std::int64_t total = cases * pool.size();
    const double start = wall_seconds();
    pool.for_each(total, [&](int w, std::int64_t i) {
      const auto at = static_cast<std::size_t>(w);
      one_case(job, machines[at], i, hosts[at], expecteds[at], nullptr);
    });
    const double wall = wall_seconds() - start;
    std::printf("%lld cases on %d threads: %.3f s wall, %.3g M cases/min\n", static_cast<long long>(total), pool.size(),
                wall, 60.0 * static_cast<double>(total) / wall / 1e6);
  } catch (const Error& e) {
    std::fprintf(stderr, "diff_prepare_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
