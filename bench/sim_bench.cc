// sim_bench [SOURCE_DIR] [--rounds N]: the simulator's user-visible paths
// against its arithmetic kernel, each as the best of N timed rounds on one
// thread (the minimum is what a quiet machine gives; on a busy one the
// medians of `mmacheck bench` drift by tens of percent between runs):
//
//   kernel             mma_tile on 64 random finite m16n8k16 f16 -> f32 tiles
//   kernel (special)   the same tiles with one Inf or NaN in each A tile
//   nest FILE          WarpMachine::run of the example (load, nest, store) on
//                      4 random cases of the normal and the specials inputs
//   vectors FILE       read, parse and run a .mmav file (`mma --vectors`),
//                      and its parse and run halves apart
//   Eigen              the float32 AVX2+FMA baseline on the kernel's tiles
//
// Each line gives ns per mma, mma/s and the time relative to the kernel.
// Only public interfaces, so that the same file builds against an older
// tree for before/after figures (docs/performance.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "sim/check/input_specs.h"
#include "sim/machine/warp_machine.h"
#include "sim/numerics/eigen_baseline.h"
#include "sim/numerics/float_format.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/random_inputs.h"
#include "sim/vectors/vector_file.h"

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

using Clock = std::chrono::steady_clock;

// Best seconds per unit over `rounds` runs of `round`, which does `units`.
double best(int rounds, double units, const std::function<void()>& round) {
  double fastest = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const Clock::time_point start = Clock::now();
    round();
    fastest = std::min(fastest, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return fastest / units;
}

void line(const std::string& name, double seconds, double kernel) {
  std::printf("%-58s %9.1f ns/mma %10.3g mma/s %6.2fx kernel\n", name.c_str(), seconds * 1e9, 1 / seconds,
              kernel > 0 ? seconds / kernel : 1.0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string root = ".";
  int rounds = 300;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
    else root = argv[i];
  }
  const MmaInst& inst = *find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const ArchParams& arch = arch_params("sm_90");
  constexpr int kTiles = 64;
  std::mt19937_64 rng(0x5eed);
  const auto element = [&](DType t) {  // exponents in [-4, 4], as `bench` draws them
    const FloatFormat& f = float_format(t);
    const std::uint64_t man = rng() & ((std::uint64_t{1} << f.man_bits) - 1);
    return round_to_format(f, rng() & 1, man | (std::uint64_t{1} << f.man_bits),
                           static_cast<int>(rng() % 9) - 4 - f.man_bits, Rounding::nearest_even);
  };
  std::vector<std::uint64_t> a, b, c, d(128 * kTiles);
  for (int t = 0; t < kTiles; ++t) {
    for (int i = 0; i < 256; ++i) a.push_back(element(inst.a));
    for (int i = 0; i < 128; ++i) b.push_back(element(inst.b));
    for (int i = 0; i < 128; ++i) c.push_back(element(inst.c));
  }
  const auto tiles = [&](const std::vector<std::uint64_t>& as) {
    return [&, as] {
      for (int t = 0; t < kTiles; ++t)
        mma_tile(inst, arch, std::span(as).subspan(t * 256, 256), std::span(b).subspan(t * 128, 128),
                 std::span(c).subspan(t * 128, 128), std::span(d).subspan(t * 128, 128));
    };
  };
  const double kernel = best(rounds, kTiles, tiles(a));
  line("kernel", kernel, 0);
  std::vector<std::uint64_t> special = a;
  const std::uint64_t kinds[] = {0x7C00, 0xFC00, 0x7E00};  // +Inf, -Inf, NaN
  for (int t = 0; t < kTiles; ++t) special[t * 256 + (t * 7) % 256] = kinds[t % 3];
  line("kernel (special values)", best(rounds, kTiles, tiles(special)), kernel);

  for (const char* name : {"examples/m64.txt", "examples/tiled_2x2x2.txt"}) {
    const Program program = load_program(root + "/" + name);
    const Plan plan = dispatch(program, InstSet::extended);
    WarpMachine machine(program, plan.nest, arch);
    const InputSpecs specs = input_specs(program);
    const double mma = static_cast<double>(plan.nest.mma_count()) * machine.warps() * 4;
    for (const Distribution dist : {Distribution::normal, Distribution::specials}) {
      std::vector<GemmInputs> cases;
      for (int i = 0; i < 4; ++i) cases.push_back(random_gemm_inputs(specs.a, specs.b, specs.c, dist, 0x5eed, i));
      line(std::string("nest ") + name + (dist == Distribution::specials ? " (special values)" : ""),
           best(rounds, mma,
                [&] {
                  for (const GemmInputs& in : cases) machine.run(in);
                }),
           kernel);
    }
  }

  const std::string vectors = root + "/tests/data/m16n8k16.f32.f16.f16.f32.mmav";
  const VectorFile file = read_vector_file(vectors);
  const double cases = static_cast<double>(file.cases.size());
  const int file_rounds = std::max(1, rounds / 3);
  line("vectors tests/data/m16n8k16.f32.f16.f16.f32.mmav (read, parse, run)",
       best(file_rounds, cases, [&] { run_vector_file(read_vector_file(vectors), arch, 0); }), kernel);
  line("  of which read and parse", best(file_rounds, cases, [&] { read_vector_file(vectors); }), kernel);
  line("  of which run (lane path)", best(file_rounds, cases, [&] { run_vector_file(file, arch, 0); }), kernel);

  std::vector<float> fa, fb, fc, fd(128 * kTiles);
  const auto to_float = [](DType t, std::uint64_t bits) {
    const FpValue v = decode(float_format(t), bits);
    const float mag = std::ldexp(static_cast<float>(v.sig), v.exp - v.frac);
    return v.neg ? -mag : mag;
  };
  for (const std::uint64_t x : a) fa.push_back(to_float(inst.a, x));
  for (const std::uint64_t x : b) fb.push_back(to_float(inst.b, x));
  for (const std::uint64_t x : c) fc.push_back(to_float(inst.c, x));
  const FloatTileKernel& eigen = eigen_tile_kernel(16, 8, 16);
  const double baseline = best(rounds, kTiles, [&] { eigen.run(fa.data(), fb.data(), fc.data(), fd.data(), kTiles); });
  line(std::string(eigen.name), baseline, kernel);
  std::printf("ratio %.3f (simulator / %s)\n", baseline / kernel, std::string(eigen.name).c_str());
  return 0;
}
