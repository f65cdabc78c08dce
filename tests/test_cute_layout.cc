// CuTe layouts (core/cute/cute_layout.h): both spellings, CuTe's
// colexicographic evaluation, congruence and default strides, located errors.
#include <catch2/catch.hpp>

#include <limits>

#include "core/base/error.h"
#include "core/cute/cute_layout.h"

namespace test_cute_layout {

using namespace mmacheck;

TEST_CASE("the printed and the C++ spelling of a layout are the same layout", "[cute]") {
  const CuteLayout printed = parse_cute_layout("((4,8),(2,2,2)):((32,1),(16,8,128))");
  const CuteLayout typed =
      parse_cute_layout("Layout<Shape<Shape<_4,_8>,Shape<_2,_2,_2>>, Stride<Stride<_32,_1>,Stride<_16,_8,_128>>>");
  const CuteLayout underscores = parse_cute_layout("((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
  const CuteLayout qualified = parse_cute_layout(
      "cute::Layout<cute::Shape<cute::Shape<cute::Int<4>,_8>,Shape<_2,C<2>,_2>>,"
      "Stride<Stride<_32,_1>,Stride<_16,_8,128>>>");
  CHECK(printed.shape == typed.shape);
  CHECK(printed.stride == typed.stride);
  CHECK(underscores.stride == typed.stride);
  CHECK(qualified.shape == typed.shape);
  CHECK(qualified.stride == typed.stride);
  CHECK(typed.str() == "((4,8),(2,2,2)):((32,1),(16,8,128))");
  CHECK(typed.rank() == 2);
  CHECK(typed.size() == 256);
  CHECK(typed.mode(0).size() == 32);
  CHECK(typed.mode(1).size() == 8);
}

TEST_CASE("a layout maps a coordinate colexicographically: the first mode fastest", "[cute]") {
  const CuteLayout l = parse_cute_layout("((4,8),(2,2)):((32,1),(16,8))");
  // thread 5 = (1, 1), value 1 = (1, 0): 32 + 1 + 16
  CHECK(l.at(5 + 32 * 1) == 49);
  // thread 4 = (0, 1), value 2 = (0, 1): 1 + 8
  CHECK(l.at(4 + 32 * 2) == 9);
  CHECK(l.at(0) == 0);
  CHECK(l.at(127) == 3 * 32 + 7 + 16 + 8);
}

TEST_CASE("a layout without strides gets CuTe's compact column-major strides", "[cute]") {
  const CuteLayout l = parse_cute_layout("Layout<Shape<_8,_4>>");
  CHECK(l.stride.str() == "(1,8)");
  CHECK(parse_cute_layout("Layout<_32>").str() == "32:1");
  CHECK(parse_cute_layout("(2,(3,4))").stride.str() == "(1,(2,6))");
  for (int i = 0; i < 24; ++i) CHECK(parse_cute_layout("(2,(3,4))").at(i) == i);
}

TEST_CASE("congruence compares the profiles of shape and stride", "[cute]") {
  CHECK(parse_cute_layout("((4,8),(2,2)):((32,1),(16,8))").congruent());
  CHECK_FALSE(
      parse_cute_layout("Layout<Shape<Shape<_4,_8>,Shape<_32,_2>>, Stride<Stride<_512,_1>,Stride<Stride<_16,_8>>>>")
          .congruent());
  CHECK_FALSE(parse_cute_layout("(4,8):(1)").congruent());
  CHECK(parse_cute_layout("((4,8),(8)):((32,1),(8))").congruent());
}

TEST_CASE("a malformed layout is an Error at its position", "[cute]") {
  try {
    parse_cute_layout("((4,8),(2,2)):((32,1),(16,8)", "f.txt");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.loc().line == 1);
    CHECK(e.loc().col == 29);
    CHECK(std::string(e.what()).find("expected ')'") != std::string::npos);
  }
  CHECK_THROWS_AS(parse_cute_layout("Layout<Shape<_4,_8>, Stride<_1,_4>"), Error);
  CHECK_THROWS_AS(parse_cute_layout("Layout<Shape<_4,x>>"), Error);
  CHECK_THROWS_AS(parse_cute_layout("(4,8):(1,4) extra"), Error);
  CHECK_THROWS_AS(parse_cute_layout("(4,8):(1,99999999999999999999)"), Error);
  CHECK_THROWS_AS(parse_cute_layout("(4,8):(1,_99999999999999999999)"), Error);
  CHECK_THROWS_AS(parse_cute_layout("(4,8):(1,2147483648)"), Error);
  // Sizes saturate instead of overflowing.
  CHECK(parse_cute_layout("(2147483647,2147483647,2147483647)").size() == std::numeric_limits<std::int64_t>::max());
}

}  // namespace test_cute_layout
