// sim_check_bench — where `mmacheck sim`'s time goes on large tilings, and
// how it compares with proving the same program.
//
//     build/bin/sim_check_bench [--sizes 64,128,256] [--cases N] [--prove]
//
// For one warp's N^3 m16n8k16 f16 -> f32 tiling (TVM's fragments tile_to
// the shape, as bench/prove_bench.cc builds them) and each size, runs N
// cases (default 64, the `sim` default; the standard distributions in
// turn) on one thread and prints the CPU time of each phase of
// SimCheck::failures summed over the cases: drawing the inputs, the warp
// machine (the simulation itself), the direct evaluation (the bit-exact
// reference), the Eigen reference with its error bound (the independent
// reference), and the rest (the comparison).  With --prove, also the time
// of prove() with the exhaustive method (and with z3 under its default
// 10 s limit) on the same program, also in CPU time.
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/heap_tuning.h"
#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "sim/check/direct_eval.h"
#include "sim/check/reference.h"
#include "sim/check/sim_check.h"

using namespace mmacheck;

namespace {

// The calling thread's CPU time: on a machine shared with other work it
// moves far less than the wall clock (the phases run on this thread only).
struct Clock {
  using time_point = double;
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
};
double since(double t) { return Clock::now() - t; }

Program tiled(int n) {
  const std::string N = std::to_string(n);
  const std::string text =
      "D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]\n"
      "A_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([16, 16], [16, 8])\n"
      "B_FRAG = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8])\n"
      "A = buffer((" +
      N + ", " + N + "), float16, local, A_FRAG.tile_to([" + N + ", " + N +
      "], [16, 16]))\n"
      "B = buffer((" +
      N + ", " + N + "), float16, local, B_FRAG.tile_to([" + N + ", " + N +
      "], [16, 8]))\n"
      "D = buffer((" +
      N + ", " + N + "), float32, local, D_FRAG.tile_to([" + N + ", " + N +
      "], [16, 8]))\n"
      "scope warp\n"
      "gemm(D, A, B, D)\n";
  return parse_program(text, "tiled_" + N + "^3");
}

void run(int n, int cases, bool with_prove) {
  const Program program = tiled(n);
  const Plan plan = dispatch(program);
  if (!plan.ok) throw Error("tiled " + std::to_string(n) + "^3 does not dispatch");
  const sim::ArchParams& arch = sim::arch_params("sm_90");
  Clock::time_point t = Clock::now();
  sim::SimCheck check(program, plan.nest, arch);
  const double setup = since(t);
  sim::WarpMachine machine = check.machine();
  const MmaInst& inst = *plan.inst;
  double draw = 0, simulate = 0, direct = 0, reference = 0, whole = 0;
  std::size_t failing = 0;
  for (int i = 0; i < cases; ++i) {
    t = Clock::now();
    const sim::GemmInputs in = check.random_case(i, 1);
    draw += since(t);
    t = Clock::now();
    const std::vector<std::uint64_t> d = machine.run(in);
    simulate += since(t);
    t = Clock::now();
    const sim::Matrix exact = sim::direct_eval(check.geometry(), inst, arch, in);
    direct += since(t);
    t = Clock::now();
    const sim::Reference ref = sim::eigen_reference(check.geometry(), inst, arch, in);
    reference += since(t);
    t = Clock::now();
    failing += check.failures(in).size();
    whole += since(t);
  }
  const double rest = std::max(0.0, whole - simulate - direct - reference);
  std::printf(
      "tiled %d^3 (%lld mma), %d cases, 1 thread, CPU time: set-up %.3f s; per case: draw %.2f ms, "
      "warp machine %.2f ms, direct evaluation %.2f ms, Eigen reference + bound %.2f ms, compare %.2f ms; "
      "sim total %.2f s (reference / simulation %.2f)%s\n",
      n, static_cast<long long>(plan.nest.mma_count()), cases, setup, 1e3 * draw / cases, 1e3 * simulate / cases,
      1e3 * direct / cases, 1e3 * reference / cases, 1e3 * rest / cases, setup + draw + whole,
      (direct + reference + rest) / simulate, failing ? " FAILURES" : "");
  if (!with_prove) return;
  for (const ProofMethod method : {ProofMethod::exhaustive, ProofMethod::z3}) {
    ProveOptions options;
    options.method = method;
    t = Clock::now();
    const ProofReport r = prove(program, options);
    std::printf("  prove --method %s: %s in %.2f s\n", std::string(proof_method_name(method)).c_str(),
                std::string(verdict_name(r.verdict)).c_str(), since(t));
  }
}

std::vector<int> sizes_from(const std::string& text) {
  std::vector<int> out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t comma = text.find(',', at);
    out.push_back(std::stoi(text.substr(at, comma == std::string::npos ? std::string::npos : comma - at)));
    at = comma == std::string::npos ? text.size() : comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  keep_large_blocks_in_heap();
  std::vector<int> sizes{64, 128, 256};
  int cases = 64;
  bool with_prove = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--sizes" && i + 1 < argc) sizes = sizes_from(argv[++i]);
    else if (arg == "--cases" && i + 1 < argc) cases = std::atoi(argv[++i]);
    else if (arg == "--prove") with_prove = true;
    else {
      std::fprintf(stderr, "usage: sim_check_bench [--sizes 64,128,256] [--cases N] [--prove]\n");
      return 2;
    }
  }
  try {
    for (int n : sizes) run(n, std::max(1, cases), with_prove);
  } catch (const Error& e) {
    std::fprintf(stderr, "sim_check_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
