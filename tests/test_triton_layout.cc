// Triton linear layouts (core/triton/triton_layout.h, triton_dot.h): the
// toString() form and Gluon's JSON fields read to the same layout, XOR
// application, located errors.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/triton/triton_dot.h"
#include "core/triton/triton_layout.h"

namespace test_triton_layout {

using namespace mmacheck;

namespace {
const char* kAcc =
    " - register=1 -> (0, 1)\n"
    "   register=2 -> (8, 0)\n"
    " - lane=1 -> (0, 2)\n"
    "   lane=2 -> (0, 4)\n"
    "   lane=4 -> (1, 0)\n"
    "   lane=8 -> (2, 0)\n"
    "   lane=16 -> (4, 0)\n"
    " - warp is a size 1 dimension\n"
    " - block is a size 1 dimension\n"
    "where out dims are: [dim0 (size 16), dim1 (size 8)]";
}  // namespace

TEST_CASE("toString() text and Gluon's JSON fields give the same linear layout", "[triton]") {
  const TritonLayout text = parse_triton_layout(kAcc, "t");
  const TritonLayout json = triton_layout_from_json(
      JsonSource(R"({"reg_bases": [[0, 1], [8, 0]], "lane_bases": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
                      "warp_bases": [], "block_bases": [], "shape": [16, 8]})",
                 "t"),
      "");
  CHECK(text.str() == kAcc);
  CHECK(json.str() == kAcc);
  CHECK(text.in_size("register") == 4);
  CHECK(text.in_size("lane") == 32);
  CHECK(text.in_size("warp") == 1);
  CHECK(text.out_dims == std::vector<std::pair<std::string, std::int64_t>>{{"dim0", 16}, {"dim1", 8}});
}

TEST_CASE("a linear layout XORs the bases of the set bits", "[triton]") {
  TritonLayout l = parse_triton_layout(kAcc, "t");
  // lane 5 = bits 0 and 2: (0, 2) ^ (1, 0); register 3: (0, 1) ^ (8, 0).
  CHECK(l.apply(3, 5) == std::vector<std::int64_t>{9, 3});
  // XOR, not sum: two bases with the same bit cancel.
  l.in_dims[0].bases[1] = {0, 1};
  CHECK(l.apply(3, 0) == std::vector<std::int64_t>{0, 0});
}

TEST_CASE("malformed toString() text is an Error at its line", "[triton]") {
  const auto line_of = [](const std::string& text) {
    try {
      parse_triton_layout(text, "t", 10);
    } catch (const Error& e) {
      return e.loc().line;
    }
    return 0;
  };
  CHECK(line_of(
            " - register=1 -> (0, 1)\n   register=4 -> (8, 0)\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]") ==
        11);
  CHECK(line_of(" - register=1 -> (0, 1\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]") == 10);
  CHECK(line_of(" - register=1 -> (0, 1)\n") == 10);  // no out dims
  CHECK(line_of(" - register=1 -> (0, 1, 2)\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]") == 10);
  CHECK_THROWS_AS(
      triton_layout_from_json(JsonSource(R"({"reg_bases": [[1]], "lane_bases": [], "shape": [16, 8]})", "t"), ""),
      Error);
}

TEST_CASE("a layouts file names each entry's role, type and kWidth", "[triton]") {
  const std::string text = R"({"operands": [
      {"name": "acc", "operand": "acc", "dtype": "f32", "layout": {"reg_bases": [], "lane_bases": [],
       "warp_bases": [], "block_bases": [], "shape": [1, 1]}},
      {"operand": "b", "dtype": "bfloat16", "k_width": 8, "group": "g", "layout": "where out dims are: [dim0 (size 1), dim1 (size 1)]"}]})";
  const std::vector<TritonDotOperand> ops = read_triton_file(text, "f.json");
  REQUIRE(ops.size() == 2);
  CHECK(ops[0].role == TritonRole::acc);
  CHECK(ops[1].role == TritonRole::b);
  CHECK(ops[1].name == "operands[1]");
  CHECK(ops[1].dtype == DType::bf16);
  CHECK(ops[1].k_width == 8);
  CHECK(ops[1].group == "g");
  CHECK_THROWS_AS(read_triton_file(R"({"operands": [{"operand": "c", "dtype": "f32", "layout": ""}]})", "f"), Error);
  CHECK_THROWS_AS(read_triton_file(R"({"operands": [{"operand": "a", "dtype": "f16", "layout": ""}]})", "f"), Error);
  CHECK_THROWS_AS(read_triton_file(R"({"operands": [{"operand": "a", "dtype": "q7", "k_width": 2}]})", "f"), Error);
  CHECK_THROWS_AS(read_triton_file("{\"operands\": [", "f"), Error);
}

}  // namespace test_triton_layout
