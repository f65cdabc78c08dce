// core/base/json: one-line output that is always valid JSON, and malformed
// JSON input reported at its line and column.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "core/base/error.h"
#include "core/base/json.h"

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
