// The instruction variants beyond the first fifteen (issue 25): their PTX
// names as the ISA spells them, the integer arithmetic (mixed signedness,
// 4-bit and single-bit inputs, .satfinite) on planted values, the fp6/fp4
// formats, and the vector files' word widths for them.
#include <catch2/catch.hpp>

#include <climits>
#include <set>
#include <vector>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "sim/numerics/float_format.h"
#include "sim/numerics/mma_model.h"
#include "sim/vectors/vector_file.h"

namespace test_variants {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

const MmaInst& inst(const char* ptx) {
  const MmaInst* i = find_mma_inst(ptx);
  INFO(ptx);
  REQUIRE(i != nullptr);
  return *i;
}

// D of one instruction whose A row 0 and B column 0 are `a` and `b` (the
// rest zero) and whose C is `c` everywhere; returns D[0][0] and checks that
// an untouched output is c.
std::uint32_t d00(const MmaInst& in, const char* arch, const std::vector<std::uint64_t>& a,
                  const std::vector<std::uint64_t>& b, std::uint32_t c) {
  std::vector<std::uint64_t> A(in.m * in.k), B(in.k * in.n), C(in.m * in.n, c), D(in.m * in.n);
  for (std::size_t k = 0; k < a.size(); ++k) A[k] = a[k];
  for (std::size_t k = 0; k < b.size(); ++k) B[k * in.n] = b[k];
  mma_tile(in, arch_params(arch), A, B, C, D);
  if (in.bop != BitOp::xor_popc) CHECK(D[in.m * in.n - 1] == c);  // row m-1 times column n-1: all zero
  return static_cast<std::uint32_t>(D[0]);
}

}  // namespace

TEST_CASE("the new rows carry PTX's qualifiers in PTX's order", "[variants]") {
  std::set<std::string> names;
  for (const MmaInst& i : mma_instructions()) CHECK(names.insert(i.ptx()).second);  // no row twice
  std::set<std::string_view> tags;
  for (const MmaInst& i : mma_instructions()) CHECK(tags.insert(i.tag).second);
  for (const char* ptx : {
           "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32",
           "mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32",
           "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32",
           "mma.sync.aligned.m8n8k32.row.col.satfinite.s32.s4.u4.s32",
           "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32",
           "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc",
           "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc",
           "mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e4m3.f16",
           "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32",
           "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64",
           "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e3m2.e2m1.f32",
       })
    CHECK(find_mma_inst(ptx) != nullptr);
  // The first fifteen keep their places: dispatch prefers by table order.
  CHECK(mma_instructions()[14].ptx() == "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  CHECK(inst("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc").min_sm == 75);
  CHECK(inst("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc").min_sm == 80);
  CHECK(inst("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64").min_sm == 90);
  // Every row's frames exist (the prover's and the warp machine's specification).
  for (const MmaInst& i : mma_instructions())
    for (const Operand op : {Operand::A, Operand::B, Operand::C}) {
      INFO(i.ptx() << " operand " << operand_name(op));
      const Frame& f = i.frame(op);
      CHECK(f.elems() * 32 == (op == Operand::A ? i.m * i.k : op == Operand::B ? i.k * i.n : i.m * i.n));
    }
}

TEST_CASE("integer variants: signedness per operand, 4-bit values, wrap and .satfinite", "[variants]") {
  // s8 x u8: 0xFF is -1 in A and 255 in B.
  CHECK(d00(inst("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32"), "sm_90", {0xFF}, {0xFF}, 0) ==
        static_cast<std::uint32_t>(-255));
  CHECK(d00(inst("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32"), "sm_90", {0xFF, 2}, {0xFF, 0x80}, 7) ==
        static_cast<std::uint32_t>(-255 - 256 + 7));
  // s4: 0xF is -1, 0x8 is -8; u4: 0xF is 15.
  CHECK(d00(inst("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32"), "sm_75", {0xF, 0x8}, {0x7, 0x8}, 1) ==
        static_cast<std::uint32_t>(-7 + 64 + 1));
  CHECK(d00(inst("mma.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32"), "sm_80", {0xF}, {0xF}, 0) ==
        static_cast<std::uint32_t>(-15));
  // Wrapping without .satfinite, clamping with it, both directions.
  const auto max = static_cast<std::uint32_t>(INT32_MAX), min = static_cast<std::uint32_t>(INT32_MIN);
  CHECK(d00(inst("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"), "sm_90", {2}, {3}, max) == min + 5);
  CHECK(d00(inst("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"), "sm_90", {2}, {3}, max) == max);
  CHECK(d00(inst("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.s8.s32"), "sm_80", {200}, {0x80}, min) == min);
  CHECK(d00(inst("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32"), "sm_75", {1}, {1}, max - 1) == max);
  // A sum that passes the limit and comes back is not clamped: .satfinite clamps D, not partial sums.
  CHECK(d00(inst("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"), "sm_90", {0x7F, 0x81}, {0x7F, 0x7F},
            max - 100) == max - 100);
}

TEST_CASE("single-bit variants: popc of AND or XOR over K, plus C", "[variants]") {
  std::vector<std::uint64_t> a(128), b(128);
  for (int k = 0; k < 128; ++k) {
    a[k] = k % 3 == 0;  // 43 ones
    b[k] = k % 2 == 0;  // 64 ones; both at k % 6 == 0: 22
  }
  CHECK(d00(inst("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc"), "sm_80", a, b, 5) == 22 + 5);
  CHECK(d00(inst("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc"), "sm_75", a, b, 5) ==
        43 + 64 - 2 * 22 + 5);
  // Bits above an element's one bit are not part of it.
  CHECK(d00(inst("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc"), "sm_90", {0x3}, {0x2}, 0) == 0);
  // XOR of two zero rows is zero: an output outside row 0 and column 0 is C.
  const MmaInst& x = inst("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc");
  std::vector<std::uint64_t> A(x.m * x.k), B(x.k * x.n), C(x.m * x.n, 9), D(x.m * x.n);
  A[0] = 1;  // row 0, k 0
  mma_tile(x, arch_params("sm_90"), A, B, C, D);
  CHECK(D[0] == 10);                                                      // row 0 against any column: one differing bit
  CHECK(D[x.n] == 9);                                                     // row 1: none
  CHECK_THROWS_AS(mma_tile(x, arch_params("sm_75"), A, B, C, D), Error);  // m16n8k256 needs sm_80
}

TEST_CASE("fp6 and fp4 formats: every encoding finite, in their 8-bit containers", "[variants]") {
  const FloatFormat& e3m2 = float_format(DType::e3m2);
  const FloatFormat& e2m3 = float_format(DType::e2m3);
  const FloatFormat& e2m1 = float_format(DType::e2m1);
  const auto value = [](const FloatFormat& f, std::uint64_t w) {
    const FpValue v = decode(f, w);
    REQUIRE(v.cls == FpClass::finite);
    return (v.neg ? -1.0 : 1.0) * std::ldexp(static_cast<double>(v.sig), v.exp - v.frac);
  };
  CHECK(value(e3m2, 0x1F) == 28.0);    // 0.111.11: the largest
  CHECK(value(e3m2, 0x01) == 0.0625);  // least subnormal 2^-2 * 1/4
  CHECK(value(e2m3, 0x1F) == 7.5);
  CHECK(value(e2m3, 0x3F) == -7.5);
  CHECK(value(e2m1, 0x07 << 2) == 6.0);  // fp4 sits in bits 5:2
  CHECK(value(e2m1, 0x01 << 2) == 0.5);
  CHECK(value(e2m1, (0x0F << 2) | 0x3) == -6.0);  // bits 1:0 ignored
  CHECK(value(e2m1, 0xC0 | (0x02 << 2)) == 1.0);  // bits 7:6 ignored
  for (std::uint64_t w = 0; w < 256; ++w) {
    CHECK(decode(e3m2, w).cls == FpClass::finite);
    CHECK(decode(e2m3, w).cls == FpClass::finite);
    CHECK(decode(e2m1, w).cls == FpClass::finite);
  }
}

TEST_CASE("vector files: b1 words are one hex digit holding one bit", "[variants][vectors]") {
  const std::string ptx = "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc";
  const MmaInst& in = inst(ptx.c_str());
  const auto words = [](int n, const char* w) {
    std::string s;
    for (int i = 0; i < n; ++i) s += std::string(" ") + w;
    return s;
  };
  const auto text = [&](const char* a0) {
    return "instr " + ptx + "\ncase 0 bits\nA " + a0 + words(in.m * in.k - 1, "0") + "\nB" + words(in.k * in.n, "1") +
           "\nC" + words(in.m * in.n, "00000002") + "\nD" + words(in.n, "00000003") +  // row 0: one bit in common
           words(in.m * in.n - in.n, "00000002") + "\n";
  };
  const VectorFile ok = parse_vector_file(text("1"), "b1.mmav");
  CHECK(run_vector_file(ok, arch_params("sm_90"), 4).failed == 0);
  try {
    parse_vector_file(text("2"), "b1.mmav");
    FAIL("a b1 word of 2 was accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("b1.mmav:3:3") != std::string::npos);
    CHECK(std::string(e.what()).find("does not fit a b1 element") != std::string::npos);
  }
}

}  // namespace test_variants
