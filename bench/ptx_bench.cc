// ptx_bench [PTX...] [--rounds N] [--threads T] [--launch FILE]: the CTA
// machine's speed on a PTX launch (docs/ptx.md), each file with its
// NAME.launch.json (or FILE), as the best of N timed rounds, its CTAs run T
// at a time (default 1):
//
//   prove     the provenance run and the check of D (check_ptx_launch)
//   sim       one case with numbers: inputs drawn, the run with sm_90's
//             mma.sync arithmetic, the f64 reference (simulate_ptx_case)
//   baseline  the same problem's M·N·K multiply-adds as a naive f32 triple
//             loop (the cost of the arithmetic alone, for scale)
//
// Each line gives the seconds, the thread-instructions executed and the
// thread-instructions per second (issue 35's goal: 100 M per core).
// Default files: Triton's fp16 matmul of tests/data/ptx/triton/.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_reader.h"
#include "sim/ptx/ptx_sim.h"

using namespace mmacheck;

namespace {

template <class F>
double best_of(int rounds, F&& f) {
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 3;
  int threads = 1;
  ptx::LaunchChoice choice;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
    else if (a == "--threads" && i + 1 < argc) threads = std::clamp(std::atoi(argv[++i]), 1, 1024);
    else if (a == "--launch" && i + 1 < argc) choice.file = argv[++i];
    else files.push_back(a);
  }
  if (files.empty())
    files = {"tests/data/ptx/triton/f16_32x32x32_w4.ptx", "tests/data/ptx/triton/f16_64x64x32_w4_s3.ptx"};
  try {
    for (const std::string& f : files) {
      const ptx::PtxModule module = ptx::read_ptx(read_text_file(f), f);
      ptx::PtxLaunch launch = ptx::read_launch_for(f, choice);
      const ptx::PtxKernel& kernel = ptx::bind_launch(launch, module);
      const auto& D = launch.tensors[static_cast<std::size_t>(launch.d)];
      const std::int64_t M = D.shape[0], N = D.shape[1],
                         K = launch.tensors[static_cast<std::size_t>(launch.a)].shape[1];
      std::uint64_t steps = 0;
      ptx::RunOptions run;
      run.threads = threads;
      const double prove = best_of(rounds, [&] { steps = ptx::check_ptx_launch(module, launch, run).steps; });
      const double sim = best_of(rounds, [&] {
        (void)sim::simulate_ptx_case(kernel, launch, sim::arch_params("sm_90"), 1, 0, sim::InputSet::standard, run);
      });
      std::vector<float> a(static_cast<std::size_t>(M * K), 1.0f), b(static_cast<std::size_t>(K * N), 0.5f),
          d(static_cast<std::size_t>(M * N));
      const double base = best_of(rounds, [&] {
        for (std::int64_t i = 0; i < M; ++i)
          for (std::int64_t j = 0; j < N; ++j) {
            float s = 0;
            for (std::int64_t k = 0; k < K; ++k)
              s += a[static_cast<std::size_t>(i * K + k)] * b[static_cast<std::size_t>(k * N + j)];
            d[static_cast<std::size_t>(i * N + j)] = s;
          }
      });
      std::printf("%s: %s, %lld x %lld x %lld, grid %d x %d, block %d, %d CTAs at once\n", f.c_str(),
                  kernel.name.c_str(), static_cast<long long>(M), static_cast<long long>(N), static_cast<long long>(K),
                  launch.shape.grid[0], launch.shape.grid[1], launch.shape.block[0], threads);
      std::printf("  prove     %8.4f s  %10llu thread-instructions  %7.2f M/s\n", prove,
                  static_cast<unsigned long long>(steps), static_cast<double>(steps) / prove / 1e6);
      std::printf("  sim       %8.4f s  %10llu thread-instructions  %7.2f M/s\n", sim,
                  static_cast<unsigned long long>(steps), static_cast<double>(steps) / sim / 1e6);
      std::printf("  baseline  %8.4f s  naive f32 loops (d[0] = %g)\n", base, static_cast<double>(d[0]));
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: error: %s\n", e.loc().str().c_str(), e.message().c_str());
    return 2;
  }
  return 0;
}
