// `mmacheck layout EXPR [--shape ...] [--json]` run as a program: the JSON
// contract of ../shared/DESIGN.md ("JSON outputs"), the text grid, and exit status 2 with a located
// `error:` and a caret for each kind of bad input.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "core/base/json.h"
#include "tests/support.h"

namespace test_cli_layout {

using mmacheck::test::run_mmacheck;
using mmacheck::test::RunResult;
using mmacheck::Json;

namespace {

const std::string kAFrag = "S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)].tile_to([16, 16], [16, 8])";

int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("layout --json reports the iters exactly as the expression evaluates", "[cli]") {
  const RunResult r = run_mmacheck({"layout", kAFrag, "--json"});
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  REQUIRE(count(r.out, "\n") == 1);
  const Json j = Json::parse(r.out);
  CHECK(j.dump() == R"({"file":null,"verdict":"evaluated",)"
                    R"("layout":"S[(2, 8, 2, 4, 2) : (2, 4@laneid, 4, 1@laneid, 1)]",)"
                    R"("shard":[[2,2,"m"],[8,4,"laneid"],[2,4,"m"],[4,1,"laneid"],[2,1,"m"]],)"
                    R"("replica":[],"offset":{},"span":{"laneid":32,"m":8},"notes":[]})");
}

TEST_CASE("layout --shape --json lists every coordinate with its owners", "[cli]") {
  const RunResult r = run_mmacheck({"layout", kAFrag, "--shape", "16,16", "--json"});
  REQUIRE(r.status == 0);
  const Json j = Json::parse(r.out);
  CHECK(j["shape"] == Json::array({16, 16}));
  const Json& map = j["map"];
  REQUIRE(map.size() == 256);
  CHECK(map[0].dump() == R"({"coord":[0,0],"owners":[{"laneid":0,"m":0}]})");
  CHECK(map[1].dump() == R"({"coord":[0,1],"owners":[{"laneid":0,"m":1}]})");
  // Row-major order; a k16 slot = 4*kHi + 2*rM + kp (README.md, "First example: the seed's erratum").
  CHECK(map[8 * 16].dump() == R"({"coord":[8,0],"owners":[{"laneid":0,"m":2}]})");
  CHECK(map[8].dump() == R"({"coord":[0,8],"owners":[{"laneid":0,"m":4}]})");
  CHECK(map[255].dump() == R"({"coord":[15,15],"owners":[{"laneid":31,"m":7}]})");
}

TEST_CASE("replicas, offsets and grouped layouts in JSON", "[cli]") {
  const RunResult r =
      run_mmacheck({"layout", "S[(16, 2) : (1@laneid, 1)] + R[2 : 16@laneid] + 4", "--shape", "16, 2", "--json"});
  REQUIRE(r.status == 0);
  const Json j = Json::parse(r.out);
  CHECK(j["replica"].dump() == R"([[2,16,"laneid"]])");
  CHECK(j["offset"].dump() == R"({"m":4})");
  CHECK(j["map"][3].dump() == R"({"coord":[1,1],"owners":[{"laneid":1,"m":5},{"laneid":17,"m":5}]})");
  const RunResult g = run_mmacheck({"layout", kAFrag + ".group([16, 16])", "--json"});
  REQUIRE(g.status == 0);
  CHECK(Json::parse(g.out)["seps"] == Json::array({0, 2, 5}));
}

TEST_CASE("layout text output: spans and a grid of lane:slot cells", "[cli]") {
  const RunResult r = run_mmacheck({"layout", "S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]", "--shape", "16,8"});
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::StartsWith("layout  S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]\n"
                                      "span    laneid 32, m 4\n"));
  // D[9][3] lives in lane 5, slot 3 (tile_layout.h's example).
  CHECK_THAT(r.out, Catch::Contains("\n 9   T4:2   T4:3   T5:2   T5:3   T6:2   T6:3   T7:2   T7:3\n"));
  const RunResult rep = run_mmacheck({"layout", "S[(16, 2) : (1@laneid, 1)] + R[2 : 16@laneid]", "--shape", "16,2"});
  REQUIRE(rep.status == 0);
  CHECK_THAT(rep.out, Catch::Contains(" 0   T0:0|T16:0   T0:1|T16:1\n"));
  const RunResult warps = run_mmacheck({"layout", "S[(2, 4) : (1@warpid, 1@laneid)]", "--shape", "8"});
  REQUIRE(warps.status == 0);
  CHECK_THAT(warps.out, Catch::Contains("(5)  W1.T1\n"));
  const RunResult plain = run_mmacheck({"layout", "S[8]"});
  REQUIRE(plain.status == 0);
  CHECK(plain.out == "layout  S[8 : 1]\nspan    m 8\n");
}

TEST_CASE("bad expressions exit 2 with <expr>:1:COL, the expression and a caret", "[cli]") {
  struct Case {
    const char* expr;
    const char* first_line;
    const char* caret;
  };
  const Case cases[] = {
      {"S[(2, 8 : (1, 2)", "<expr>:1:9: error: expected ')' to close '(' opened at column 3, got ':'", "          ^"},
      {"S[0 : 1]", "<expr>:1:3: error: extent must be positive, got 0", "    ^"},
      {"S[-4 : 1]", "<expr>:1:3: error: extent must be positive, got -4", "    ^"},
      {"S[(3, 4) : (4, 1)].group([2, 6])",
       "<expr>:1:20: error: layout S[(3, 4) : (4, 1)] can not be grouped by shape [2, 6]", nullptr},
      {"S[(2, 8) : (1, 2)].slice([16], [(3, 9)])", "<expr>:1:20: error: layout S[(2, 8) : (1, 2)] can not be sliced",
       nullptr},
      {"A_FRG.tile_to([16, 16], [16, 8])", "<expr>:1:1: error: unknown name 'A_FRG' (no layouts are defined)", "  ^"},
      {"S[8 : 1@lanied]", "<expr>:1:9: error: unknown axis 'lanied'", nullptr},
      {"S[8] \xe2\x80\xa6", "<expr>:1:6: error: unexpected '\xe2\x80\xa6' after the layout expression", nullptr},
  };
  for (const Case& c : cases) {
    INFO(c.expr);
    const RunResult r = run_mmacheck({"layout", c.expr});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::StartsWith(c.first_line));
    CHECK_THAT(r.err, Catch::Contains(std::string("\n  ").append(c.expr).append("\n")));
    if (c.caret) CHECK_THAT(r.err, Catch::EndsWith(std::string("\n").append(c.caret).append("\n")));
  }
}

TEST_CASE("a shape the layout does not admit, and bad usage, exit 2", "[cli]") {
  const RunResult r = run_mmacheck({"layout", kAFrag, "--shape", "16,8"});
  CHECK(r.status == 2);
  CHECK(r.err == "error: --shape [16, 8] has 128 elements but the layout covers 256\n");
  for (const char* bad : {"16,x", "16,,8", "0,8", "-16", "", "99999999999999999999"}) {
    INFO(bad);
    const RunResult s = run_mmacheck({"layout", "S[8]", "--shape", bad});
    CHECK(s.status == 2);
    CHECK_THAT(s.err, Catch::StartsWith("error: --shape: expected positive integers separated by ','"));
  }
  CHECK(run_mmacheck({"layout", "S[1 << 30]"}).status == 2);
  const RunResult big = run_mmacheck({"layout", "S[(65536, 65536) : (1, 65536)]", "--shape", "65536,65536"});
  CHECK(big.status == 2);
  CHECK_THAT(big.err, Catch::Contains("the map would list more than"));
  const RunResult missing = run_mmacheck({"layout"});
  CHECK(missing.status == 2);
  CHECK_THAT(missing.err, Catch::Contains("missing EXPR"));
  CHECK(run_mmacheck({"layout", "S[8]", "--bogus"}).status == 2);
}

TEST_CASE("bad layout files exit 2 with FILE:LINE:COL", "[cli]") {
  // (It used to skip itself looking for a help line that never was: prove's line is "  mmacheck prove ...".)
  const std::string path = "/tmp/mmacheck-test-bad-layout-file.txt";
  {
    std::ofstream out(path);
    out << "A = S[8]\nB = A_FRG.tile_to([16], [8])\n";
  }
  const RunResult r = run_mmacheck({"prove", path});
  std::remove(path.c_str());
  CHECK(r.status == 2);
  // The file names no gemm, so the front door says so, with the program reader's error where it stands.
  CHECK_THAT(r.err,
             Catch::StartsWith(path + ":2:5: error: ") && Catch::Contains("unknown name 'A_FRG' (known layouts: A)"));
}

}  // namespace test_cli_layout
