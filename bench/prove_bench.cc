// prove_bench — proof time per example file and for large tilings.
//
//     build/bin/prove_bench [EXAMPLES_DIR] [--repeat N] [--method M]... [--tiling S]...
//                           [--no-examples] [--refuted] [--no-explain] [--max-mma N] [--timeout-ms N]
//
// For every *.txt in EXAMPLES_DIR (default: examples; none with
// --no-examples) and for one warp's m16n8k16 tilings (TVM's fragments
// `tile_to` the shape: --tiling 16 is the single tile 16 x 8 x 16, --tiling S
// otherwise M = N = K = S, (S/16)(S/8)(S/16) mma; default 16, 32, 64), runs
// prove() with each method (default: z3, z3-unrolled, exhaustive) N times
// (default 5) and prints the verdict, the best and median wall time of the
// whole prove() call (dispatch, tabulating the layouts and every check), the
// process CPU time of the best run, which other load on the machine disturbs
// less, and the process's peak resident set so far (getrusage; run one
// tiling and method per process to read it per proof).  Files the default
// instruction set declines are retried with --inst-set extended, as the
// command line would need.  --refuted proves each tiling with A's lane
// strides exchanged instead (against the correct tiling's plan: the
// dispatch declines the mistake): the cost of finding the first violation
// and, unless --no-explain, of explaining it (every mismatch, the fix search).  --max-mma raises the nest limit (512^3
// needs 65536, 1024^3 524288); --timeout-ms is prove's (default 10000).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "core/base/heap_tuning.h"
#include "core/base/error.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"

using namespace mmacheck;

namespace {

struct Timing {
  Verdict verdict = Verdict::unknown;
  double best_ms = 0, median_ms = 0, best_cpu_ms = 0;
};

// `plan`: prove it instead of the program's own dispatch (the planted
// mistake below, whose layouts the dispatch declines).
Timing measure(const Program& program, ProveOptions options, int repeat, const Plan* plan = nullptr) {
  std::vector<double> wall;
  Timing t;
  t.best_cpu_ms = 1e30;
  for (int i = 0; i < repeat; ++i) {
    const std::clock_t cpu0 = std::clock();
    const auto start = std::chrono::steady_clock::now();
    t.verdict = (plan ? prove(program, *plan, options) : prove(program, options)).verdict;
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
// `a_lanes`: A's fragment lane strides (g, t); "1 @ laneid, 4 @ laneid" is
// the planted mistake (g and t exchanged) of tests/test_prove_mistakes.cc.
Program tiled(int m, int n, int k, const std::string& a_lanes = "4 @ laneid, 1 @ laneid") {
  const std::string M = std::to_string(m), N = std::to_string(n), K = std::to_string(k);
  const std::string text =
      "D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]\n"
      "A_FRAG = S[(2, 8, 4, 2) : (2, " +
      a_lanes +
      ", 1)].tile_to([16, 16], [16, 8])\n"
      "B_FRAG = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8])\n"
      "A = buffer((" +
      M + ", " + K + "), float16, local, A_FRAG.tile_to([" + M + ", " + K +
      "], [16, 16]))\n"
      "B = buffer((" +
      K + ", " + N + "), float16, local, B_FRAG.tile_to([" + K + ", " + N +
      "], [16, 8]))\n"
      "D = buffer((" +
      M + ", " + N + "), float32, local, D_FRAG.tile_to([" + M + ", " + N +
      "], [16, 8]))\n"
      "scope warp\n"
      "gemm(D, A, B, D)\n";
  return parse_program(text, "tiled_" + M + "x" + N + "x" + K);
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

void report(const std::string& name, const Program& program, ProveOptions options,
            const std::vector<ProofMethod>& methods, int repeat, const Plan* plan = nullptr) {
  for (ProofMethod method : methods) {
    options.method = method;
    const Timing t = measure(program, options, repeat, plan);
    std::printf("%-34s %-11s %-15s best %9.1f ms  median %9.1f ms  cpu %9.1f ms  peak rss %7.1f MiB\n", name.c_str(),
                std::string(proof_method_name(method)).c_str(), std::string(verdict_name(t.verdict)).c_str(), t.best_ms,
                t.median_ms, t.best_cpu_ms, peak_rss_mib());
    std::fflush(stdout);
  }
}

std::string tiling_name(int s) {
  const std::int64_t m = s == 16 ? 16 : s, n = s == 16 ? 8 : s, k = s == 16 ? 16 : s;
  const std::int64_t mma = (m / 16) * (n / 8) * (k / 16);
  return "tiled " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " (" + std::to_string(mma) +
         " mma)";
}

}  // namespace

int main(int argc, char** argv) {
  mmacheck::keep_large_blocks_in_heap();
  std::string dir = "examples";
  int repeat = 5;
  bool examples = true;
  bool refuted = false;
  std::vector<ProofMethod> methods;
  std::vector<int> tilings;
  ProveOptions base;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const bool value = i + 1 < argc;
      if (arg == "--repeat" && value) repeat = std::max(1, std::atoi(argv[++i]));
      else if (arg == "--method" && value) methods.push_back(parse_proof_method(argv[++i]));
      else if (arg == "--tiling" && value) tilings.push_back(std::max(16, std::atoi(argv[++i])));
      else if (arg == "--no-examples") examples = false;
      else if (arg == "--refuted") refuted = true;
      else if (arg == "--no-explain") base.explain = false;
      else if (arg == "--max-mma" && value) base.limits.set(Resource::mma, std::atoll(argv[++i]));
      else if (arg == "--timeout-ms" && value) base.timeout_ms = static_cast<unsigned>(std::atol(argv[++i]));
      else dir = arg;
    }
    if (methods.empty()) methods = {ProofMethod::z3, ProofMethod::z3_unrolled, ProofMethod::exhaustive};
    if (tilings.empty()) tilings = {16, 32, 64};
    std::vector<std::filesystem::path> files;
    if (examples)
      for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".txt") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      const Program program = load_program(path.string());
      ProveOptions options = base;
      if (prove(program, options).verdict == Verdict::dispatch_failed) options.inst_set = InstSet::extended;
      report(path.filename().string(), program, options, methods, repeat);
    }
    for (int s : tilings) {
      const int m = s, n = s == 16 ? 8 : s, k = s;
      if (!refuted) {
        report(tiling_name(s), tiled(m, n, k), base, methods, repeat);
        continue;
      }
      const Plan plan = dispatch(tiled(m, n, k), base.inst_set, base.limits);
      report(tiling_name(s) + " A lanes", tiled(m, n, k, "1 @ laneid, 4 @ laneid"), base, methods, repeat, &plan);
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
