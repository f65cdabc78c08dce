// Mistakes planted in the Triton wheel's layouts (tests/data/triton/), each
// of which `mmacheck triton` must refute (core/triton/triton_check.h), and
// malformed files, each of which must be an Error at FILE:LINE:COL
// (core/triton/triton_dot.h).  Issue 21's plants first, then more classes.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/triton/triton_dot.h"
#include "core/triton/triton_check.h"
#include "tests/support.h"

namespace test_triton_mistakes {

using namespace mmacheck;

namespace {

const std::vector<TritonDotOperand>& wheel() {
  static const std::vector<TritonDotOperand> ops = [] {
    const std::string path = test::source_path("tests/data/triton/mma_v2.json");
    return read_triton_file(test::read_file(path), path);
  }();
  return ops;
}

TritonDotOperand op(const std::string& name) {
  for (const TritonDotOperand& o : wheel())
    if (o.name == name) return o;
  FAIL("no layout " << name);
  throw 0;
}

std::vector<std::vector<std::int64_t>>& bases(TritonDotOperand& o, const std::string& dim) {
  for (TritonLayout::InDim& d : o.layout.in_dims)
    if (d.name == dim) return d.bases;
  o.layout.in_dims.push_back({dim, {}});
  return o.layout.in_dims.back().bases;
}

TritonReport check_one(const TritonDotOperand& o) { return check_triton({o}).at(0); }

const char* kAcc2x2 = "f32 acc 64x32, 2x2 warps";

}  // namespace

TEST_CASE("the unplanted layouts prove, so each plant below is what refutes", "[triton][mistakes]") {
  CHECK(check_one(op(kAcc2x2)).result == FrameVerdict::proved);
  CHECK(check_one(op("f32 acc 32x16")).result == FrameVerdict::proved);
  CHECK(check_one(op("bf16 k2 2x2 warps A 64x32")).result == FrameVerdict::proved);
  CHECK(check_one(op("bf16 k2 2x2 warps B 32x32")).result == FrameVerdict::proved);
  CHECK(check_one(op("f16 k2 large A 32x32")).result == FrameVerdict::proved);
}

TEST_CASE("issue 21: a tensor part held by no thread is refuted, naming the element", "[triton][mistakes]") {
  SECTION("a warp basis equal to a register basis: half of D never computed") {
    TritonDotOperand acc = op(kAcc2x2);
    bases(acc, "warp")[1] = bases(acc, "register")[0];
    const TritonReport r = check_one(acc);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find("element (16, 0) of the 64x32 tensor is held by no register") != std::string::npos);
  }
  SECTION("all warp bases zero: rows 16..31 never computed") {
    TritonDotOperand acc = op(kAcc2x2);
    for (auto& b : bases(acc, "warp")) b = {0, 0};
    const TritonReport r = check_one(acc);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find("held by no register") != std::string::npos);
  }
  SECTION("two equal warp bases of A: rows 32..63 of A held by no warp") {
    TritonDotOperand a = op("bf16 k2 2x2 warps A 64x32");
    bases(a, "register")[4] = {16, 0};  // the M repeat now repeats the M warp's rows
    const TritonReport r = check_one(a);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find("element (32, 0) of the 64x32 tensor is held by no register") != std::string::npos);
  }
  SECTION("A over 4 M warps with two equal warp bases") {
    TritonDotOperand a = op("bf16 k2 2x2 warps A 64x32");
    a.warps_per_cta = std::array<int, 2>{4, 1};
    bases(a, "register").pop_back();  // one m per warp: the 4 M warps take rows 0, 16, 32, 48
    bases(a, "warp") = {{16, 0}, {32, 0}};
    CHECK(check_one(a).result == FrameVerdict::proved);
    bases(a, "warp") = {{16, 0}, {16, 0}};
    const TritonReport r = check_one(a);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find("element (32, 0) of the 64x32 tensor is held by no register") != std::string::npos);
  }
  SECTION("a nonzero warp basis inside the register span is not taken as broadcast") {
    // 64x32 D over 4 warps made a 64x16 D of 2x2 warps: warp 1 repeats register 4's columns.
    TritonDotOperand acc = op(kAcc2x2);
    acc.layout.out_dims[1].second = 16;
    bases(acc, "register")[2] = {0, 8};
    bases(acc, "warp")[0] = {0, 8};
    const TritonReport r = check_one(acc);
    CHECK(r.result == FrameVerdict::refuted);
    REQUIRE(r.counterexample);
    CHECK(r.message.find("both hold") != std::string::npos);
    CHECK(r.counterexample->reg == 4);
  }
}

TEST_CASE("issue 21: the accumulator's register order is the lowering's fc[4 (m repN + n) + i]", "[triton][mistakes]") {
  SECTION("m-rep and n-rep register bases swapped") {
    TritonDotOperand acc = op("f32 acc 32x16");
    std::swap(bases(acc, "register")[2], bases(acc, "register")[3]);
    const TritonReport r = check_one(acc);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find("out of order") != std::string::npos);
    REQUIRE(r.counterexample);
    CHECK(r.counterexample->reg == 4);
    CHECK(r.counterexample->coordinate == std::array<std::int64_t, 2>{16, 0});
    CHECK(r.counterexample->ptx[0] == 0);  // instruction (m 0, n 1) takes A's rows of m 0: row 0
  }
  SECTION("swapped in the 2x2-warp accumulator") {
    TritonDotOperand acc = op(kAcc2x2);
    std::swap(bases(acc, "register")[2], bases(acc, "register")[3]);
    CHECK(check_one(acc).result == FrameVerdict::refuted);
  }
  SECTION("M and N warp bases swapped: D's rows then vary with the N warp") {
    TritonDotOperand acc = op(kAcc2x2);
    std::swap(bases(acc, "warp")[0], bases(acc, "warp")[1]);
    const TritonReport r = check_one(acc);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find("the same M warp") != std::string::npos);
  }
  SECTION("a wrong warps_per_cta changes repN and is refuted") {
    TritonDotOperand acc = op(kAcc2x2);
    acc.warps_per_cta = std::array<int, 2>{4, 1};
    CHECK(check_one(acc).result == FrameVerdict::refuted);
  }
  SECTION("a warps_per_cta of another warp count is ill-formed, not an overrun") {
    TritonDotOperand acc = op(kAcc2x2);
    acc.warps_per_cta = std::array<int, 2>{1, 8};
    CHECK(check_one(acc).result == FrameVerdict::ill_formed);
  }
  SECTION("without warps_per_cta the order is unchecked, not proved") {
    TritonDotOperand acc = op(kAcc2x2);
    acc.warps_per_cta.reset();
    const TritonReport r = check_one(acc);
    CHECK(r.result == FrameVerdict::unchecked);
    CHECK(r.message.find("warps_per_cta") != std::string::npos);
  }
}

TEST_CASE("more planted mistake classes are refuted", "[triton][mistakes]") {
  SECTION("a lane basis duplicated") {
    TritonDotOperand acc = op("f32 acc 16x8");
    bases(acc, "lane")[1] = bases(acc, "lane")[0];
    CHECK(check_one(acc).result == FrameVerdict::refuted);
  }
  SECTION("a lane basis duplicated in A") {
    TritonDotOperand a = op("f16 k2 A 16x16");
    bases(a, "lane")[4] = bases(a, "lane")[3];
    CHECK(check_one(a).result == FrameVerdict::refuted);
  }
  SECTION("a register basis pointing outside the tile") {
    TritonDotOperand acc = op("f32 acc 32x16");
    bases(acc, "register")[3] = {32, 0};
    const TritonReport r = check_one(acc);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find("outside the 32x16 tensor") != std::string::npos);
    REQUIRE(r.counterexample);
    CHECK(r.counterexample->reg == 8);
  }
  SECTION("a negative basis") {
    TritonDotOperand b = op("f16 k2 B 16x8");
    bases(b, "register")[1] = {-8, 0};
    CHECK(check_one(b).result == FrameVerdict::refuted);
  }
  SECTION("a warp basis outside the tensor") {
    TritonDotOperand acc = op(kAcc2x2);
    bases(acc, "warp")[1] = {64, 0};
    CHECK(check_one(acc).result == FrameVerdict::refuted);
  }
  SECTION("the wrong instruction shape for the dtype: an f16 layout declared s8") {
    TritonDotOperand a = op("f16 k2 A 16x16");
    a.dtype = DType::s8;
    a.k_width = 4;
    CHECK(check_one(a).result != FrameVerdict::proved);
  }
  SECTION("an s8 layout declared f16") {
    TritonDotOperand a = op("s8 k4 A 16x32");
    a.dtype = DType::f16;
    a.k_width = 2;
    CHECK(check_one(a).result == FrameVerdict::refuted);
  }
  SECTION("an A whose k steps of one m cover different rows") {
    // 32x32 A: the K repeat (register 8) moved onto rows, the M repeat onto K.
    TritonDotOperand a = op("f16 k2 large A 32x32");
    bases(a, "register")[3] = {16, 16};
    bases(a, "register")[4] = {0, 16};
    const TritonReport r = check_one(a);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find("accumulates both into the same D rows") != std::string::npos);
  }
  SECTION("A not shared by the N warps") {
    TritonDotOperand a = op("bf16 k2 2x2 warps A 64x32");
    std::swap(bases(a, "warp")[0], bases(a, "warp")[1]);
    const TritonReport r = check_one(a);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.message.find("an N warp") != std::string::npos);
  }
  SECTION("a multi-warp operand without warps_per_cta is unchecked, not proved") {
    TritonDotOperand a = op("bf16 k2 2x2 warps A 64x32");
    a.warps_per_cta.reset();
    CHECK(check_one(a).result == FrameVerdict::unchecked);
  }
  SECTION("B not shared by the M warps") {
    TritonDotOperand b = op("bf16 k2 2x2 warps B 32x32");
    std::swap(bases(b, "warp")[0], bases(b, "warp")[1]);
    CHECK(check_one(b).result == FrameVerdict::refuted);
  }
  SECTION("a kWidth mismatch between A and B of one group") {
    TritonDotOperand a = op("f16 k4 A 16x32"), b = op("f16 k4 B 32x8");
    b.k_width = 2;
    const std::vector<TritonReport> rs = check_triton({a, b});
    CHECK(rs[0].result == FrameVerdict::refuted);
    CHECK(rs[1].result == FrameVerdict::refuted);
  }
  SECTION("A and B of different dtypes in one group") {
    TritonDotOperand a = op("f16 k2 A 16x16"), b = op("f16 k2 B 16x8");
    b.dtype = DType::bf16;
    const std::vector<TritonReport> rs = check_triton({a, b});
    CHECK(rs[0].result == FrameVerdict::refuted);
    CHECK(rs[0].message.find("no mma.sync takes A f16 and B bf16") != std::string::npos);
  }
  SECTION("A and B of different K in one group") {
    TritonDotOperand a = op("f16 k2 large A 32x32"), b = op("f16 k2 B 16x8");
    b.group = a.group;
    const std::vector<TritonReport> rs = check_triton({a, b});
    CHECK(rs[0].result == FrameVerdict::refuted);
    CHECK(rs[0].message.find("K differs") != std::string::npos);
  }
}

TEST_CASE("a dot operand with K 0 or -16 is no crash", "[triton][mistakes]") {
  for (const std::int64_t k : {std::int64_t{0}, std::int64_t{-16}, std::int64_t{8}, std::int64_t{17}}) {
    INFO("K " << k);
    TritonDotOperand a = op("f16 k2 A 16x16");
    a.layout.out_dims[1].second = k;
    CHECK(check_one(a).result != FrameVerdict::proved);
    TritonDotOperand b = op("f16 k2 B 16x8");
    b.layout.out_dims[0].second = k;
    CHECK(check_one(b).result != FrameVerdict::proved);
  }
}

namespace {

// The Error a layouts file gives, as "LINE:COL: MESSAGE".
std::string error_of(const std::string& text) {
  try {
    read_triton_file(text, "t.json");
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.message();
  }
  return "no error";
}

std::string acc_file(const std::string& shape, const std::string& extra = "") {
  return "{\"operands\": [\n  {\"name\": \"acc\", \"operand\": \"acc\", \"dtype\": \"f32\"" + extra +
         ",\n   \"layout\": {\"reg_bases\": [[0, 1], [8, 0]], \"lane_bases\": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],"
         " \"warp_bases\": [], \"block_bases\": [],\n   \"shape\": " +
         shape + "}}]}";
}

}  // namespace

TEST_CASE("issue 21: shape, warps_per_cta and duplicated keys are located errors", "[triton][mistakes]") {
  CHECK(error_of(acc_file("[16, 8]", ", \"warps_per_cta\": [1, 1]")) == "no error");
  CHECK(error_of(acc_file("[0, 8]")) ==
        "4:14: out dim 'dim0' has size 0: a linear layout's sizes are powers of two in [1, 2^24]");
  CHECK(error_of(acc_file("[-16, 8]")).rfind("4:14: out dim 'dim0' has size -16", 0) == 0);
  CHECK(error_of(acc_file("[17, 8]")).rfind("4:14: out dim 'dim0' has size 17", 0) == 0);
  CHECK(error_of(acc_file("[16, 4611686018427387904]")).rfind("4:18: out dim 'dim1'", 0) == 0);
  CHECK(error_of(acc_file("[16, 18446744073709551615]")).rfind("4:18: out dim 'dim1'", 0) == 0);
  CHECK(error_of(acc_file("[]")).rfind("4:13:", 0) == 0);
  CHECK(
      error_of(acc_file("[16, 8]", ", \"warps_per_cta\": [2, 1]")).rfind("2:70: warps_per_cta [2, 1] is 2 warps", 0) ==
      0);
  CHECK(error_of(acc_file("[16, 8]", ", \"warps_per_cta\": [0, 1]")).rfind("2:71: warps_per_cta[0]", 0) == 0);
  CHECK(error_of(acc_file("[16, 8]", ", \"warps_per_cta\": [1, 3]")).rfind("2:74: warps_per_cta[1]", 0) == 0);
  CHECK(error_of(acc_file("[16, 8]", ", \"warps_per_cta\": [1]")).rfind("2:70:", 0) == 0);
  CHECK(error_of(acc_file("[16, 8]", ", \"dtype\": \"f32\"")) == "2:53: key \"dtype\" given twice in one object");
  CHECK(error_of(acc_file("[16, 8]", ", \"wraps_per_cta\": [1, 1]")).rfind("2:70: unknown key \"wraps_per_cta\"", 0) ==
        0);
  CHECK(error_of("{\"operands\": [], \"operands\": []}") == "1:18: key \"operands\" given twice in one object");
  const std::string twice_named =
      acc_file("[16, 8]").substr(0, acc_file("[16, 8]").size() - 2) + ",\n" + acc_file("[16, 8]").substr(15);
  CHECK(error_of(twice_named).rfind("5:12: a second layout named 'acc'", 0) == 0);
  CHECK(error_of(acc_file("[16, 8]").replace(acc_file("[16, 8]").find("f32"), 3, "s8"))
            .rfind("2:46: dtype 's8' is no MMA v2 accumulator type", 0) == 0);
  CHECK(error_of(acc_file("[16, 8]", ", \"k_width\": 2")).rfind("2:64: an accumulator has no", 0) == 0);
}

TEST_CASE("a malformed layouts file is an error at its line and column, never a crash", "[triton][mistakes]") {
  // The toString() text inside a JSON string: the error stands where its character is in the file.
  const std::string text =
      "{\"operands\": [\n  {\"operand\": \"a\", \"dtype\": \"f16\", \"k_width\": 2,\n"
      "   \"layout\": \" - register=1 -> (0, 1)\\n   register=4 -> (8, 0)\\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]\"}]}\n";
  CHECK(error_of(text) == "3:43: register=4 where register=2 comes next");
  CHECK(error_of("{\"operands\": [{\"operand\": \"a\", \"dtype\": \"f16\", \"k_width\": 2, \"layout\": "
                 "\"where out dims are: [dim0 (size 16), dim1 (size 12)]\"}]}")
            .rfind("1:121: out dim 'dim1' has size 12", 0) == 0);
  CHECK(error_of("{\"operands\": [{\"operand\": \"a\", \"dtype\": \"f16\", \"k_width\": 2, \"layout\": "
                 "\" - regster=1 -> (0, 1)\\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]\"}]}")
            .rfind("1:76: unknown input dimension 'regster'", 0) == 0);
  // Deep nesting is bounded; a huge one is a located error, not a stack overflow.
  CHECK(error_of(std::string(100000, '[')).rfind("1:33: JSON nested deeper than 32 levels", 0) == 0);
  CHECK(error_of("{\"operands\": [1]}").rfind("1:1", 0) == 0);
  CHECK(error_of("{\"operands\": [").rfind("1:15: malformed JSON", 0) == 0);
  CHECK(error_of(std::string("{\"operands\": [\0]}", 17)).find("malformed JSON") != std::string::npos);
  // A number beyond a double (the fuzzer's finding: nlohmann's out_of_range escaped the reader).
  CHECK(error_of("{\"operands\": [{\"k_width\": 9E9999999999999916}]}")
            .rfind("1:27: malformed JSON: number overflow parsing '9E9999999999999916'", 0) == 0);
}

namespace {

std::vector<TritonDotOperand> dots() {
  const std::string path = test::source_path("tests/data/triton/dots.json");
  return read_triton_file(test::read_file(path), path);
}

std::vector<TritonDotOperand> group(const std::string& name) {
  std::vector<TritonDotOperand> out;
  for (const TritonDotOperand& o : dots())
    if (o.group == name) out.push_back(o);
  REQUIRE(out.size() == 3);  // D, A, B
  return out;
}

}  // namespace

TEST_CASE("whole dots from the wheel (D, A, B of one tl.dot) prove against each other", "[triton][mistakes]") {
  const std::vector<TritonDotOperand> ops = dots();
  REQUIRE(ops.size() == 39);
  for (const TritonReport& r : check_triton(ops)) {
    INFO(r.name << ": " << r.message);
    CHECK(r.result == FrameVerdict::proved);
  }
}

TEST_CASE("a dot whose D does not take A's rows or B's columns is refuted", "[triton][mistakes]") {
  SECTION("A's two M-warp bases swapped: each proves alone, the dot does not") {
    std::vector<TritonDotOperand> g = group("f32 f16 k2 4x1 warps 128x32x32");
    std::swap(bases(g[1], "warp")[0], bases(g[1], "warp")[1]);
    CHECK(check_one(g[1]).result == FrameVerdict::proved);
    const std::vector<TritonReport> rs = check_triton(g);
    CHECK(rs[0].result == FrameVerdict::refuted);
    CHECK(rs[1].result == FrameVerdict::refuted);
    CHECK(rs[0].message.find("writes D rows from") != std::string::npos);
    CHECK(rs[2].result == FrameVerdict::proved);
  }
  SECTION("B's N repeats swapped against D's") {
    std::vector<TritonDotOperand> g = group("f32 f16 k2 1x4 warps 32x128x16");
    std::swap(bases(g[2], "warp")[0], bases(g[2], "warp")[1]);
    const std::vector<TritonReport> rs = check_triton(g);
    CHECK(rs[0].result == FrameVerdict::refuted);
    CHECK(rs[2].result == FrameVerdict::refuted);
  }
  SECTION("an f16 accumulator for bf16 operands") {
    std::vector<TritonDotOperand> g = group("f16 f16 k2 2x2 warps 32x32x32");
    g[1].dtype = g[2].dtype = DType::bf16;
    const std::vector<TritonReport> rs = check_triton(g);
    CHECK(rs[0].result == FrameVerdict::refuted);
    CHECK(rs[0].message.find("no mma.sync accumulates bf16 products in f16") != std::string::npos);
  }
  SECTION("D of another M") {
    std::vector<TritonDotOperand> g = group("f32 f16 k2 2x2 warps 64x64x32");
    g[0] = group("f32 f16 k2 4x1 warps 128x32x32")[0];
    g[0].group = g[1].group;
    CHECK(check_triton(g)[0].result == FrameVerdict::refuted);
  }
}

TEST_CASE("Triton's dtype names are read; types mma.sync cannot take are refused at the value", "[triton][dtype]") {
  const std::string path = test::source_path("tests/data/triton/dots.json");
  const std::string ours = test::read_file(path);
  std::string theirs = ours;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"f16", "fp16"}, {"f32", "fp32"}, {"e4m3", "fp8e4nv"}, {"e5m2", "fp8e5"}, {"s8", "int8"}, {"s32", "int32"}})
    for (std::size_t at; (at = theirs.find("\"dtype\": \"" + from + "\"")) != std::string::npos;)
      theirs.replace(at, 10 + from.size(), "\"dtype\": \"" + to);
  REQUIRE(theirs.find("\"fp8e4nv\"") != std::string::npos);
  const std::vector<TritonReport> want = check_triton(read_triton_file(ours, "dots.json"));
  const std::vector<TritonReport> got = check_triton(read_triton_file(theirs, "dots.json"));
  REQUIRE(got.size() == want.size());
  REQUIRE(got.size() == 39);
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].result == FrameVerdict::proved);
    CHECK(got[i].instruction == want[i].instruction);
  }
  // mma.sync has no bf16 accumulator, reads fp32 only as tf32, and no fp8e4b15.
  CHECK_THAT(error_of(acc_file("[16, 8]").replace(acc_file("[16, 8]").find("f32"), 3, "bf16")),
             Catch::StartsWith("2:46: dtype 'bf16' is no MMA v2 accumulator type") &&
                 Catch::Contains("no bf16 D or C"));
  std::string operand = acc_file("[16, 8]");
  operand.replace(operand.find("\"operand\": \"acc\""), 16, "\"operand\": \"a\", \"k_width\": 2");
  CHECK_THAT(error_of(std::string(operand).replace(operand.find("f32"), 3, "fp32")),
             Catch::Contains("fp32 reaches mma.sync only as tf32"));
  CHECK_THAT(error_of(std::string(operand).replace(operand.find("f32"), 3, "fp8e4b15")),
             Catch::Contains("reaches no NVIDIA mma.sync"));
  CHECK_THAT(error_of(std::string(operand).replace(operand.find("f32"), 3, "int4")),
             Catch::Contains("'int4' is no MMA v2 operand type"));
}

}  // namespace test_triton_mistakes
