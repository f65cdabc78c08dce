// The fixed-point fast path (sim/numerics/fused_tile_fast.h), both its portable and
// its AVX2 kernels, against the reference fused model (sim/numerics/fused_dot.h) on
// random tiles drawn to hit the edges: zeros, subnormals, the largest
// exponents, cancellation.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "sim/numerics/fused_dot.h"
#include "sim/numerics/fused_tile_fast.h"
#include "sim/numerics/fused_tile_kernels.h"
#include "tests/support.h"

namespace test_numerics_fast {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

std::uint64_t random_finite(const FloatFormat& f, std::mt19937_64& rng) {
  const std::uint64_t man = rng() & ((std::uint64_t{1} << f.man_bits) - 1);
  const std::uint64_t top = (std::uint64_t{1} << f.exp_bits) - 1;
  std::uint64_t exp;
  switch (rng() % 6) {
    case 0: exp = 0; break;                        // zero or subnormal
    case 1: exp = top - 1 - rng() % 3; break;      // near overflow
    case 2: exp = 1 + rng() % (top - 1); break;    // anywhere
    default: exp = f.bias - 3 + rng() % 7; break;  // moderate
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
  if (rng() % 4 == 1)  // sparse: sums of a few tiny products that may round to zero
    for (std::uint64_t& x : t.a)
      if (rng() % 4) x = 0;
  if (rng() % 8 == 0)  // bits above the element width, which every path ignores
    for (std::vector<std::uint64_t>* tile : {&t.a, &t.b})
      for (std::uint64_t& x : *tile) x |= rng() << dtype_bits(tile == &t.a ? in.a : in.b);
  if (rng() % 4 == 0)  // cancellation: the second half of K negates the first
    for (int i = 0; i < in.m; ++i)
      for (int k = in.k / 2; k < in.k; ++k)
        t.a[i * in.k + k] = t.a[i * in.k + k - in.k / 2] ^ float_format(in.a).sign_bit();
  return t;
}

std::vector<std::uint64_t> reference(const MmaInst& in, const ArchParams& arch, const Tile& t) {
  const FusedStep step = fused_step_for(in.a, float_format(in.d), arch);
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

fast::TileSpec tile_spec(const MmaInst& in, const ArchParams& arch) {
  const FloatFormat &fa = float_format(in.a), &fb = float_format(in.b), &fc = float_format(in.c);
  return {in.k,
          &fa,
          &fb,
          &fc,
          arch.kept_bits - fa.man_bits - fb.man_bits,
          arch.kept_bits - fc.man_bits,
          arch.kept_bits,
          arch.zero_term_exp(in.d),
          in.a == DType::f16 && in.b == DType::f16};
}

// The portable kernels, called directly (fused_tile_fast picks AVX2 here).
std::vector<std::uint64_t> portable(const MmaInst& in, const ArchParams& arch, const Tile& t) {
  const fast::TileSpec spec = tile_spec(in, arch);
  fast::Operands op;
  fast::Sums sums;
  REQUIRE(fast::decode(spec, t.a.data(), t.b.data(), t.c.data(), op));
  fast::aligned_sums(spec, op, sums);
  std::vector<std::uint64_t> d(in.m * in.n);
  if (spec.c->man_bits == 23) {
    fast::finish_f32(spec, sums, d.data());
    return d;
  }
  return {};  // f16 output: the rounding is shared with the reference
}

#ifdef MMACHECK_AVX2_KERNELS
// Both AVX2 sums, called directly: the integer one always, the f32-product
// one when the tile's exponent spread allows it (`products` says whether).
struct Avx2Results {
  std::vector<std::uint64_t> integer, products;
};

Avx2Results avx2(const MmaInst& in, const ArchParams& arch, const Tile& t) {
  fast::TileSpec spec = tile_spec(in, arch);
  if (spec.c->man_bits != 23 || !fast::cpu_has_avx2()) return {};
  fast::Operands op;
  fast::Values v;
  Avx2Results r;
  fast::Sums sums;
  const bool narrow = spec.narrow;
  spec.narrow = false;  // the general decode, with significands, for the integer kernel
  REQUIRE(fast::decode_avx2(spec, t.a.data(), t.b.data(), t.c.data(), op, v));
  fast::aligned_sums_avx2(spec, op, sums);
  r.integer.resize(in.m * in.n);
  fast::finish_f32_avx2(spec, sums, r.integer.data());
  if (v.exact) {  // offsets from the spread
    fast::product_sums_avx2(spec, op, v, sums);
    std::vector<std::uint64_t> d(in.m * in.n);
    fast::finish_f32_avx2(spec, sums, d.data());
    REQUIRE(d == r.integer);
  }
  spec.narrow = narrow;
  REQUIRE(fast::decode_avx2(spec, t.a.data(), t.b.data(), t.c.data(), op, v));
  if (v.exact) {
    fast::product_sums_avx2(spec, op, v, sums);
    r.products.resize(in.m * in.n);
    fast::finish_f32_avx2(spec, sums, r.products.data());
  }
  return r;
}
#endif

// Every instruction set this processor runs the fast path's kernels in.
std::vector<TileIsa> available_isas() {
  std::vector<TileIsa> isas;
  for (const TileIsa isa : {TileIsa::portable, TileIsa::avx2, TileIsa::avx512})
    if (tile_isa_available(isa)) isas.push_back(isa);
  return isas;
}

// One NaN or Inf (of either sign) at a few random places of A, B or C.
void add_specials(const MmaInst& in, Tile& t, std::mt19937_64& rng) {
  const int count = 1 + static_cast<int>(rng() % 4);
  for (int n = 0; n < count; ++n) {
    const int which = static_cast<int>(rng() % 3);
    std::vector<std::uint64_t>& tile = which == 0 ? t.a : which == 1 ? t.b : t.c;
    const FloatFormat& f = float_format(which == 0 ? in.a : which == 1 ? in.b : in.c);
    const std::uint64_t man = rng() % 2 ? 0 : (rng() | 1) & ((std::uint64_t{1} << f.man_bits) - 1);
    tile[rng() % tile.size()] = (rng() & 1 ? f.sign_bit() : 0) | (f.inf_bits(false) | man << f.ignored_low_bits);
  }
}

}  // namespace

TEST_CASE("fast fused tiles equal the reference model", "[numerics]") {
  std::mt19937_64 rng(12345);
  int products = 0;  // tiles the f32-product kernel took
  for (const MmaInst& in : mma_instructions()) {
    if (in.a != DType::f16 && in.a != DType::bf16 && in.a != DType::tf32) continue;
    for (const ArchParams& arch : all_arch_params()) {
      if (!has_model(in, arch)) continue;
      const int block = in.a == DType::tf32 ? arch.block_tf32 : arch.block_16bit;
      if (in.k > block) continue;  // chained blocks take the reference path
      INFO(in.ptx() << " on " << arch.name);
      for (int n = 0; n < test::samples(300, 50); ++n) {
        const Tile t = random_tile(in, rng);
        const std::vector<std::uint64_t> want = reference(in, arch, t);
        std::vector<std::uint64_t> got(in.m * in.n);
        REQUIRE(fused_tile_fast(in, arch, t.a, t.b, t.c, got));
        REQUIRE(got == want);
        for (const TileIsa isa : available_isas()) {
          INFO(tile_isa_name(isa));
          std::vector<std::uint64_t> by_isa(in.m * in.n);
          REQUIRE(fused_tile_fast(in, arch, t.a, t.b, t.c, by_isa, isa));
          REQUIRE(by_isa == want);
        }
        const std::vector<std::uint64_t> port = portable(in, arch, t);
        if (!port.empty()) REQUIRE(port == want);
#ifdef MMACHECK_AVX2_KERNELS
        const Avx2Results vec = avx2(in, arch, t);
        if (!vec.integer.empty()) REQUIRE(vec.integer == want);
        if (!vec.products.empty()) REQUIRE(vec.products == want);
        products += !vec.products.empty();
#endif
      }
    }
  }
#ifdef MMACHECK_AVX2_KERNELS
  if (fast::cpu_has_avx2()) CHECK(products >= test::samples(2000, 300));  // every f16 tile with f32 output takes it
#endif
}

TEST_CASE("fast tiles with NaN or Inf equal the reference model", "[numerics]") {
  std::mt19937_64 rng(54321);
  for (const MmaInst& in : mma_instructions()) {
    if (in.a != DType::f16 && in.a != DType::bf16 && in.a != DType::tf32) continue;
    for (const ArchParams& arch : all_arch_params()) {
      if (!has_model(in, arch)) continue;
      const int block = in.a == DType::tf32 ? arch.block_tf32 : arch.block_16bit;
      if (in.k > block) continue;
      INFO(in.ptx() << " on " << arch.name);
      for (int n = 0; n < test::samples(100, 20); ++n) {
        Tile t = random_tile(in, rng);
        add_specials(in, t, rng);
        const std::vector<std::uint64_t> want = reference(in, arch, t);
        std::vector<std::uint64_t> got(in.m * in.n);
        REQUIRE(fused_tile_fast(in, arch, t.a, t.b, t.c, got));
        REQUIRE(got == want);
        for (const TileIsa isa : available_isas()) {
          INFO(tile_isa_name(isa));
          std::vector<std::uint64_t> by_isa(in.m * in.n);
          REQUIRE(fused_tile_fast(in, arch, t.a, t.b, t.c, by_isa, isa));
          REQUIRE(by_isa == want);
        }
        // In place (D over C), as a caller may run it.
        std::vector<std::uint64_t> c = t.c;
        REQUIRE(fused_tile_fast(in, arch, t.a, t.b, c, c));
        REQUIRE(c == want);
      }
    }
  }
  // The f16 special path sums in f32 (patch_specials_f16_avx2): at the
  // edge of overflow, C = ±FLT_MAX and products of ±65504, an Inf that
  // reaches an output with the other sign's finite huge terms stays that
  // Inf, and an unreached output stays finite.
  for (const char* ptx :
       {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"}) {
    const MmaInst& edge = *find_mma_inst(ptx);
    INFO(ptx);
    for (int n = 0; n < 200; ++n) {
      Tile t = random_tile(edge, rng);
      for (std::uint64_t& x : t.a) x = rng() % 2 ? x : (rng() & 1 ? 0xFBFF : 0x7BFF);
      for (std::uint64_t& x : t.b) x = rng() % 2 ? x : (rng() & 1 ? 0xFBFF : 0x7BFF);
      for (std::uint64_t& x : t.c) x = rng() % 2 ? x : (rng() & 1 ? 0xFF7FFFFF : 0x7F7FFFFF);
      add_specials(edge, t, rng);
      const std::vector<std::uint64_t> want = reference(edge, arch_params("sm_90"), t);
      std::vector<std::uint64_t> got(edge.m * edge.n);
      REQUIRE(fused_tile_fast(edge, arch_params("sm_90"), t.a, t.b, t.c, got));
      REQUIRE(got == want);
    }
  }
  // A single Inf in B reaches only its column: the others stay finite.
  const MmaInst& in = *find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  std::vector<std::uint64_t> a(256, 0x3C00), b(128, 0x3C00), c(128, 0), d(128, 7);
  b[77] = 0x7C00;  // B[9][5]
  REQUIRE(fused_tile_fast(in, arch_params("sm_90"), a, b, c, d));
  for (int n = 0; n < 128; ++n) CHECK(d[n] == (n % 8 == 5 ? 0x7F800000u : 0x41800000u));  // +Inf, 16
}

TEST_CASE("mmacheck bench prints the kernel, nest and baseline rates and ends with the ratio", "[numerics][cli]") {
  const std::string vectors = test::source_path("tests/data/m16n8k16.f32.f16.f16.f32.mmav");
  const test::RunResult r = test::run_mmacheck({"bench", "--seconds", "0.05", "--threads", "1", "--nest",
                                                test::source_path("examples/m64.txt"), "--vectors", vectors});
  CHECK(r.status == 0);
  CHECK(r.out.find("\nkernel: ") != std::string::npos);
  CHECK(r.out.find("\nkernel (special values): ") != std::string::npos);
  CHECK(r.out.find("\nnest " + test::source_path("examples/m64.txt") + ": ") != std::string::npos);
  CHECK(r.out.find("\nnest " + test::source_path("examples/m64.txt") + " (special values): ") != std::string::npos);
  CHECK(r.out.find("\nvectors " + vectors + ": ") != std::string::npos);
  CHECK(r.out.find("\nEigen float32") != std::string::npos);
  const std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  CHECK(last.rfind("ratio ", 0) == 0);
  CHECK(last.find("(simulator / Eigen float32") != std::string::npos);
  CHECK(test::run_mmacheck({"bench", "--seconds", "0.05", "--nest", test::source_path("examples/reject_shape.txt")})
            .status == 2);
  CHECK(test::run_mmacheck({"bench", "--instr", "mma.sync.bogus"}).status == 2);
  CHECK(test::run_mmacheck({"bench", "--seconds", "0.05", "--vectors", test::source_path("examples/m64.txt")}).status ==
        2);                                                             // not a vector file: exits 2 before timing
  CHECK(test::run_mmacheck({"bench", "--threads", "-1"}).status == 2);  // 0 is every hardware thread
}

TEST_CASE("both kernels give +0 where a nonzero sum rounds to zero", "[numerics]") {
  // -2^-75 * 2^-75 = -2^-150 (bf16 0x9a00 * 0x1a00, tf32 0x9a000000 * 0x1a000000),
  // toward zero: +0 (the H200 and MMA-Sim), not -0.
  for (const char* ptx :
       {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32"}) {
    const MmaInst& in = *find_mma_inst(ptx);
    const bool tf32 = in.a == DType::tf32;
    Tile t{std::vector<std::uint64_t>(in.m * in.k), std::vector<std::uint64_t>(in.k * in.n),
           std::vector<std::uint64_t>(in.m * in.n)};
    t.a[0] = tf32 ? 0x9a000000 : 0x9a00;
    t.b[0] = tf32 ? 0x1a000000 : 0x1a00;
    t.c[1] = 0x80000000;  // -0 + (-0 * 0): +0 as well
    std::vector<std::uint64_t> got(in.m * in.n, 7);
    REQUIRE(fused_tile_fast(in, arch_params("sm_90"), t.a, t.b, t.c, got));
    CHECK(got == std::vector<std::uint64_t>(in.m * in.n, 0));
    CHECK(portable(in, arch_params("sm_90"), t) == got);
  }
}

#ifdef MMACHECK_AVX2_KERNELS
TEST_CASE("the f32-product kernel is exact for bf16 and tf32 exponents in any window", "[numerics]") {
  // Exponent fields drawn from a window of 50 (A) and 50 (B) placed anywhere
  // in the range, subnormals and the largest finite values included: the
  // spread of 100 the kernel accepts, with offsets up to the top and bottom.
  if (!fast::cpu_has_avx2()) return;
  std::mt19937_64 rng(777);
  int products = 0;
  for (const char* ptx :
       {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"}) {
    const MmaInst& in = *find_mma_inst(ptx);
    const FloatFormat& f = float_format(in.a);
    for (const ArchParams& arch : all_arch_params()) {
      if (!has_model(in, arch) || in.k > (in.a == DType::tf32 ? arch.block_tf32 : arch.block_16bit)) continue;
      INFO(in.ptx() << " on " << arch.name);
      for (int n = 0; n < 200; ++n) {
        const auto window = [&](std::vector<std::uint64_t>& tile, int count) {
          const std::uint64_t lo = rng() % 205;  // fields [lo, lo + 50] within [0, 254]
          for (int e = 0; e < count; ++e) {
            const std::uint64_t field = lo + rng() % 51;
            const std::uint64_t man = rng() & ((std::uint64_t{1} << f.man_bits) - 1);
            tile.push_back(((field << f.man_bits | man) << f.ignored_low_bits) | (rng() & 1 ? f.sign_bit() : 0));
          }
        };
        Tile t;
        window(t.a, in.m * in.k);
        window(t.b, in.k * in.n);
        for (int e = 0; e < in.m * in.n; ++e) t.c.push_back(random_finite(float_format(in.c), rng));
        const std::vector<std::uint64_t> want = reference(in, arch, t);
        const Avx2Results vec = avx2(in, arch, t);
        REQUIRE(vec.integer == want);
        if (!vec.products.empty()) REQUIRE(vec.products == want);
        products += !vec.products.empty();
        for (const TileIsa isa : available_isas()) {
          INFO(tile_isa_name(isa));
          std::vector<std::uint64_t> got(in.m * in.n);
          REQUIRE(fused_tile_fast(in, arch, t.a, t.b, t.c, got, isa));
          REQUIRE(got == want);
        }
      }
    }
  }
  CHECK(products > 1000);
}
#endif

TEST_CASE("the fast path takes the best kernels the processor runs, and refuses others", "[numerics]") {
  const std::vector<TileIsa> isas = available_isas();
  REQUIRE(!isas.empty());
  CHECK(isas.front() == TileIsa::portable);
  CHECK(best_tile_isa() == isas.back());
  const MmaInst& in = *find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  std::mt19937_64 rng(99);
  const Tile t = random_tile(in, rng);
  std::vector<std::uint64_t> d(in.m * in.n);
  for (const TileIsa isa : {TileIsa::portable, TileIsa::avx2, TileIsa::avx512})
    if (!tile_isa_available(isa))
      CHECK_THROWS_AS(fused_tile_fast(in, arch_params("sm_90"), t.a, t.b, t.c, d, isa), Error);
}

}  // namespace test_numerics_fast
