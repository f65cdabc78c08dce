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

}  // namespace test_error_messages
