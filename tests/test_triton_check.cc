// Triton MMA v2 layouts against the PTX frames (core/triton/triton_check.h):
// the wheel's layouts (tests/data/triton/) proved, kWidth 8's K permutation
// proved equal in A and B, planted wrong bases refuted, Triton #3580's reuse
// of an s32 accumulator as an s8 A refuted.
#include <catch2/catch.hpp>

#include "core/triton/triton_dot.h"
#include "core/triton/triton_check.h"
#include "tests/support.h"

namespace test_triton_check {

using namespace mmacheck;

namespace {
std::vector<TritonDotOperand> load(const std::string& rel) {
  const std::string path = test::source_path(rel);
  return read_triton_file(test::read_file(path), path);
}

const TritonReport& by_name(const std::vector<TritonReport>& rs, const std::string& name) {
  for (const TritonReport& r : rs)
    if (r.name == name) return r;
  FAIL("no layout " << name);
  throw 0;
}

std::size_t index_of(const std::vector<TritonDotOperand>& ops, const std::string& name) {
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].name == name) return i;
  FAIL("no layout " << name);
  return 0;
}
}  // namespace

TEST_CASE("the lowering's feed order follows MMAv2.cpp's own examples", "[triton]") {
  // kWidth 8, 16-bit, A: "1st MMA: [[0, 1], [8, 9], [16, 17], [24, 25]]".
  const std::vector<int> a = mma_v2_feed_order(32, 16, 8, true, 4);
  CHECK(std::vector<int>(a.begin(), a.begin() + 8) == std::vector<int>{0, 1, 8, 9, 16, 17, 24, 25});
  CHECK(std::vector<int>(a.begin() + 8, a.begin() + 16) == std::vector<int>{2, 3, 10, 11, 18, 19, 26, 27});
  // B: "1st MMA: [[0, 1], [8, 9]]", "2nd MMA: [[2, 3], [10, 11]]".
  const std::vector<int> b = mma_v2_feed_order(16, 16, 8, false, 4);
  CHECK(std::vector<int>(b.begin(), b.begin() + 8) == std::vector<int>{0, 1, 8, 9, 2, 3, 10, 11});
  // 32 bits per kWidth group: no reordering.
  const std::vector<int> s8 = mma_v2_feed_order(16, 8, 4, true, 1);
  for (int p = 0; p < 16; ++p) CHECK(s8[static_cast<std::size_t>(p)] == p);
}

TEST_CASE("every MMA v2 layout the Triton wheel gives proves, duplicates are reported", "[triton]") {
  const std::vector<TritonDotOperand> ops = load("tests/data/triton/mma_v2.json");
  REQUIRE(ops.size() >= 20);
  const std::vector<TritonReport> rs = check_triton(ops);
  int permuted = 0;
  for (const TritonReport& r : rs) {
    INFO(r.name << ": " << r.message);
    if (r.name.find("small K") != std::string::npos) {
      CHECK(r.result == FrameVerdict::unchecked);
      REQUIRE_FALSE(r.zero_bases.empty());
      CHECK(r.zero_bases[0].first == "register");
      continue;
    }
    CHECK(r.result == FrameVerdict::proved);
    if (!r.k_permutation.empty()) ++permuted;
  }
  CHECK(permuted >= 8);  // kWidth 8 (f16, bf16, s8) and 16-bit kWidth 4, A and B
  // The 16-bit kWidth 8 permutation: lane t's eight consecutive K feed two k16 steps.
  const TritonReport& a = by_name(rs, "f16 k8 A 16x64");
  REQUIRE(a.k_permutation.size() == 64);
  CHECK(a.k_permutation[0] == 0);
  CHECK(a.k_permutation[2] == 8);                                          // k 2 (lane t = 1) is K 8
  CHECK(a.k_permutation[16] == 2);                                         // the second k16 step starts at K 2
  CHECK(by_name(rs, "bf16 k2 2x2 warps A 64x32").zero_bases.size() == 1);  // A broadcast over the N warps
}

TEST_CASE("a planted wrong basis is refuted", "[triton]") {
  std::vector<TritonDotOperand> ops = load("tests/data/triton/mma_v2.json");
  SECTION("accumulator: two lane bases swapped") {
    TritonDotOperand acc = ops[index_of(ops, "f32 acc 16x8")];
    auto& lanes = acc.layout.in_dims[1].bases;
    std::swap(lanes[0], lanes[2]);
    const std::vector<TritonReport> rs = check_triton({acc});
    CHECK(rs[0].result == FrameVerdict::refuted);
    REQUIRE(rs[0].counterexample);
    CHECK(rs[0].counterexample->lane == 1);
    CHECK(rs[0].counterexample->coordinate == std::array<std::int64_t, 2>{1, 0});
    CHECK(rs[0].counterexample->ptx == std::array<std::int64_t, 2>{0, 2});
  }
  SECTION("kWidth 2 A: register bases 1 and 2 swapped (row 8 and K 8)") {
    TritonDotOperand a = ops[index_of(ops, "f16 k2 A 16x16")];
    std::swap(a.layout.in_dims[0].bases[1], a.layout.in_dims[0].bases[2]);
    const std::vector<TritonReport> rs = check_triton({a});
    CHECK(rs[0].result == FrameVerdict::refuted);
    REQUIRE(rs[0].counterexample);
    CHECK(rs[0].counterexample->reg == 2);
    CHECK(rs[0].counterexample->coordinate == std::array<std::int64_t, 2>{0, 8});
  }
  SECTION("kWidth 2 A: a K basis moved between register and lane is a lone K permutation") {
    TritonDotOperand a = ops[index_of(ops, "f16 k2 A 16x16")];
    a.layout.in_dims[0].bases[2] = {0, 2};
    a.layout.in_dims[1].bases[0] = {0, 8};
    const std::vector<TritonReport> rs = check_triton({a});
    CHECK(rs[0].result == FrameVerdict::unchecked);
    CHECK_FALSE(rs[0].k_permutation.empty());
  }
  SECTION("kWidth 8: B permutes K unlike A") {
    std::vector<TritonDotOperand> pair{ops[index_of(ops, "f16 k8 A 16x64")], ops[index_of(ops, "f16 k8 B 64x8")]};
    auto& regs = pair[1].layout.in_dims[0].bases;
    std::swap(regs[1], regs[2]);
    const std::vector<TritonReport> rs = check_triton(pair);
    CHECK(rs[0].result == FrameVerdict::refuted);
    CHECK(rs[1].result == FrameVerdict::refuted);
    CHECK(rs[1].message.find("A and B permute K differently") != std::string::npos);
  }
  SECTION("kWidth 8 without its partner is unchecked, not proved") {
    const std::vector<TritonReport> rs = check_triton({ops[index_of(ops, "f16 k8 A 16x64")]});
    CHECK(rs[0].result == FrameVerdict::unchecked);
    CHECK_FALSE(rs[0].k_permutation.empty());
  }
}

TEST_CASE("Triton #3580: an s32 accumulator reused as an s8 A operand is refuted", "[triton]") {
  const std::vector<TritonReport> rs = check_triton(load("tests/data/triton/chained_int8.json"));
  REQUIRE(rs.size() == 2);
  CHECK(rs[0].result == FrameVerdict::refuted);
  REQUIRE(rs[0].counterexample);
  CHECK(rs[0].counterexample->reg == 2);
  CHECK(rs[0].counterexample->coordinate == std::array<std::int64_t, 2>{8, 0});
  CHECK(rs[0].counterexample->ptx == std::array<std::int64_t, 2>{0, 2});
  CHECK(rs[1].result == FrameVerdict::proved);
}

}  // namespace test_triton_check
