// Index expressions of `stage` / `store` statements: Python precedence and
// floor semantics, printing, and errors placed at the offending token.
#include <catch2/catch.hpp>

#include <string>

#include "core/base/error.h"
#include "core/program/index_expr.h"

namespace test_index_expr {

using namespace mmacheck;

namespace {

std::int64_t eval(const std::string& text, IndexEnv env = {}) { return parse_index_expr(text, "<e>").eval(env); }

// The error text of parsing (and evaluating) `text`, or "" when none.
std::string error_of(const std::string& text) {
  try {
    eval(text, IndexEnv{3, 1, 35, 2});
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("index expressions follow Python precedence and associativity", "[index_expr]") {
  CHECK(eval("1 + 2 * 3") == 7);
  CHECK(eval("(1 + 2) * 3") == 9);
  CHECK(eval("10 - 4 - 3") == 3);
  CHECK(eval("2 * 3 // 4") == 1);
  CHECK(eval("7 // 2 * 2") == 6);
  CHECK(eval("-2 * 3") == -6);
  CHECK(eval("- - 5") == 5);
  CHECK(eval("+5 - -5") == 10);
  CHECK(eval("17 % 5 * 2") == 4);
}

TEST_CASE("// and % floor, as in Python", "[index_expr]") {
  CHECK(eval("-7 // 2") == -4);
  CHECK(eval("-7 % 2") == 1);
  CHECK(eval("7 // -2") == -4);
  CHECK(eval("7 % -2") == -1);
  CHECK(eval("-8 // 2") == -4);
  CHECK(eval("-9223372036854775807 - 1 // 1") == std::numeric_limits<std::int64_t>::min());
}

TEST_CASE("variables lane, warp, tid and s", "[index_expr]") {
  const IndexEnv env{5, 2, 69, 3};
  CHECK(eval("lane", env) == 5);
  CHECK(eval("warp", env) == 2);
  CHECK(eval("tid", env) == 69);
  CHECK(eval("s", env) == 3);
  // The seed's staging of A (README.md, "Layout files"), against the formula written in C++.
  const IndexExpr row = parse_index_expr("lane // 4 + 8 * ((s // 2) % 2)", "<e>");
  const IndexExpr col = parse_index_expr("2 * (lane % 4) + s % 2 + 8 * (s // 4)", "<e>");
  for (int lane = 0; lane < 32; ++lane)
    for (int s = 0; s < 8; ++s) {
      const IndexEnv at{lane, 0, lane, s};
      CHECK(row.eval(at) == lane / 4 + 8 * ((s / 2) % 2));
      CHECK(col.eval(at) == 2 * (lane % 4) + s % 2 + 8 * (s / 4));
    }
}

TEST_CASE("str() prints Python with only the parentheses needed", "[index_expr]") {
  const auto round = [](const std::string& text) { return parse_index_expr(text, "<e>").str(); };
  CHECK(round("lane // 4 + 8 * ((s // 2) % 2)") == "lane // 4 + 8 * (s // 2 % 2)");
  CHECK(round("((lane))") == "lane");
  CHECK(round("1 - (2 - 3)") == "1 - (2 - 3)");
  CHECK(round("(1 - 2) - 3") == "1 - 2 - 3");
  CHECK(round("-(lane + 1)") == "-(lane + 1)");
  CHECK(round("- -lane") == "-(-lane)");
  CHECK(round("2 * (lane // 3)") == "2 * (lane // 3)");
  // Printing and re-parsing gives the same function.
  for (const std::string text : {"lane // 4 + 8 * ((s // 2) % 2)", "-(s - 3) * -2 % 5", "tid - 32 * warp"}) {
    const IndexExpr a = parse_index_expr(text, "<e>");
    const IndexExpr b = parse_index_expr(a.str(), "<e>");
    for (int lane = 0; lane < 32; lane += 7)
      for (int s = 0; s < 8; ++s) CHECK(a.eval({lane, 1, lane + 32, s}) == b.eval({lane, 1, lane + 32, s}));
  }
}

TEST_CASE("the tree records kinds, values and operator locations", "[index_expr]") {
  const IndexExpr e = parse_index_expr("lane // 4", "f.txt");
  CHECK(e.kind() == IndexExpr::Kind::floordiv);
  CHECK(e.loc().col == 6);
  CHECK(e.lhs().kind() == IndexExpr::Kind::lane);
  CHECK(e.rhs().value() == 4);
  CHECK(e.rhs().loc().col == 9);
  const IndexExpr built =
      IndexExpr::binary(IndexExpr::Kind::add, IndexExpr::variable(IndexExpr::Kind::slot), IndexExpr::literal(-3));
  CHECK(built.str() == "s + -3");
  CHECK(built.eval({0, 0, 0, 10}) == 7);
}

TEST_CASE("errors name the offending token and its column", "[index_expr]") {
  CHECK(error_of("lane // (s - s)") == "<e>:1:6: error: division by zero");
  CHECK(error_of("lane % (s - 2)") == "<e>:1:6: error: modulo by zero");
  CHECK(error_of("9223372036854775807 + lane") == "<e>:1:21: error: integer overflow in index expression");
  CHECK(error_of("-(-9223372036854775807 - 1)") == "<e>:1:1: error: integer overflow in index expression");
  CHECK(error_of("lane + x") == "<e>:1:8: error: unknown variable 'x' (known: lane, warp, tid, s)");
  CHECK(error_of("lane / 4") == "<e>:1:6: error: use '//' for division ('/' is not integer division)");
  CHECK(error_of("(lane + 1") == "<e>:1:10: error: expected ')' to close '(' opened at column 1, got end of input");
  CHECK(error_of("lane lane") == "<e>:1:6: error: unexpected 'lane' after the expression");
  CHECK(error_of("lane +") == "<e>:1:7: error: expected an integer expression, got end of input");
  CHECK(error_of("1.5 * lane") == "<e>:1:1: error: expected an integer, got '1.5'");
  CHECK(error_of("") == "<e>:1:1: error: expected an integer expression, got end of input");
  CHECK(error_of("lane $ 2") == "<e>:1:6: error: unexpected character '$'");
  CHECK(error_of("99999999999999999999") ==
        "<e>:1:1: error: integer 99999999999999999999 is too large (limit 9223372036854775807)");
}

TEST_CASE("deep nesting is an error, not a crash", "[index_expr]") {
  const std::string deep = std::string(5000, '(') + "lane" + std::string(5000, ')');
  CHECK_THAT(error_of(deep), Catch::Contains("nested too deeply"));
  const std::string negs = std::string(5000, '-') + "lane";
  CHECK_THAT(error_of(negs), Catch::Contains("nested too deeply"));
  const std::string fine = std::string(50, '(') + "lane" + std::string(50, ')');
  CHECK(error_of(fine).empty());
  std::string chain = "lane";
  for (int i = 0; i < 100000; ++i) chain += " + 1";
  CHECK_THAT(error_of(chain), Catch::Contains("index expression too long (limit 1000 operators)"));
}

}  // namespace test_index_expr
