// prove_bench — proof time per example file and for large tilings.
//
//     build/bin/prove_bench [EXAMPLES_DIR] [--repeat N]
//
// For every *.txt in EXAMPLES_DIR (default: examples) and for one warp's
// M x N x K = 32^3 and 64^3 m16n8k16 tilings (4 x 8 x 4 = 128 mma), runs
// prove() with each method N times (default 5) and prints the verdict and
// the best and median wall time of the whole prove() call (dispatch,
// tabulating the layouts and every check), plus the process CPU time of the
// best run, which other load on the machine disturbs less.  Files the
// default instruction set declines are retried with --inst-set extended,
// as the command line would need.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "core/base/heap_tuning.h"
#include "core/base/error.h"
#include "core/program/program.h"
#include "core/prove/prove.h"

using namespace mmacheck;

namespace {

struct Timing {
  Verdict verdict = Verdict::unknown;
  double best_ms = 0, median_ms = 0, best_cpu_ms = 0;
};

Timing measure(const Program& program, ProveOptions options, int repeat) {
  std::vector<double> wall;
  Timing t;
  t.best_cpu_ms = 1e30;
  for (int i = 0; i < repeat; ++i) {
    const std::clock_t cpu0 = std::clock();
    const auto start = std::chrono::steady_clock::now();
    t.verdict = prove(program, options).verdict;
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    const double cpu = 1000.0 * static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    if (wall.empty() || ms.count() < *std::min_element(wall.begin(), wall.end())) t.best_cpu_ms = cpu;
    wall.push_back(ms.count());
  }
  std::sort(wall.begin(), wall.end());
  t.best_ms = wall.front();
  t.median_ms = wall[wall.size() / 2];
  return t;
}

// One warp, D[M, N] = A[M, K] @ B[K, N] from TVM's fragments tiled to the shape.
Program tiled(int m, int n, int k) {
  const std::string M = std::to_string(m), N = std::to_string(n), K = std::to_string(k);
  const std::string text =
      "D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]\n"
      "A_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([16, 16], [16, 8])\n"
      "B_FRAG = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8])\n"
      "A = buffer((" + M + ", " + K + "), float16, local, A_FRAG.tile_to([" + M + ", " + K + "], [16, 16]))\n"
      "B = buffer((" + K + ", " + N + "), float16, local, B_FRAG.tile_to([" + K + ", " + N + "], [16, 8]))\n"
      "D = buffer((" + M + ", " + N + "), float32, local, D_FRAG.tile_to([" + M + ", " + N + "], [16, 8]))\n"
      "scope warp\n"
      "gemm(D, A, B, D)\n";
  return parse_program(text, "tiled_" + M + "x" + N + "x" + K);
}

void report(const std::string& name, const Program& program, ProveOptions options, int repeat) {
  for (ProofMethod method : {ProofMethod::z3, ProofMethod::exhaustive}) {
    options.method = method;
    const Timing t = measure(program, options, repeat);
    std::printf("%-34s %-10s %-15s best %8.1f ms  median %8.1f ms  cpu %8.1f ms\n", name.c_str(),
                std::string(proof_method_name(method)).c_str(), std::string(verdict_name(t.verdict)).c_str(),
                t.best_ms, t.median_ms, t.best_cpu_ms);
  }
}

}  // namespace

int main(int argc, char** argv) {
  mmacheck::keep_large_blocks_in_heap();
  std::string dir = "examples";
  int repeat = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else dir = arg;
  }
  try {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().extension() == ".txt") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      const Program program = load_program(path.string());
      ProveOptions options;
      if (prove(program, options).verdict == Verdict::dispatch_failed) options.inst_set = InstSet::extended;
      report(path.filename().string(), program, options, repeat);
    }
    report("tiled 32x32x32 (16 mma)", tiled(32, 32, 32), {}, repeat);
    report("tiled 64x64x64 (128 mma)", tiled(64, 64, 64), {}, repeat);
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
