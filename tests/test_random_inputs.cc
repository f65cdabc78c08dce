// The random inputs' bits (sim/numerics/random_inputs.h, philox_blocks.h):
// every instruction set's path gives the scalar path's words and inputs, an
// element's bits are the documented words of its matrix's stream, a case is
// the same whatever thread draws it, and each standard kind keeps its shape.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "core/base/worker_pool.h"
#include "sim/numerics/case_stream.h"
#include "sim/numerics/element_value.h"
#include "sim/numerics/float_format.h"
#include "sim/numerics/philox_blocks.h"
#include "sim/numerics/random_inputs.h"

namespace test_random_inputs {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

constexpr PhiloxPath kPaths[] = {PhiloxPath::scalar, PhiloxPath::avx2, PhiloxPath::avx512};

const char* path_name(PhiloxPath p) {
  return p == PhiloxPath::avx512 ? "avx512" : p == PhiloxPath::avx2 ? "avx2" : "scalar";
}

// A gemm's three operands: A m x k, B k x n, C m x n.
struct Shape3 {
  MatrixSpec a, b, c;
};

// Element types the instructions draw, one per storage width and kind of
// format (ieee, nan_only, no specials, integers, tf32's ignored bits, f64).
const std::vector<Shape3>& shapes() {
  static const std::vector<Shape3> s = {
      {{16, 16, DType::f16, 1}, {16, 8, DType::f16, 0}, {16, 8, DType::f32, -1}},
      {{16, 16, DType::bf16, 1}, {16, 8, DType::bf16, 0}, {16, 8, DType::f32, -1}},
      {{16, 8, DType::tf32, 1}, {8, 8, DType::tf32, 0}, {16, 8, DType::f32, -1}},
      {{16, 32, DType::e4m3, 1}, {32, 8, DType::e5m2, 0}, {16, 8, DType::f16, -1}},
      {{16, 32, DType::e2m1, 1}, {32, 8, DType::e3m2, 0}, {16, 8, DType::f32, -1}},
      {{16, 32, DType::s8, 1}, {32, 8, DType::u8, 0}, {16, 8, DType::s32, -1}},
      {{16, 64, DType::s4, 1}, {64, 8, DType::u4, 0}, {16, 8, DType::s32, -1}},
      {{8, 4, DType::f64, 1}, {4, 8, DType::f64, 0}, {8, 8, DType::f64, -1}},
      {{16, 256, DType::b1, 1}, {256, 8, DType::b1, 0}, {16, 8, DType::s32, -1}},
  };
  return s;
}

}  // namespace

TEST_CASE("every Philox path gives the scalar path's words", "[philox][inputs]") {
  int paths = 0;
  for (const PhiloxPath path : kPaths) {
    if (!philox_path_available(path)) {
      WARN("no " << path_name(path) << " on this processor: not compared");
      continue;
    }
    ++paths;
    for (const PhiloxStream s : {philox_stream(1, 0, 0), philox_stream(0xfedcba9876543210ull, 77, 2),
                                 philox_stream(5, (std::uint64_t{3} << 32) | 11, 3)})
      // Block counts over the vector groups (32 and 8 blocks for AVX-512,
      // 16 and 4 for AVX2) and their tails; first blocks wrapping at 2^32.
      for (const std::uint32_t first : {0u, 5u, 0xffffffffu - 20u})
        for (int blocks = 0; blocks <= 75; ++blocks) {
          INFO(path_name(path) << ", stream " << s.stream << ", first block " << first << ", " << blocks << " blocks");
          std::vector<std::uint32_t> got(4 * blocks + 1, 0xdeadbeef), want(4 * blocks);
          philox_blocks(s, first, blocks, got.data(), path);
          for (int b = 0; b < blocks; ++b) {
            const PhiloxBlock r =
                philox4x32_10({{first + static_cast<std::uint32_t>(b), s.stream, s.case_lo, s.case_hi}}, s.key);
            for (int w = 0; w < 4; ++w) want[4 * b + w] = r.w[w];
          }
          REQUIRE(std::equal(want.begin(), want.end(), got.begin()));
          REQUIRE(got.back() == 0xdeadbeef);  // nothing written past the blocks
        }
  }
  CHECK(paths >= 1);
  // The words of stream 0 are CaseStream's (and the device's, cuda/philox_kernel.h).
  CaseStream cs(9, 123);
  std::uint32_t w[64];
  philox_blocks(philox_stream(9, 123, 0), 0, 16, w);
  for (const std::uint32_t x : w) CHECK(cs.next32() == x);
}

TEST_CASE("every path draws the scalar path's inputs, for every kind and type", "[philox][inputs]") {
  for (const PhiloxPath path : kPaths) {
    if (path == PhiloxPath::scalar || !philox_path_available(path)) continue;
    for (const Shape3& s : shapes())
      for (const Distribution d : distributions(InputSet::all))
        for (int i = 0; i < 3; ++i) {
          INFO(path_name(path) << ", " << dtype_info(s.a.dtype).ptx << ", " << distribution_name(d) << ", case " << i);
          const GemmInputs x = random_gemm_inputs(s.a, s.b, s.c, d, 17, i, path);
          const GemmInputs y = random_gemm_inputs(s.a, s.b, s.c, d, 17, i, PhiloxPath::scalar);
          CHECK(x.a.bits == y.a.bits);
          CHECK(x.b.bits == y.b.bits);
          CHECK(x.c.bits == y.c.bits);
        }
  }
  // Long matrices cross the element loops' chunks of 256.
  const MatrixSpec a{64, 100, DType::f16, 1}, b{100, 64, DType::f16, 0}, c{64, 64, DType::f32, -1};
  for (const PhiloxPath path : kPaths) {
    if (!philox_path_available(path)) continue;
    for (const Distribution d : all_distributions()) {
      INFO(path_name(path) << ", " << distribution_name(d));
      const GemmInputs x = random_gemm_inputs(a, b, c, d, 3, 1, path);
      const GemmInputs y = random_gemm_inputs(a, b, c, d, 3, 1, PhiloxPath::scalar);
      CHECK(x.a.bits == y.a.bits);
      CHECK(x.c.bits == y.c.bits);
    }
  }
}

TEST_CASE("an element's bits are its matrix's stream words: A 0, B 1, C 2", "[philox][inputs]") {
  // `bits` takes the payload as it is: 16-bit elements the low half of word
  // e, 32-bit ones word 2e, 64-bit ones words 3e and 3e + 1.
  const auto word = [](std::uint64_t seed, int index, std::uint32_t stream, std::uint64_t j) {
    const PhiloxBlock r =
        philox4x32_10({{static_cast<std::uint32_t>(j / 4), stream, static_cast<std::uint32_t>(index), 0}},
                      {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}});
    return r.w[j % 4];
  };
  const Shape3& f16 = shapes()[0];
  const GemmInputs in = random_gemm_inputs(f16.a, f16.b, f16.c, Distribution::bits, 0x1234567890ull, 3);
  for (std::size_t e = 0; e < in.a.bits.size(); ++e) REQUIRE(in.a.bits[e] == (word(0x1234567890ull, 3, 0, e) & 0xffff));
  for (std::size_t e = 0; e < in.b.bits.size(); ++e) REQUIRE(in.b.bits[e] == (word(0x1234567890ull, 3, 1, e) & 0xffff));
  for (std::size_t e = 0; e < in.c.bits.size(); ++e) REQUIRE(in.c.bits[e] == word(0x1234567890ull, 3, 2, 2 * e));
  const Shape3& f64 = shapes()[7];
  const GemmInputs d = random_gemm_inputs(f64.a, f64.b, f64.c, Distribution::bits, 8, 5);
  for (std::size_t e = 0; e < d.a.bits.size(); ++e)
    REQUIRE(d.a.bits[e] == (word(8, 5, 0, 3 * e) | std::uint64_t{word(8, 5, 0, 3 * e + 1)} << 32));
}

TEST_CASE("a case is a pure function of (seed, index) on any number of threads", "[philox][inputs]") {
  const Shape3& s = shapes()[0];
  constexpr int kCases = 96;
  std::vector<GemmInputs> serial;
  for (int i = 0; i < kCases; ++i)
    serial.push_back(random_gemm_inputs(s.a, s.b, s.c, case_distribution(i, InputSet::all), 21, i));
  for (const int threads : {1, 2, 3, 8}) {
    WorkerPool pool(threads);
    std::vector<GemmInputs> got(kCases);
    // Backwards, so that no thread draws in the serial order.
    pool.for_each(kCases, [&](int, std::int64_t item) {
      const int i = kCases - 1 - static_cast<int>(item);
      got[i] = random_gemm_inputs(s.a, s.b, s.c, case_distribution(i, InputSet::all), 21, i);
    });
    for (int i = 0; i < kCases; ++i) {
      INFO(threads << " threads, case " << i);
      CHECK(got[i].a.bits == serial[i].a.bits);
      CHECK(got[i].b.bits == serial[i].b.bits);
      CHECK(got[i].c.bits == serial[i].c.bits);
    }
  }
  // The seed and the index both matter, in every operand.
  const GemmInputs other_seed = random_gemm_inputs(s.a, s.b, s.c, Distribution::normal, 22, 0);
  CHECK(other_seed.a.bits != serial[0].a.bits);
  CHECK(other_seed.b.bits != serial[0].b.bits);
  CHECK(other_seed.c.bits != serial[0].c.bits);
  CHECK(random_gemm_inputs(s.a, s.b, s.c, Distribution::normal, 21, 14).a.bits != serial[0].a.bits);
}

namespace {

// Unbiased exponents (floor(log2 |x|)) of the finite nonzero elements, and counts by class.
struct Census {
  std::map<int, int> exponent;
  int zero = 0, inf = 0, nan = 0, finite = 0, negative = 0, total = 0;
};

Census census(DType t, const std::vector<std::uint64_t>& bits) {
  Census c;
  for (const std::uint64_t w : bits) {
    const long double v = element_value(t, w);
    ++c.total;
    if (std::isnan(v)) ++c.nan;
    else if (std::isinf(v)) ++c.inf;
    else if (v == 0) ++c.zero;
    else {
      ++c.finite;
      ++c.exponent[std::ilogb(v)];
    }
    c.negative += (w >> (float_format(t).storage_bits() - 1)) & 1;
  }
  return c;
}

Census draw_census(const Shape3& s, Distribution d, char operand, int cases) {
  std::vector<std::uint64_t> all;
  for (int i = 0; i < cases; ++i) {
    const GemmInputs in = random_gemm_inputs(s.a, s.b, s.c, d, 99, i);
    const Matrix& m = operand == 'a' ? in.a : operand == 'b' ? in.b : in.c;
    all.insert(all.end(), m.bits.begin(), m.bits.end());
  }
  return census(operand == 'c' ? s.c.dtype : operand == 'b' ? s.b.dtype : s.a.dtype, all);
}

}  // namespace

TEST_CASE("the standard kinds keep their shapes", "[philox][inputs]") {
  for (const int shape : {0, 1, 2}) {  // f16, bf16, tf32 products; f32 accumulators
    const Shape3& s = shapes()[shape];
    INFO(dtype_info(s.a.dtype).ptx);
    for (const char operand : {'a', 'c'}) {
      INFO("operand " << operand);
      // normal: finite, exponents -2..2 about a fifth each, signs half.
      const Census n = draw_census(s, Distribution::normal, operand, 40);
      CHECK(n.finite == n.total);
      CHECK(n.exponent.begin()->first == -2);
      CHECK(n.exponent.rbegin()->first == 2);
      for (const auto& [e, count] : n.exponent) CHECK(std::abs(count - n.total / 5) < n.total / 25);
      CHECK(std::abs(n.negative - n.total / 2) < n.total / 20);
      // sparse: one in eight nonzero.
      const Census z = draw_census(s, Distribution::sparse, operand, 40);
      CHECK(std::abs(z.finite - z.total / 8) < z.total / 40);
      CHECK(z.finite + z.zero == z.total);
      // specials: a quarter outside the moderate range, Inf and NaN among them (f16 has Inf).
      const Census sp = draw_census(s, Distribution::specials, operand, 40);
      int moderate = 0;
      for (const auto& [e, count] : sp.exponent) moderate += e >= -2 && e <= 2 ? count : 0;
      CHECK(std::abs((sp.total - moderate) - sp.total / 4) < sp.total / 25);
      CHECK(sp.nan > sp.total / 20);
      CHECK(sp.inf > sp.total / 60);
      CHECK(sp.zero > sp.total / 60);
      // spread: exponents -12..12 (16-bit types), -24..24 (32-bit), every one reached.
      const Census w = draw_census(s, Distribution::spread, operand, 40);
      const int range = float_format(operand == 'c' ? s.c.dtype : s.a.dtype).storage_bits() <= 16 ? 12 : 24;
      CHECK(w.finite == w.total);
      CHECK(w.exponent.begin()->first == -range);
      CHECK(w.exponent.rbegin()->first == range);
      CHECK(static_cast<int>(w.exponent.size()) == 2 * range + 1);
      // wide: finite, subnormals and the largest binades among them.
      const Census wd = draw_census(s, Distribution::wide, operand, 40);
      const FloatFormat& f = float_format(operand == 'c' ? s.c.dtype : s.a.dtype);
      CHECK(wd.finite + wd.zero == wd.total);
      CHECK(wd.exponent.begin()->first < f.min_exp());
      CHECK(wd.exponent.rbegin()->first == f.max_exp());
      // bits: every class, and about half of all bits set.
      const Census b = draw_census(s, Distribution::bits, operand, 40);
      CHECK(b.nan > 0);
      CHECK(b.finite > b.total / 2);
    }
    // nearsum: C at 2^8..2^12, products' factors at 2^-6..2^-2.
    const Census c = draw_census(s, Distribution::nearsum, 'c', 20), a = draw_census(s, Distribution::nearsum, 'a', 20);
    CHECK(c.exponent.begin()->first == 8);
    CHECK(c.exponent.rbegin()->first == 12);
    CHECK(a.exponent.begin()->first == -6);
    CHECK(a.exponent.rbegin()->first == -2);
  }
  // Integers: small values with both ends, one in eight nonzero for sparse,
  // extremes for specials.
  const Shape3& s8 = shapes()[5];
  std::map<std::int64_t, int> small, sparse;
  int extremes = 0, total = 0;
  for (int i = 0; i < 20; ++i) {
    for (const std::uint64_t x : random_gemm_inputs(s8.a, s8.b, s8.c, Distribution::normal, 4, i).a.bits)
      ++small[int_value(DType::s8, x)];
    for (const std::uint64_t x : random_gemm_inputs(s8.a, s8.b, s8.c, Distribution::sparse, 4, i).a.bits)
      ++sparse[int_value(DType::s8, x) != 0];
    for (const std::uint64_t x : random_gemm_inputs(s8.a, s8.b, s8.c, Distribution::specials, 4, i).a.bits) {
      const std::int64_t v = int_value(DType::s8, x);
      extremes += v == -128 || v == 127;
      ++total;
    }
  }
  CHECK(small.size() == 17);
  CHECK(small.begin()->first == -8);
  CHECK(small.rbegin()->first == 8);
  CHECK(std::abs(sparse[1] * 8 - (sparse[0] + sparse[1])) < (sparse[0] + sparse[1]) / 5);
  CHECK(std::abs(extremes * 10 - total) < total / 4);  // two of the five extremes of a quarter
}

TEST_CASE("edge elements keep the exponent they are drawn at, below the normal range too", "[philox][inputs]") {
  // underflow with f16 output: the products' centre is 2^-24 less -1..12
  // binades, A near half of it (-18..-11) and B the other half (-18..-12),
  // each +-2: f16 subnormals below 2^-14, whose leading bit must still sit
  // at the exponent drawn (the significand shifted, not a random fraction).
  const MatrixSpec a{16, 16, DType::f16, 1}, b{16, 8, DType::f16, 0}, c{16, 8, DType::f16, -1};
  int subnormal = 0, nonzero = 0;
  for (int i = 0; i < 64; ++i) {
    const GemmInputs in = random_gemm_inputs(a, b, c, Distribution::underflow, 12, i);
    for (const auto& [bits, lo, hi] : {std::tuple{&in.a.bits, -20, -9}, std::tuple{&in.b.bits, -20, -10}})
      for (const std::uint64_t x : *bits) {
        const long double v = element_value(DType::f16, x);
        if (v == 0) continue;
        ++nonzero;
        subnormal += std::fabs(v) < 0x1p-14L;
        INFO("element 0x" << std::hex << x);
        REQUIRE(std::ilogb(v) >= lo);
        REQUIRE(std::ilogb(v) <= hi);
      }
  }
  CHECK(subnormal > nonzero / 10);
}

}  // namespace test_random_inputs
