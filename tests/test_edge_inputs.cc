// The edge input kinds (sim/numerics/edge_inputs.h) reach the corners they
// are named for, on the models themselves: sums rounding to zero, overflow,
// tiny sums near the zero-term exponent, tf32 low bits; input sets by name.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "sim/numerics/element_value.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/random_inputs.h"

namespace test_edge_inputs {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

struct Drawn {
  std::vector<GemmInputs> in;
  std::vector<std::vector<std::uint64_t>> d;
};

Drawn draw(const char* ptx, Distribution kind, int cases) {
  const MmaInst& i = *find_mma_inst(ptx);
  Drawn out;
  for (int n = 0; n < cases; ++n) {
    GemmInputs in = random_gemm_inputs({i.m, i.k, i.a, 1}, {i.k, i.n, i.b, 0}, {i.m, i.n, i.c, -1}, kind, 5, n);
    std::vector<std::uint64_t> d(i.m * i.n);
    mma_tile(i, arch_params("sm_90"), in.a.bits, in.b.bits, in.c.bits, d);
    out.in.push_back(std::move(in));
    out.d.push_back(std::move(d));
  }
  return out;
}

int count_d(const Drawn& x, DType t, bool (*pred)(long double)) {
  int n = 0;
  for (const auto& d : x.d)
    for (std::uint64_t w : d) n += pred(element_value(t, w));
  return n;
}

const char* kBF16 = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
const char* kF16F16 = "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16";
const char* kTF32 = "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32";

}  // namespace

TEST_CASE("edge kinds reach their corners", "[numerics][inputs]") {
  // underflow: many outputs are +0 although some product is nonzero.
  const Drawn u = draw(kBF16, Distribution::underflow, 16);
  CHECK(count_d(u, DType::f32, [](long double v) { return v == 0; }) > 200);
  CHECK(count_d(u, DType::f32, [](long double v) { return v != 0 && std::fabs(v) < 0x1p-140L; }) > 50);
  // overflow: Inf outputs, both signs.
  const Drawn o = draw(kF16F16, Distribution::overflow, 16);
  CHECK(count_d(o, DType::f16, [](long double v) { return v == INFINITY; }) > 20);
  CHECK(count_d(o, DType::f16, [](long double v) { return v == -INFINITY; }) > 20);
  // zeroterm: tiny nonzero sums near 2^-133 (bf16 to f32) and 2^-21 (f16).
  const Drawn z = draw(kBF16, Distribution::zeroterm, 16);
  CHECK(count_d(z, DType::f32, [](long double v) { return v != 0 && std::fabs(v) < 0x1p-120L; }) > 100);
  const Drawn z16 = draw(kF16F16, Distribution::zeroterm, 16);
  CHECK(count_d(z16, DType::f16, [](long double v) { return v != 0 && std::fabs(v) < 0x1p-18L; }) > 100);
  // lowbits: tf32 words with an all-ones exponent or a zero one and random low bits.
  const Drawn l = draw(kTF32, Distribution::lowbits, 8);
  int inf_low = 0, zero_low = 0;
  for (const GemmInputs& in : l.in)
    for (std::uint64_t w : in.a.bits) {
      inf_low += ((w >> 23) & 0xFF) == 0xFF && (w & 0x1FFF) && !(w & 0x7FE000);
      zero_low += (w & 0x7FFFE000) == 0 && (w & 0x1FFF);
    }
  CHECK(inf_low > 10);
  CHECK(zero_low > 10);
  // threshold: in every row of A one element is 18..30 binades above some other.
  const Drawn t = draw(kBF16, Distribution::threshold, 4);
  for (const GemmInputs& in : t.in) {
    int rows = 0;
    for (int i = 0; i < 16; ++i) {
      long double hi = 0, lo = INFINITY;
      for (int k = 0; k < 16; ++k)
        if (const long double v = std::fabs(element_value(DType::bf16, in.a.at(i, k))); v != 0) {
          hi = std::max(hi, v);
          lo = std::min(lo, v);
        }
      rows += hi / lo >= 0x1p17L;
    }
    CHECK(rows >= 14);
  }
}

TEST_CASE("input sets take turns over their kinds and are named", "[numerics][inputs]") {
  CHECK(case_distribution(0, InputSet::edge) == Distribution::threshold);
  CHECK(case_distribution(6, InputSet::edge) == Distribution::threshold);
  CHECK(case_distribution(8, InputSet::all) == Distribution::threshold);
  CHECK(case_distribution(2) == Distribution::cancel);
  CHECK(distributions(InputSet::all).size() == all_distributions().size() + edge_distributions().size());
  for (const Distribution d : edge_distributions()) CHECK(!distribution_name(d).empty());
  CHECK(input_set("edge") == InputSet::edge);
  CHECK(input_set_name(InputSet::all) == "all");
  CHECK_THROWS_AS(input_set("uniform"), Error);
  // Integer instructions get values too (small or extremes), deterministically.
  const MmaInst& s8 = *find_mma_inst("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
  const auto x =
      random_gemm_inputs({16, 32, s8.a, 1}, {32, 8, s8.b, 0}, {16, 8, s8.c, -1}, Distribution::overflow, 3, 1);
  const auto y =
      random_gemm_inputs({16, 32, s8.a, 1}, {32, 8, s8.b, 0}, {16, 8, s8.c, -1}, Distribution::overflow, 3, 1);
  CHECK(x.a.bits == y.a.bits);
  CHECK(x.c.bits == y.c.bits);
}

}  // namespace test_edge_inputs
