// The arithmetic models at their corners, with expected bits derived by hand
// (docs/numerics.md gives the model each expectation follows from).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "sim/numerics/f64_fma.h"
#include "sim/numerics/float_format.h"
#include "sim/numerics/mma_model.h"
#include "tests/test_numerics_support.h"

namespace test_numerics {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

using test::d00;

const std::string kF16F32 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
const std::string kF16F16 = "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16";
const std::string kBF16 = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
const std::string kTF32 = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
const std::string kS8 = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32";
const std::string kU8 = "mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32";
const std::string kE4M3 = "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32";
const std::string kE5M2 = "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32";
const std::string kF64 = "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64";

constexpr std::uint64_t kOne16 = 0x3C00, kTwo16 = 0x4000, kInf16 = 0x7C00;
constexpr std::uint64_t kOne32 = 0x3F800000;

}  // namespace

TEST_CASE("float formats decode and round", "[numerics]") {
  const FloatFormat& h = float_format(DType::f16);
  const FpValue one = decode(h, 0x3C01);
  CHECK(one.sig == 0x401);
  CHECK(one.exp == 0);
  const FpValue sub = decode(h, 0x8001);  // -2^-24: exponent clamped to -14
  CHECK(sub.neg);
  CHECK(sub.sig == 1);
  CHECK(sub.exp == -14);
  CHECK(decode(h, 0x7C00).cls == FpClass::inf);
  CHECK(decode(h, 0x7C01).cls == FpClass::nan);
  const FloatFormat& e4m3 = float_format(DType::e4m3);
  CHECK(decode(e4m3, 0x7E).cls == FpClass::finite);  // 448
  CHECK(decode(e4m3, 0x7F).cls == FpClass::nan);
  CHECK(decode(float_format(DType::tf32), 0x3F801FFF).sig == 0x400);  // low 13 bits ignored

  CHECK(round_to_format(h, false, 0x801, -11, Rounding::nearest_even) == 0x3C00);  // tie to even
  CHECK(round_to_format(h, false, 0x803, -11, Rounding::nearest_even) == 0x3C02);
  CHECK(round_to_format(h, false, 0x803, -11, Rounding::toward_zero) == 0x3C01);
  CHECK(round_to_format(h, true, 1, -25, Rounding::nearest_even) == 0x8000);  // half the least subnormal
  CHECK(round_to_format(h, true, 3, -25, Rounding::nearest_even) == 0x8002);
  CHECK(round_to_format(h, false, 65520, 0, Rounding::nearest_even) == kInf16);
  CHECK(round_to_format(h, false, 65519, 0, Rounding::nearest_even) == 0x7BFF);
  CHECK(round_to_format(float_format(DType::f32), false, 1, 128, Rounding::toward_zero) == 0x7F800000);
  CHECK_THROWS_AS(float_format(DType::s8), Error);
}

TEST_CASE("fused f16 model: NaN, Inf * 0 and Inf - Inf give the canonical NaN", "[numerics]") {
  CHECK(d00(kF16F32, {0x7E01}, {kOne16}, 0) == 0x7FFFFFFF);                  // NaN payload dropped
  CHECK(d00(kF16F32, {kInf16}, {0x0000}, 0) == 0x7FFFFFFF);                  // Inf * 0
  CHECK(d00(kF16F32, {kInf16, 0xFC00}, {kOne16, kOne16}, 0) == 0x7FFFFFFF);  // +Inf + -Inf
  CHECK(d00(kF16F32, {kInf16}, {kOne16}, 0xFF800000) == 0x7FFFFFFF);         // product +Inf, C -Inf
  CHECK(d00(kF16F32, {1}, {1}, 0x7FC00001) == 0x7FFFFFFF);                   // NaN in C
  CHECK(d00(kF16F16, {kInf16}, {0}, 0) == 0x7FFF);
}

TEST_CASE("fused f16 model: otherwise any Inf gives a signed Inf", "[numerics]") {
  CHECK(d00(kF16F32, {kInf16, 0x7BFF}, {0xBC00, 0x7BFF}, 0x7F7FFFFF) == 0xFF800000);
  CHECK(d00(kF16F32, {kOne16}, {kOne16}, 0x7F800000) == 0x7F800000);
  CHECK(d00(kF16F16, {0xFC00}, {kTwo16}, 0) == 0xFC00);
}

TEST_CASE("fused model: an exact zero sum is +0, whatever the signs", "[numerics]") {
  CHECK(d00(kF16F32, {0x8000}, {kOne16}, 0x80000000) == 0);  // -0 + -0
  CHECK(d00(kF16F32, {kOne16}, {kOne16}, 0xBF800000) == 0);  // 1 - 1
  CHECK(d00(kF16F16, {kOne16}, {0xBC00}, kOne16) == 0);
  CHECK(d00(kBF16, {0x8000}, {0x3F80}, 0x80000000) == 0);
}

TEST_CASE("fused model: f32 output rounds toward zero, f16 output to nearest even", "[numerics]") {
  // 1 + 1.5 * 2^-24: below half an f32 ulp of 1 either way; RZ keeps 1.
  CHECK(d00(kF16F32, {0x0E00}, {0x0C00}, kOne32) == kOne32);
  // -(1 + 1.5 * 2^-24) toward zero: -1.
  CHECK(d00(kF16F32, {0x8E00}, {0x0C00}, 0xBF800000) == 0xBF800000);
  // 1 + 0.75 ulp (f16): nearest is 1 + 1 ulp.
  CHECK(d00(kF16F16, {0x2A00}, {0x2400}, kOne16) == 0x3C01);
  // 1 + 0.5 ulp: the tie goes to the even 1; 1 + 1.5 ulp goes to 1 + 2 ulp.
  CHECK(d00(kF16F16, {0x2800}, {0x2400}, kOne16) == 0x3C00);
  CHECK(d00(kF16F16, {0x2800}, {0x2400}, 0x3C01) == 0x3C02);
}

TEST_CASE("fused model: terms are truncated below 2^(E - 25) before the sum", "[numerics]") {
  // 1 - 2^-30: an exact sum would round toward zero to 0x3F7FFFFF, but the
  // product lies below 2^-25 and is cut to 0 first.
  CHECK(d00(kF16F32, {0x8200}, {0x0200}, kOne32) == kOne32);
  // 1 - 2^-24 survives alignment: 0x3F7FFFFF.
  CHECK(d00(kF16F32, {0x8C00}, {0x0C00}, kOne32) == 0x3F7FFFFF);
}

TEST_CASE("fused model: overflow gives Inf, also under round toward zero", "[numerics]") {
  CHECK(d00(kBF16, {0x7F7F}, {0x4000}, 0) == 0x7F800000);  // 2 * bf16 max
  CHECK(d00(kBF16, {0xFF7F}, {0x4000}, 0) == 0xFF800000);
  CHECK(d00(kF16F16, {0x7BFF}, {kTwo16}, 0) == kInf16);
  CHECK(d00(kF16F16, {0x4C00}, {kOne16}, 0x7BFF) == kInf16);  // 65504 + 16: tie to even is Inf
  CHECK(d00(kF16F16, {0x4BFF}, {kOne16}, 0x7BFF) == 0x7BFF);  // 65504 + 15.99
}

TEST_CASE("fused model: subnormals in and out are kept", "[numerics]") {
  CHECK(d00(kF16F32, {0x0001}, {0x0001}, 0) == 0x27800000);  // 2^-24 * 2^-24 = 2^-48
  CHECK(d00(kBF16, {0x1C80}, {0x1C80}, 0) == 0x00000200);    // 2^-70 * 2^-70 = 2^-140
  CHECK(d00(kF16F32, {}, {}, 0x00000001) == 0x00000001);     // subnormal C, no products
  CHECK(d00(kF16F32, {}, {}, 0x80000003) == 0x80000003);
  CHECK(d00(kF16F16, {0x0001}, {0x3800}, 0) == 0x0000);  // 2^-25: tie to even 0
  CHECK(d00(kF16F16, {0x0003}, {0x3800}, 0) == 0x0002);  // 1.5 * 2^-24 -> 2 * 2^-24
}

TEST_CASE("fused model: a zero term aligns as exponent -133 (H200 probe)", "[numerics]") {
  // 2^-148 - 2^-159 with C = +0: E = max(-133, -148), so -2^-159 is below
  // 2^(E - 25) = 2^-158 and is dropped: 2^-148 = 0x00000002.  With zero
  // terms ignored E would be -148 and the result 0x00000001.
  CHECK(d00(kBF16, {0x1A80, 0x9A80}, {0x1A80, 0x1500}, 0) == 0x00000002);
  // 2^-148 - 2^-158 is kept: toward zero, 0x00000001.
  CHECK(d00(kBF16, {0x1A80, 0x9A80}, {0x1A80, 0x1580}, 0) == 0x00000001);
  // tf32 alike: 2^-74 = 0x1A800000, 2^-85 = 0x15000000.
  CHECK(d00(kTF32, {0x1A800000, 0x9A800000}, {0x1A800000, 0x15000000}, 0) == 0x00000002);
}

TEST_CASE("tf32 inputs ignore the low 13 bits", "[numerics]") {
  CHECK(d00(kTF32, {0x3F801FFF}, {0x3F800000}, 0) == kOne32);
  CHECK(d00(kTF32, {0x3F802000}, {0x3F800000}, 0) == 0x3F802000);
  CHECK(d00(kTF32, {}, {}, 0x3F801FFF) == 0x3F801FFF);  // C is a full f32
}

TEST_CASE("sm_80 chains blocks of 8 products, rounding between them", "[numerics]") {
  // Two products of 1.5 * 2^-24 on C = 1, at k = 0 and k = 8.  sm_90, one
  // block: 1 + 3 * 2^-24 cut to 1 + 2^-23.  sm_80: each block sees only one
  // product, truncated to 2^-24 (24 kept bits), and rounds back to 1.
  std::vector<std::uint64_t> a(9, 0), b(9, 0);
  a[0] = a[8] = 0x0E00;
  b[0] = b[8] = 0x0C00;
  CHECK(d00(kF16F32, a, b, kOne32, "sm_90") == 0x3F800001);
  CHECK(d00(kF16F32, a, b, kOne32, "sm_80") == kOne32);
}

TEST_CASE("integer mma wraps to 32 bits", "[numerics]") {
  CHECK(d00(kS8, {1}, {1}, 0x7FFFFFFF) == 0x80000000);
  CHECK(d00(kS8, {0x80, 0x80}, {0x80, 0x7F}, 0) == 16384 - 16256);  // -128*-128 + -128*127
  CHECK(d00(kU8, {0xFF}, {0xFF}, 0xFFFFFFFF) == 65024);             // 65025 - 1
}

TEST_CASE("fp8 goes through f16 blocks and an f32 add with nearest-even", "[numerics]") {
  CHECK(d00(kE4M3, {0x38}, {0x38}, 0) == kOne32);               // 1 * 1
  CHECK(d00(kE4M3, {0x7E}, {0x38}, 0) == 0x43E00000);           // 448
  CHECK(d00(kE4M3, {0x7F}, {0x38}, 0) == 0x7FFFFFFF);           // e4m3 NaN
  CHECK(d00(kE5M2, {0x7C}, {0x00}, 0) == 0x7FFFFFFF);           // Inf * 0
  CHECK(d00(kE5M2, {0x7C}, {0x3C}, 0) == 0x7F800000);           // Inf * 1
  CHECK(d00(kE4M3, {0x38}, {0x38}, 0x7FC00001) == 0x7FFFFFFF);  // NaN C, canonical after FADD
  CHECK(d00(kE4M3, {0x80}, {0x38}, 0x80000000) == 0);           // +0 (HMMA) + -0 = +0
  CHECK(d00(kE4M3, {0x38}, {0x38}, 0x33C00000) == 0x3F800001);  // 1 + 1.5 * 2^-24 to nearest
  CHECK_THROWS_AS(d00(kE4M3, {0x38}, {0x38}, 0, "sm_80"), Error);
}

TEST_CASE("f64 fma: IEEE results, invalid gives 0xFFF8..., NaN payloads quieted", "[numerics]") {
  constexpr std::uint64_t one = 0x3FF0000000000000, two = 0x4000000000000000, inf = 0x7FF0000000000000;
  CHECK(f64_fma(one, two, 0) == two);
  CHECK(f64_fma(inf, 0, one) == 0xFFF8000000000000);
  CHECK(f64_fma(inf, one, 0xFFF0000000000000) == 0xFFF8000000000000);
  CHECK(f64_fma(0x8000000000000000, one, 0x8000000000000000) == 0x8000000000000000);  // -0 + -0
  CHECK(f64_fma(one, 1, 0) == 1);                                                     // subnormal product
  CHECK(f64_fma(0x7FF0000000000001, one, one) == 0x7FF8000000000001);                 // signalling, quieted
  CHECK(f64_fma(one, 0xFFF4000000000000, one) == 0xFFFC000000000000);
}

TEST_CASE("f64 fma: with several NaNs, b's payload wins, then c's, then a's (H200 probe)", "[numerics]") {
  constexpr std::uint64_t na = 0x7FF8000000000AAA, nb = 0xFFF0000000000BBB, nc = 0x7FF8000000000CCC;
  CHECK(f64_fma(na, nb, nc) == (nb | (std::uint64_t{1} << 51)));
  CHECK(f64_fma(na, 0x3FF0000000000000, nc) == nc);
  CHECK(f64_fma(na, nb, 0) == (nb | (std::uint64_t{1} << 51)));
  CHECK(f64_fma(0, nb, nc) == (nb | (std::uint64_t{1} << 51)));
}

TEST_CASE("f64 mma chains fmas in k order from c", "[numerics]") {
  // ((c + a0*b0) + a1*b1): 2^60 + 1 - 2^60 = 0 in double when chained from c.
  constexpr std::uint64_t big = 0x43B0000000000000, one = 0x3FF0000000000000;
  CHECK(d00(kF64, {one, 0xBFF0000000000000}, {one, big}, big) == 0);
}

TEST_CASE("mma_tile rejects tiles of the wrong size", "[numerics]") {
  const MmaInst& inst = *find_mma_inst(kF16F32);
  std::vector<std::uint64_t> a(16 * 16), b(16 * 8), c(16 * 8), d(16 * 7);
  CHECK_THROWS_AS(mma_tile(inst, arch_params("sm_90"), a, b, c, d), Error);
  CHECK_THROWS_AS(arch_params("sm_91"), Error);
}

}  // namespace test_numerics
