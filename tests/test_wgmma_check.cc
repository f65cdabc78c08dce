// The wgmma descriptor check (core/wgmma/wgmma_check.h): the PTX ISA's own
// canonical-layout examples prove; the examples in examples/wgmma/ prove or
// are refuted naming the planted field; every planted mistake class is
// refuted on every proved example.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/wgmma/canonical_layout.h"
#include "core/wgmma/wgmma_check.h"
#include "core/wgmma/wgmma_reader.h"
#include "tests/support.h"

namespace test_wgmma_check {

namespace {

using namespace mmacheck;
using mmacheck::test::read_file;
using mmacheck::test::source_path;

MatrixDescriptor desc(std::int64_t start, std::int64_t lbo, std::int64_t sbo, SwizzleMode mode) {
  MatrixDescriptor d;
  d.start = start;
  d.lbo = lbo;
  d.sbo = sbo;
  d.swizzle = mode;
  return d;
}

WgmmaOperand operand(char which, const char* type, int rows, Major major) {
  WgmmaOperand op;
  op.operand = which;
  op.type = find_wgmma_type(type);
  op.rows = rows;
  op.k = op.type->k;
  op.major = major;
  return op;
}

// A CuTe mode (shape, stride) of up to three sub-modes, column-major (the
// first fastest), on index x.
struct Mode {
  std::array<int, 3> shape{1, 1, 1};
  std::array<int, 3> stride{0, 0, 0};
  std::int64_t at(int x) const {
    std::int64_t v = 0;
    for (int s = 0; s < 3; ++s) {
      v += std::int64_t{x % shape[s]} * stride[s];
      x /= shape[s];
    }
    return v;
  }
};

// The placed byte address of every element (i, k) of `op`'s tile, from the
// PTX ISA's "Exact layout" Swizzle<B,4,3> o (MN mode, K mode) in elements:
// the byte offset is width * layout, swizzled on bytes.
std::vector<std::int64_t> isa_placement(const WgmmaOperand& op, const Mode& mn, const Mode& k, int swizzle_bits) {
  const Swizzle s{swizzle_bits, 4, 3};
  std::vector<std::int64_t> placed;
  for (int i = 0; i < op.rows; ++i)
    for (int kk = 0; kk < op.k; ++kk) placed.push_back(s.apply(op.type->bytes * (mn.at(i) + k.at(kk))));
  return placed;
}

WgmmaCase make_case(const WgmmaOperand& op, const MatrixDescriptor& d, std::vector<std::int64_t> placed) {
  WgmmaCase c;
  c.name = "test";
  c.operand = op;
  c.descriptor = d;
  c.placed = std::move(placed);
  return c;
}

std::vector<WgmmaReport> check_file(const std::string& rel) {
  const std::string path = source_path(rel);
  std::vector<WgmmaReport> out;
  for (const WgmmaCase& c : read_wgmma_file(read_file(path), path)) out.push_back(check_wgmma(c));
  return out;
}

}  // namespace

TEST_CASE("the PTX ISA's canonical-layout examples prove with its descriptors", "[wgmma][check]") {
  // PTX ISA 9.7.15.5.1.2.1.3, "Examples": the exact layouts with their LBO
  // and SBO, one instruction's K slice of each (the ISA's tiles span two).
  struct Example {
    const char* what;
    WgmmaOperand op;
    Mode mn, k;
    int swizzle_bits;
    MatrixDescriptor d;
  };
  const Example examples[] = {
      // K-major, no swizzle, tf32: ((8,2),(4,4)):((4,32),(1,64)), LBO 64 tf32, SBO 32 tf32.
      {"K none tf32", operand('B', "tf32", 16, Major::k), Mode{{8, 2, 1}, {4, 32, 0}}, Mode{{4, 4, 1}, {1, 64, 0}}, 0,
       desc(0, 64 * 4, 32 * 4, SwizzleMode::none)},
      // K-major, 32B, tf32: Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4)), SBO 64 tf32.
      {"K 32B tf32", operand('B', "tf32", 16, Major::k), Mode{{8, 2, 1}, {8, 64, 0}}, Mode{{4, 4, 1}, {1, 4, 0}}, 1,
       desc(0, 16, 64 * 4, SwizzleMode::b32)},
      // MN-major, no swizzle, bf16: ((8,1,2),(8,2)):((1,8,64),(8,128)), LBO 128, SBO 64 bf16.
      {"MN none bf16", operand('B', "bf16", 16, Major::mn), Mode{{8, 1, 2}, {1, 8, 64}}, Mode{{8, 2, 1}, {8, 128, 0}},
       0, desc(0, 128 * 2, 64 * 2, SwizzleMode::none)},
      // MN-major, 32B, bf16: Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256)), LBO 128, SBO 256.
      {"MN 32B bf16", operand('B', "bf16", 32, Major::mn), Mode{{8, 2, 2}, {1, 8, 128}}, Mode{{8, 2, 1}, {16, 256, 0}},
       1, desc(0, 128 * 2, 256 * 2, SwizzleMode::b32)},
      // MN-major, 64B, bf16: Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512)), LBO 256, SBO 512.
      {"MN 64B bf16", operand('B', "bf16", 64, Major::mn), Mode{{8, 4, 2}, {1, 8, 256}}, Mode{{8, 2, 1}, {32, 512, 0}},
       2, desc(0, 256 * 2, 512 * 2, SwizzleMode::b64)},
  };
  for (const Example& e : examples) {
    INFO(e.what);
    const std::vector<std::int64_t> placed = isa_placement(e.op, e.mn, e.k, e.swizzle_bits);
    CHECK(check_wgmma(make_case(e.op, e.d, placed)).result == FrameVerdict::proved);
    // LBO and SBO swapped, where both are read and differ, is refuted and diagnosed.
    const FieldUse use = field_use(e.op, e.d.swizzle);
    if (use.lbo && use.sbo) {
      const WgmmaReport r = check_wgmma(make_case(e.op, desc(0, e.d.sbo, e.d.lbo, e.d.swizzle), placed));
      REQUIRE(r.result == FrameVerdict::refuted);
      REQUIRE(!r.fixes.empty());
      CHECK(r.fixes[0].fields == std::vector<std::string>{"lbo/sbo swapped"});
    }
  }
}

TEST_CASE("the correct wgmma examples prove", "[wgmma][check][examples]") {
  for (const char* file : {"k_sw128_f16.txt", "k_sw64_bf16.txt", "k_sw32_tf32.txt", "k_none_f16.txt",
                           "mn_sw128_f16.txt", "mn_none_bf16.txt"}) {
    INFO(file);
    for (const WgmmaReport& r : check_file(std::string("examples/wgmma/") + file)) {
      INFO(r.name << ": " << r.message);
      CHECK(r.result == FrameVerdict::proved);
      CHECK(!r.counterexample);
    }
  }
}

TEST_CASE("the planted wgmma examples are refuted naming the planted field", "[wgmma][check][examples]") {
  struct Planted {
    const char* file;
    std::vector<std::string> fields;
    int i, k;  // the first element read elsewhere
  };
  for (const Planted& p :
       {Planted{"bad_swizzle.txt", {"swizzle"}, 1, 0}, Planted{"bad_lbo_sbo.txt", {"lbo/sbo swapped"}, 0, 8},
        Planted{"bad_major.txt", {"major"}, 0, 1}, Planted{"bad_start.txt", {"start"}, 0, 0}}) {
    INFO(p.file);
    const std::vector<WgmmaReport> reports = check_file(std::string("examples/wgmma/") + p.file);
    REQUIRE(reports.size() == 1);
    const WgmmaReport& r = reports[0];
    INFO(r.message);
    CHECK(r.result == FrameVerdict::refuted);
    REQUIRE(r.counterexample);
    CHECK(r.counterexample->i == p.i);
    CHECK(r.counterexample->k == p.k);
    CHECK(r.counterexample->read != r.counterexample->placed);
    REQUIRE(!r.fixes.empty());
    CHECK(r.fixes[0].fields == p.fields);
  }
}

TEST_CASE("a swizzled buffer off its pattern's boundary is refuted, the base named", "[wgmma][check][examples]") {
  const std::vector<WgmmaReport> reports = check_file("examples/wgmma/bad_alignment.txt");
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].result == FrameVerdict::refuted);
  CHECK(reports[0].fixes.empty());
  CHECK(reports[0].message.find("its base 0x480, which is not on a 1024-byte boundary") != std::string::npos);
  // The same buffer on the boundary proves, and says nothing of a base.
  const std::string path = source_path("examples/wgmma/k_sw128_f16.txt");
  const WgmmaCase good = read_wgmma_file(read_file(path), path).front();
  REQUIRE(good.buffer_swizzle);
  CHECK(*good.buffer_swizzle == swizzle_mode(SwizzleMode::b128).bytes);
  WgmmaCase off = good;
  off.descriptor.sbo = 2048;
  CHECK(check_wgmma(off).message.find("boundary, but wgmma") == std::string::npos);
}

TEST_CASE("every mistake class is refuted on every correct example", "[wgmma][check][examples]") {
  // Plant each mistake into each proved operand: another swizzle mode, LBO
  // and SBO swapped, the other major-ness, a start 16 bytes off.  Each must
  // be refuted unless the field is not read (LBO of a K-major swizzled tile).
  int planted = 0;
  for (const char* file : {"k_sw128_f16.txt", "k_sw64_bf16.txt", "k_sw32_tf32.txt", "k_none_f16.txt",
                           "mn_sw128_f16.txt", "mn_none_bf16.txt"}) {
    const std::string path = source_path(std::string("examples/wgmma/") + file);
    for (const WgmmaCase& good : read_wgmma_file(read_file(path), path)) {
      INFO(file << " " << good.name);
      REQUIRE(check_wgmma(good).result == FrameVerdict::proved);
      std::vector<std::pair<std::string, WgmmaCase>> wrong;
      for (const SwizzleModeRow& row : swizzle_modes())
        if (row.mode != good.descriptor.swizzle) {
          WgmmaCase c = good;
          c.descriptor.swizzle = row.mode;
          wrong.emplace_back("swizzle " + std::string(row.name), c);
        }
      const FieldUse use = field_use(good.operand, good.descriptor.swizzle);
      if (use.lbo && use.sbo && good.descriptor.lbo != good.descriptor.sbo) {
        WgmmaCase c = good;
        std::swap(c.descriptor.lbo, c.descriptor.sbo);
        wrong.emplace_back("lbo/sbo", c);
      }
      if (good.operand.type->transposable) {
        WgmmaCase c = good;
        c.operand.major = good.operand.major == Major::k ? Major::mn : Major::k;
        wrong.emplace_back("major", c);
      }
      WgmmaCase start = good;
      start.descriptor.start += 16;
      wrong.emplace_back("start", start);
      for (const auto& [what, c] : wrong) {
        INFO(what);
        const WgmmaReport r = check_wgmma(c);
        CHECK(r.result == FrameVerdict::refuted);
        // The diagnosis finds a descriptor that reads it right (the original one, or one as good).
        REQUIRE(!r.fixes.empty());
        WgmmaCase fixed = c;
        fixed.descriptor = r.fixes[0].descriptor;
        fixed.operand.major = r.fixes[0].major;
        CHECK(check_wgmma(fixed).result == FrameVerdict::proved);
        ++planted;
      }
    }
  }
  CHECK(planted >= 40);
}

TEST_CASE("canonical addresses follow the ISA's formulas", "[wgmma][check]") {
  // K-major 128B f16: row i at (i % 8) * 128 + (i / 8) * SBO, chunks XOR-ed with i % 8.
  const WgmmaOperand a = operand('A', "f16", 64, Major::k);
  const MatrixDescriptor d = desc(0, 16, 1024, SwizzleMode::b128);
  CHECK(canonical_address(a, d, 0, 0) == 0);
  CHECK(canonical_address(a, d, 1, 0) == 128 + 16);
  CHECK(canonical_address(a, d, 1, 8) == 128 + 0);  // chunk 1 ^ 1
  CHECK(canonical_address(a, d, 9, 15) == 1024 + 128 + (1 ^ 1) * 16 + 14);
  // An unused LBO changes nothing; SBO moves rows 8.. only.
  CHECK(canonical_address(a, desc(0, 4096, 1024, SwizzleMode::b128), 9, 15) == canonical_address(a, d, 9, 15));
  CHECK(field_use(a, SwizzleMode::b128).lbo == false);
  CHECK(field_use(a, SwizzleMode::none).lbo == true);
  // tf32 has no MN-major, and A is 64 rows.
  CHECK(operand('A', "tf32", 64, Major::mn).problem() != "");
  CHECK(operand('A', "f16", 32, Major::k).problem() != "");
  CHECK(operand('B', "s8", 40, Major::k).problem() != "");  // s32 accumulators: N 40 is not a shape
  CHECK(operand('B', "e4m3", 40, Major::k).problem() == "");
}

TEST_CASE("a base offset is unchecked, not proved", "[wgmma][check]") {
  const std::string path = source_path("examples/wgmma/k_sw128_f16.txt");
  WgmmaCase c = read_wgmma_file(read_file(path), path).front();
  c.descriptor.base_offset = 1;
  CHECK(check_wgmma(c).result == FrameVerdict::unchecked);
}

}  // namespace test_wgmma_check
