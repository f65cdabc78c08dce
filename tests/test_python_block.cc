// The shared Python-syntax structure (core/program/python_block.h) that the
// TVMScript and released-TIRx readers both walk: what belongs to which
// block, and the located errors for a broken structure.  The statement here
// is a stand-in that records `NAME` statements and opens a suite at
// `for NAME:`, so the test sees the structure alone.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/program/python_block.h"
#include "tests/support.h"

namespace test_python_block {

using namespace mmacheck;

namespace {

// "x@0 y@1": each simple statement with the depth of the suites around it.
struct Walk {
  TokenCursor in;
  int depth = 0;
  std::string seen;

  explicit Walk(const std::string& text) : in(tokenize(text, "t.py")) {}
  void statement() {
    if (in.peek().is_name("for")) {
      const Token& header = in.next();
      in.expect_name("a name");
      ++depth;
      python::suite(in, header, [this] { statement(); });
      --depth;
      return;
    }
    if (python::skip_import(in)) {
      seen += (seen.empty() ? "" : " ") + std::string("import@") + std::to_string(depth);
      return;
    }
    const Token& t = in.expect_name("a name");
    seen += (seen.empty() ? "" : " ") + t.text + "@" + std::to_string(depth);
  }
  std::string run() {
    python::block(in, 0, nullptr, [this] { statement(); });
    return seen;
  }
};

std::string walk(const std::string& text) { return Walk(text).run(); }

std::string error_of(const std::string& text) {
  try {
    walk(text);
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("python blocks: statements go to the block their indentation names", "[program][python]") {
  CHECK(walk("a\nfor i:\n    b\n    c\nd\n") == "a@0 b@1 c@1 d@0");
  CHECK(walk("for i:\n  for j:\n    b\n  c\nd\n") == "b@2 c@1 d@0");
  CHECK(walk("a; b\n\n\nc\n") == "a@0 b@0 c@0");
  CHECK(walk("from x import y\nimport z; a\n") == "import@0 import@0 a@0");
}

TEST_CASE("python blocks: simple statements after a suite's ':' all belong to it", "[program][python]") {
  // Python's rule: `for i: b; c` has both in the loop (the released-TIRx
  // reader once read `c` in the enclosing block).
  CHECK(walk("for i: b; c\nd\n") == "b@1 c@1 d@0");
  CHECK(walk("for i:\n    for j: b; c\n    e\n") == "b@2 c@2 e@1");
}

TEST_CASE("python blocks: a broken structure is a located error", "[program][python]") {
  const std::string over = error_of("for i:\n    b\n      c\n");
  CHECK(over.find("3:7: ") == 0);
  CHECK(over.find("unexpected indent (the block of 'for' at line 1 is indented to column 5)") != std::string::npos);
  const std::string none = error_of("for i:\nb\n");
  CHECK(none.find("2:1: ") == 0);
  CHECK(none.find("expected an indented block after 'for' at line 1") != std::string::npos);
  CHECK(error_of("for i:\n").find("expected an indented block after 'for' at line 1, got end of input") !=
        std::string::npos);
  CHECK(error_of("for i\n    b\n").find("expected ':' at the end of the 'for' line") != std::string::npos);
  CHECK(error_of("a b\n").find("1:3: ") == 0);
  CHECK(error_of("for i: a b\n").find("unexpected 'b' after the statement") != std::string::npos);
}

TEST_CASE("python blocks: a decorator must be followed by what it decorates", "[program][python]") {
  TokenCursor ok(tokenize("@T.prim_func\n\n\ndef f", "t.py"));
  const Token& at = ok.next();
  ok.next(), ok.next(), ok.next();  // T . prim_func
  python::expect_decorated(ok, at, "prim_func", "def");
  CHECK(ok.peek().is_name("def"));

  TokenCursor bad(tokenize("@T.function\nclass C", "t.py"));
  const Token& at2 = bad.next();
  bad.next(), bad.next(), bad.next();
  try {
    python::expect_decorated(bad, at2, "T.function", "def");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.loc().line == 1);
    CHECK(e.loc().col == 1);
    CHECK(std::string(e.what()).find("@T.function must be followed by a def") != std::string::npos);
  }
}

}  // namespace test_python_block
