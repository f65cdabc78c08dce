// The Eigen reference and the derived error bounds: the bit-exact models
// always lie within them, a result moved just outside is rejected, integers
// are exact modulo 2^32, NaN and Inf go by class.
#include <catch2/catch.hpp>
#include <cmath>
#include <variant>

#include "core/base/error.h"

#include "core/gemm/dispatch.h"
#include "sim/check/direct_eval.h"
#include "sim/numerics/element_value.h"
#include "sim/check/error_bound.h"
#include "sim/numerics/float_format.h"
#include "sim/check/reference.h"
#include "sim/check/sim_check.h"
#include "tests/support.h"
#include "tests/test_sim_support.h"

namespace mmacheck::test_sim_reference {
namespace {

const MmaInst& inst(const char* ptx) { return *find_mma_inst(ptx); }
const char* const kF16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
const char* const kF16Acc = "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16";

// The element of type `type` nearest to x.
std::uint64_t encode(DType type, long double x) {
  const sim::FloatFormat& f = sim::float_format(type);
  int e = 0;
  const long double m = std::frexp(std::fabs(x), &e);  // |x| = m 2^e, m in [0.5, 1)
  const auto mag = static_cast<std::uint64_t>(std::ldexp(m, 63));
  return sim::round_to_format(f, x < 0, mag, e - 63, sim::Rounding::nearest_even) << f.ignored_low_bits;
}

struct Case {
  sim::GemmInputs in;
  sim::Matrix model;
  sim::Reference ref;
};

Case frame_case(const MmaInst& i, const sim::ArchParams& arch, sim::GemmInputs in) {
  const GemmGeometry g = test::frame_geometry(i);
  sim::Matrix model = sim::direct_eval(g, i, arch, in);
  sim::Reference ref = sim::eigen_reference(g, i, arch, in);
  return {std::move(in), std::move(model), std::move(ref)};
}

}  // namespace

TEST_CASE("the reference accepts the bit-exact model on every instruction and distribution", "[sim]") {
  for (const MmaInst& i : mma_instructions())
    for (const sim::ArchParams& arch : sim::all_arch_params()) {
      if (!sim::has_model(i, arch)) continue;
      INFO(i.ptx() << " on " << arch.name);
      std::int64_t accepted = 0;
      const int cases = test::samples(96, 16);  // every distribution, 12 (sanitized: 2) times
      for (int c = 0; c < cases; ++c) {
        const Case k = frame_case(i, arch, test::frame_inputs(i, c, 21));
        INFO("case " << c << " (" << sim::distribution_name(sim::case_distribution(c)) << ")");
        // The message is built for a rejected element only: an INFO per
        // element cost this test most of its minute under the sanitizers.
        for (std::int64_t x = 0; x < i.m * i.n; ++x) {
          if (sim::accepts(k.ref.elems[x], i.d, k.model.bits[x])) ++accepted;
          else FAIL_CHECK("D element " << x << ": " << sim::element_text(i.d, k.model.bits[x]) << " is rejected");
        }
      }
      CHECK(accepted == cases * i.m * i.n);
    }
}

TEST_CASE("chained blocks and K tiles stay within the bound (sm_80 blocks of 8)", "[sim]") {
  const Program p = test::program(test::kTiledText);
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  for (const char* arch : {"sm_90", "sm_80"}) {
    sim::SimCheck check(p, plan.nest, sim::arch_params(arch));
    for (int c = 0; c < 32; ++c) {
      INFO(arch << " case " << c);
      CHECK(check.failures(check.random_case(c, 8)).empty());
    }
  }
}

TEST_CASE("a result just outside the bound is rejected", "[sim]") {
  for (const char* ptx :
       {kF16, kF16Acc, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
        "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"}) {
    const MmaInst& i = inst(ptx);
    INFO(ptx);
    const Case k = frame_case(i, sim::arch_params("sm_90"), test::frame_inputs(i, 0));  // normal
    for (const sim::Expectation& e : k.ref.elems) {
      REQUIRE(e.classes == sim::kFinite);
      CHECK_FALSE(sim::accepts(e, i.d, encode(i.d, e.value + 2 * e.bound)));
      CHECK_FALSE(sim::accepts(e, i.d, encode(i.d, e.value - 2 * e.bound)));
    }
  }
}

TEST_CASE("the f32-output bound is a few units in the 20th bit of the terms", "[sim]") {
  const MmaInst& i = inst(kF16);
  const sim::GemmInputs in = test::frame_inputs(i, 0);  // normal: no subnormals, no specials
  const Case k = frame_case(i, sim::arch_params("sm_90"), in);
  for (int r = 0; r < i.m; ++r)
    for (int c = 0; c < i.n; ++c) {
      long double terms = std::fabs(sim::element_value(i.c, in.c.at(r, c)));
      for (int kk = 0; kk < i.k; ++kk)
        terms += std::fabs(sim::element_value(i.a, in.a.at(r, kk)) * sim::element_value(i.b, in.b.at(kk, c)));
      // 17 truncations below 2^(E-25) plus one toward-zero rounding: under 2^-19 of the terms.
      CHECK(k.ref.at(r, c).bound < std::ldexp(terms, -19));
    }
}

TEST_CASE("one fused block's bound, by hand", "[sim]") {
  // Products 1 and 2^-24: E = 0, 17 terms truncated below 2^-25, the sum
  // 1 + 2^-24 rounded toward zero with ulp 2^-23 (f32) or to nearest with
  // half an ulp of 2^-10 (f16).
  std::vector<long double> a(16, 0), b(16, 0);
  a[0] = b[0] = 1;
  a[1] = b[1] = std::ldexp(1.0L, -12);
  const sim::ArchParams& sm90 = sim::arch_params("sm_90");
  const auto outcomes = [&](const char* ptx) {
    const sim::BoundModel m = sim::bound_model(inst(ptx), sm90);
    std::vector<int> e(16);
    for (int k = 0; k < 16; ++k) e[k] = sim::align_exp(m, a[k]);
    return sim::element_outcomes(m, {a, b, e, e, 0});
  };
  const sim::Outcomes f32 = outcomes(kF16);
  CHECK(f32.classes == sim::kFinite);
  CHECK(f32.exact == 1 + std::ldexp(1.0L, -24));
  CHECK(static_cast<double>(f32.error) == Approx(17 * std::ldexp(1.0, -25) + std::ldexp(1.0, -23)).epsilon(1e-9));
  const sim::Outcomes f16 = outcomes(kF16Acc);
  CHECK(static_cast<double>(f16.error) == Approx(17 * std::ldexp(1.0, -25) + std::ldexp(1.0, -11)).epsilon(1e-9));
}

TEST_CASE("integer results are exact modulo 2^32", "[sim]") {
  const MmaInst& i = inst("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
  sim::GemmInputs in = test::frame_inputs(i, 0);
  std::fill(in.a.bits.begin(), in.a.bits.end(), 127);
  std::fill(in.b.bits.begin(), in.b.bits.end(), 127);
  std::fill(in.c.bits.begin(), in.c.bits.end(), 0x7fffff00);  // + 32 * 127^2 wraps
  const Case k = frame_case(i, sim::arch_params("sm_90"), in);
  CHECK(k.model.bits[0] == ((0x7fffff00u + 32u * 127 * 127) & 0xffffffffu));
  CHECK(k.ref.elems[0].value == 0x7fffff00 + 32.0L * 127 * 127);
  CHECK(sim::accepts(k.ref.elems[0], i.d, k.model.bits[0]));
  CHECK_FALSE(sim::accepts(k.ref.elems[0], i.d, k.model.bits[0] + 1));
}

TEST_CASE("NaN and Inf inputs are compared by class", "[sim]") {
  const MmaInst& i = inst(kF16);
  sim::GemmInputs in = test::frame_inputs(i, 0);
  in.a.bits[0 * 16 + 0] = 0x7c00;  // A[0][0] = +Inf
  in.b.bits[0 * 8 + 0] = 0;        // B[0][0] = 0: D[0][0] = Inf * 0 = NaN
  in.b.bits[0 * 8 + 1] = 0x3c00;   // B[0][1] = 1: D[0][1] = +Inf
  in.b.bits[0 * 8 + 2] = 0xbc00;   // B[0][2] = -1: D[0][2] = -Inf
  in.a.bits[1 * 16 + 3] = 0x7e01;  // A[1][3] = NaN: row 1 NaN
  const Case k = frame_case(i, sim::arch_params("sm_90"), in);
  const auto d = [&](int r, int c) { return k.model.bits[r * 8 + c]; };
  const auto e = [&](int r, int c) { return k.ref.at(r, c); };
  CHECK(e(0, 0).classes == sim::kNaN);
  CHECK(e(0, 1).classes == sim::kPosInf);
  CHECK(e(0, 2).classes == sim::kNegInf);
  CHECK(e(1, 5).classes == sim::kNaN);
  for (const auto& [r, c] : {std::pair{0, 0}, {0, 1}, {0, 2}, {1, 5}}) CHECK(sim::accepts(e(r, c), i.d, d(r, c)));
  CHECK_FALSE(sim::accepts(e(0, 1), i.d, 0xff800000));  // -Inf where +Inf
  CHECK_FALSE(sim::accepts(e(0, 1), i.d, 0x7f7fffff));  // finite where +Inf
  CHECK_FALSE(sim::accepts(e(0, 0), i.d, 0x7f800000));  // Inf where NaN
  CHECK_FALSE(sim::accepts(e(1, 5), i.d, 0x3f800000));  // finite where NaN
}

TEST_CASE("an accumulation that may overflow admits Inf", "[sim]") {
  const MmaInst& i = inst(kF16Acc);
  sim::GemmInputs in = test::frame_inputs(i, 0);
  std::fill(in.a.bits.begin(), in.a.bits.end(), 0x5bf8);  // 255
  std::fill(in.b.bits.begin(), in.b.bits.end(), 0x5bf8);
  std::fill(in.c.bits.begin(), in.c.bits.end(), 0);
  const Case k = frame_case(i, sim::arch_params("sm_90"), in);  // 16 * 255^2 > 65504
  CHECK(k.model.bits[0] == 0x7c00);
  CHECK(k.ref.elems[0].classes & sim::kPosInf);
  CHECK(sim::accepts(k.ref.elems[0], i.d, k.model.bits[0]));
  CHECK_FALSE(sim::accepts(k.ref.elems[0], i.d, 0x7bff));  // 65504 is far from 1040400
}

TEST_CASE("the bound in double is the long double bound, a hair wider", "[sim]") {
  // Random runs of two K tiles for every family computed in double; the
  // slack term is the only difference (2^-51 instead of 2^-62 of the
  // magnitudes), so the double bound is never narrower and at most a
  // relative 1e-4 wider.
  for (const char* ptx :
       {kF16, kF16Acc, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"})
    for (const char* arch : {"sm_90", "sm_80", "sm_89"}) {
      const MmaInst& i = inst(ptx);
      if (!sim::has_model(i, sim::arch_params(arch))) continue;
      INFO(ptx << " on " << arch);
      const sim::BoundModel m = sim::bound_model(i, sim::arch_params(arch));
      for (int c = 0; c < 40; ++c) {
        const sim::GemmInputs in = test::frame_inputs(i, c, 5);
        const std::size_t k = static_cast<std::size_t>(i.k);
        std::vector<long double> a(2 * k), b(2 * k);
        std::vector<int> ae(2 * k), be(2 * k);
        for (std::size_t x = 0; x < 2 * k; ++x) {  // row 0 of A and column 0 of B, twice
          a[x] = sim::element_value(i.a, in.a.at(0, static_cast<std::int64_t>(x % k)));
          b[x] = sim::element_value(i.b, in.b.at(static_cast<std::int64_t>(x % k), 0)) * (x < k ? 1 : -0.5L);
          ae[x] = sim::align_exp(m, a[x]);
          be[x] = sim::align_exp(m, b[x]);
        }
        const long double cv = sim::element_value(i.c, in.c.at(0, 0));
        const std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
        const sim::Outcomes ld = sim::element_outcomes(m, sim::ElementInputs{a, b, ae, be, cv});
        const sim::Outcomes d =
            sim::element_outcomes(m, sim::ElementRun<double>{ad, bd, ae, be, static_cast<double>(cv)});
        INFO("case " << c);
        CHECK(d.classes == ld.classes);
        if (!(ld.classes & sim::kFinite)) continue;
        CHECK(d.exact == Approx(static_cast<double>(ld.exact)).epsilon(1e-12).margin(1e-300));
        CHECK(static_cast<double>(d.error) >= static_cast<double>(ld.error) * (1 - 1e-12));
        CHECK(static_cast<double>(d.error) <= static_cast<double>(ld.error) * (1 + 1e-4));
      }
    }
  const sim::BoundModel f64 =
      sim::bound_model(inst("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"), sim::arch_params("sm_90"));
  const std::vector<double> four(4, 1.0);
  const std::vector<int> zero(4, 0);
  CHECK_THROWS_AS(sim::element_outcomes(f64, sim::ElementRun<double>{four, four, zero, zero, 0.0}), Error);
}

TEST_CASE("at 64^3 the reference still rejects a nest missing one mma", "[sim]") {
  // 4 x 8 x 4 tiles of m16n8k16; the planted bug drops the last mma, so
  // D's last tile lacks its last K tile: every element there is wrong in
  // its bits and, on normal inputs, far outside the bound.
  const std::string text = R"(
D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]
A_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([16, 16], [16, 8])
B_FRAG = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8])
A = buffer((64, 64), float16, local, A_FRAG.tile_to([64, 64], [16, 16]))
B = buffer((64, 64), float16, local, B_FRAG.tile_to([64, 64], [16, 8]))
D = buffer((64, 64), float32, local, D_FRAG.tile_to([64, 64], [16, 8]))
scope warp
gemm(D, A, B, D)
)";
  const Program p = test::program(text);
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  REQUIRE(plan.nest.mma_count() == 128);
  sim::SimCheck right(p, plan.nest, sim::arch_params("sm_90"));
  CHECK(right.failures(right.random_case(0, 3)).empty());
  Nest wrong = plan.nest;
  for (auto it = wrong.stmts.rbegin(); it != wrong.stmts.rend(); ++it)
    if (std::holds_alternative<MmaStmt>(*it)) {
      wrong.stmts.erase(std::next(it).base());
      break;
    }
  sim::SimCheck check(p, wrong, sim::arch_params("sm_90"));
  const std::vector<sim::ElementCheck> found = check.failures(check.random_case(0, 3));  // normal
  CHECK(found.size() == 16 * 8);
  int outside = 0;
  for (const sim::ElementCheck& f : found) {
    CHECK_FALSE(f.bit_exact);
    outside += !f.within_bound;
  }
  CHECK(outside >= 16 * 8 - 2);  // a K tile's 16 products rarely cancel within the bound
}

}  // namespace mmacheck::test_sim_reference
