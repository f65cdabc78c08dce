// core/base/json: one-line output that is always valid JSON, and malformed
// JSON input reported at its line and column.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/base/json_source.h"

namespace test_json {

using namespace mmacheck;

TEST_CASE("json_line keeps key order, replaces bad UTF-8 and writes non-finite numbers as null", "[json]") {
  Json j = {{"z", 1},
            {"a", std::string("x\xff"
                              "y")},
            {"nan", std::nan("")},
            {"inf", HUGE_VAL}};
  const std::string line = json_line(j);
  CHECK(line == "{\"z\":1,\"a\":\"x\xEF\xBF\xBDy\",\"nan\":null,\"inf\":null}");
  CHECK(line.find('\n') == std::string::npos);
  CHECK(Json::parse(line)["a"] == "x\xEF\xBF\xBDy");
}

TEST_CASE("parse_json reads a value and locates a malformed one", "[json]") {
  CHECK(parse_json(R"({"bases": [[1, 0], [0, 2]]})", "l.json")["bases"][1][1] == 2);
  try {
    parse_json("{\n  \"a\": [1, 2,\n  ]\n}", "l.json");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.loc().file == "l.json");
    CHECK(e.loc().line == 3);
    CHECK(e.loc().col == 3);
    CHECK_THAT(e.message(), Catch::StartsWith("malformed JSON: "));
  }
}

// A number too large for a double is nlohmann's out_of_range 406, which
// carries no position (the fuzzer found it crashing `mmacheck triton`).
TEST_CASE("parse_json locates a number out of range, in a file or through JsonSource", "[json]") {
  const std::string big = "1" + std::string(400, '0') + "E999";
  const std::string text = "{\"operands\": [\n  {\"x\": " + big + "}\n]}";
  for (int through_source = 0; through_source < 2; ++through_source) {
    try {
      if (through_source) (void)JsonSource(text, "t.json");
      else (void)parse_json(text, "t.json");
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.loc().file == "t.json");
      CHECK(e.loc().line == 2);
      CHECK(e.loc().col == 9);
      CHECK_THAT(e.message(), Catch::StartsWith("malformed JSON: number overflow parsing '1000"));
      CHECK(e.message().size() < 200);  // the number is named, not repeated whole
    }
  }
}

}  // namespace test_json
