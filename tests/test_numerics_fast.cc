// The fixed-point fast path (sim/numerics/fused_tile_fast.h), both its portable and
// its AVX2 kernels, against the reference fused model (sim/numerics/fused_dot.h) on
// random tiles drawn to hit the edges: zeros, subnormals, the largest
// exponents, cancellation.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "core/gemm/mma_inst.h"
#include "sim/numerics/fused_dot.h"
#include "sim/numerics/fused_tile_fast.h"
#include "sim/numerics/fused_tile_kernels.h"
#include "tests/support.h"

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

std::uint64_t random_finite(const FloatFormat& f, std::mt19937_64& rng) {
  const std::uint64_t man = rng() & ((std::uint64_t{1} << f.man_bits) - 1);
  const std::uint64_t top = (std::uint64_t{1} << f.exp_bits) - 1;
  std::uint64_t exp;
  switch (rng() % 6) {
    case 0: exp = 0; break;                                  // zero or subnormal
    case 1: exp = top - 1 - rng() % 3; break;                // near overflow
    case 2: exp = 1 + rng() % (top - 1); break;              // anywhere
    default: exp = f.bias - 3 + rng() % 7; break;            // moderate
  }
  const std::uint64_t bits = (exp << f.man_bits | (rng() % 8 == 0 ? 0 : man)) << f.ignored_low_bits;
  const std::uint64_t low = f.ignored_low_bits ? rng() & ((1u << f.ignored_low_bits) - 1) : 0;
  return bits | low | (rng() & 1 ? f.sign_bit() : 0);
}

struct Tile {
  std::vector<std::uint64_t> a, b, c;
};

Tile random_tile(const MmaInst& in, std::mt19937_64& rng) {
  Tile t;
  for (int i = 0; i < in.m * in.k; ++i) t.a.push_back(random_finite(float_format(in.a), rng));
  for (int i = 0; i < in.k * in.n; ++i) t.b.push_back(random_finite(float_format(in.b), rng));
  for (int i = 0; i < in.m * in.n; ++i) t.c.push_back(random_finite(float_format(in.c), rng));
  if (rng() % 4 == 0)  // cancellation: the second half of K negates the first
    for (int i = 0; i < in.m; ++i)
      for (int k = in.k / 2; k < in.k; ++k) t.a[i * in.k + k] = t.a[i * in.k + k - in.k / 2] ^ float_format(in.a).sign_bit();
  return t;
}

std::vector<std::uint64_t> reference(const MmaInst& in, const ArchParams& arch, const Tile& t) {
  const FusedStep step = fused_step_for(float_format(in.d), arch);
  std::vector<std::uint64_t> d(in.m * in.n);
  for (int i = 0; i < in.m; ++i)
    for (int j = 0; j < in.n; ++j) {
      std::vector<FpValue> a, b;
      for (int k = 0; k < in.k; ++k) {
        a.push_back(decode(float_format(in.a), t.a[i * in.k + k]));
        b.push_back(decode(float_format(in.b), t.b[k * in.n + j]));
      }
      d[i * in.n + j] = fused_dot(step, a, b, decode(float_format(in.c), t.c[i * in.n + j]));
    }
  return d;
}

// The portable kernels, called directly (fused_tile_fast picks AVX2 here).
std::vector<std::uint64_t> portable(const MmaInst& in, const ArchParams& arch, const Tile& t) {
  const FloatFormat &fa = float_format(in.a), &fb = float_format(in.b), &fc = float_format(in.c);
  const fast::TileSpec spec{in.k, &fa, &fb, &fc, arch.kept_bits - fa.man_bits - fb.man_bits,
                            arch.kept_bits - fc.man_bits, arch.kept_bits, arch.zero_term_exp};
  fast::Operands op;
  fast::Sums sums;
  REQUIRE(fast::decode(spec, t.a.data(), t.b.data(), t.c.data(), op));
  fast::aligned_sums(spec, op, sums);
  std::vector<std::uint64_t> d(in.m * in.n);
  if (fc.man_bits == 23) {
    fast::finish_f32(spec, sums, d.data());
    return d;
  }
  return {};  // f16 output: the rounding is shared with the reference
}

}  // namespace

TEST_CASE("fast fused tiles equal the reference model", "[numerics]") {
  std::mt19937_64 rng(12345);
  for (const MmaInst& in : mma_instructions()) {
    if (in.a != DType::f16 && in.a != DType::bf16 && in.a != DType::tf32) continue;
    for (const ArchParams& arch : all_arch_params()) {
      const int block = in.a == DType::tf32 ? arch.block_tf32 : arch.block_16bit;
      if (in.k > block) continue;  // chained blocks take the reference path
      INFO(in.ptx() << " on " << arch.name);
      for (int n = 0; n < 300; ++n) {
        const Tile t = random_tile(in, rng);
        const std::vector<std::uint64_t> want = reference(in, arch, t);
        std::vector<std::uint64_t> got(in.m * in.n);
        REQUIRE(fused_tile_fast(in, arch, t.a, t.b, t.c, got));
        REQUIRE(got == want);
        const std::vector<std::uint64_t> port = portable(in, arch, t);
        if (!port.empty()) REQUIRE(port == want);
      }
    }
  }
}

TEST_CASE("the fast path declines tiles with NaN or Inf", "[numerics]") {
  const MmaInst& in = *find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  std::vector<std::uint64_t> a(256, 0x3C00), b(128, 0x3C00), c(128, 0), d(128, 7);
  b[77] = 0x7C00;
  CHECK_FALSE(fused_tile_fast(in, arch_params("sm_90"), a, b, c, d));
  CHECK(d[0] == 7);
}

TEST_CASE("mmacheck bench prints the kernel, nest and baseline rates and ends with the ratio", "[numerics][cli]") {
  const test::RunResult r = test::run_mmacheck(
      {"bench", "--seconds", "0.05", "--threads", "1", "--nest", test::source_path("examples/m64.txt")});
  CHECK(r.status == 0);
  CHECK(r.out.find("\nkernel: ") != std::string::npos);
  CHECK(r.out.find("\nkernel (special values): ") != std::string::npos);
  CHECK(r.out.find("\nnest " + test::source_path("examples/m64.txt") + ": ") != std::string::npos);
  CHECK(r.out.find("\nnest " + test::source_path("examples/m64.txt") + " (special values): ") != std::string::npos);
  CHECK(r.out.find("\nEigen float32") != std::string::npos);
  const std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  CHECK(last.rfind("ratio ", 0) == 0);
  CHECK(last.find("(simulator / Eigen float32") != std::string::npos);
  CHECK(test::run_mmacheck({"bench", "--seconds", "0.05", "--nest", test::source_path("examples/reject_shape.txt")})
            .status == 2);
  CHECK(test::run_mmacheck({"bench", "--instr", "mma.sync.bogus"}).status == 2);
  CHECK(test::run_mmacheck({"bench", "--threads", "0"}).status == 2);
}
