// Errors quote the input; a huge token must still give a short message
// (core/base/error.h), whichever front end meets it.
#include <catch2/catch.hpp>
#include <string>

#include "core/base/error.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"

namespace test_error_messages {

using namespace mmacheck;

TEST_CASE("an error quoting a huge token keeps its head and tail", "[errors]") {
  const std::string token(40'000'000, 'a');
  try {
    parse_program(token + "\n", "big.py");
    FAIL("a 40 MB name parsed as a program");
  } catch (const Error& e) {
    const std::string what = e.what();
    CHECK(what.size() < 1000);
    CHECK(what.rfind("big.py:1:1: error: ", 0) == 0);
    CHECK_THAT(what, Catch::Contains("bytes left out"));
    CHECK(e.message().size() < 1000);
  }
  // Short messages are untouched.
  const Error small(SourceLoc{"f.txt", 2, 3}, "unknown buffer '" + std::string(100, 'q') + "'");
  CHECK(small.message() == "unknown buffer '" + std::string(100, 'q') + "'");
}

TEST_CASE("an error quoting control bytes shows them as \\xNN, whichever reader quotes them", "[errors]") {
  // ESC, OSC, BEL and a C1 CSI would drive the terminal; a NUL would cut the message short.
  const std::string raw =
      std::string("dtype 'f16\x1b[31m\x07\x1b]0;t\x07 \xc2\x9b") + '\0' + "tail' \xc2\xb7 ok\n\tnext";
  const Error e(SourceLoc{"f\x1b.py", 4, 2}, raw);
  const std::string what = e.what();
  CHECK(what ==
        "f\\x1b.py:4:2: error: dtype 'f16\\x1b[31m\\x07\\x1b]0;t\\x07 \\xc2\\x9b\\x00tail' \xc2\xb7 ok\n\tnext");
  CHECK(e.message().find('\0') == std::string::npos);
  // A released-TIRx dtype string holding ESC: the reader's message quotes it, escaped.
  const std::string program =
      "from tvm_tirx.script import tirx as T\n\n@T.function\n"
      "def main(A: T.Tensor((16, 16), \"float16\x1b[2J\")):\n    pass\n";
  try {
    parse_program(program, "k.py");
    FAIL("a dtype with ESC was read");
  } catch (const Error& err) {
    const std::string w = err.what();
    CHECK(w.find('\x1b') == std::string::npos);
    CHECK_THAT(w, Catch::Contains("float16\\x1b[2J"));
  }
}

}  // namespace test_error_messages
