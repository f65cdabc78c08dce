// `mmacheck FILE` / `mmacheck prove FILE`: the JSON object of ../shared/DESIGN.md, the
// text report, exit statuses, and bad input reported at its position.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/base/json.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_prove_cli {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// Writes `text` to a fresh file named `name` in a per-process temp folder.
std::string temp_file(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("mmacheck-prove-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("prove --json prints the design notes' object for the seed", "[prove]") {
  const RunResult r = run_mmacheck({"prove", source_path("examples/seed.txt"), "--json"});
  CHECK(r.status == 1);
  CHECK(r.err.empty());
  REQUIRE(!r.out.empty());
  CHECK(r.out.find('\n') == r.out.size() - 1);
  const Json j = Json::parse(r.out);
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"file", "verdict", "instruction", "tiles", "mma_count", "reasons", "checks",
                                         "counterexamples", "diagnosis", "notes"});
  CHECK(j["notes"].empty());  // the seed stages every operand
  CHECK(j["verdict"] == "refuted");
  CHECK(j["instruction"] == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  CHECK(j["tiles"].dump() == R"({"M":1,"N":1,"K":1})");
  CHECK(j["mma_count"] == 1);
  CHECK(j["reasons"].empty());
  REQUIRE(!j["checks"].empty());
  CHECK(j["checks"][0]["name"] == "A frame");
  CHECK(j["checks"][0]["result"] == "proved");
  CHECK(j["checks"][0]["method"] == "z3");
  CHECK(j["checks"][0]["ms"].is_number());
  bool stage_a_refuted = false;
  for (const Json& c : j["checks"]) stage_a_refuted |= c["name"] == "stage A" && c["result"] == "refuted";
  CHECK(stage_a_refuted);
  REQUIRE(!j["counterexamples"].empty());
  const Json& cx = j["counterexamples"][0];
  CHECK(cx["check"] == "stage A");
  CHECK(cx["lane"] == 0);
  CHECK(cx["slot"] == 2);
  CHECK(cx["expected"] == Json::array({8, 0}));
  CHECK(cx["actual"] == Json::array({0, 8}));
  CHECK(cx["operand"] == "A");
  CHECK(cx["message"].is_string());
}

TEST_CASE("plain `mmacheck FILE` proves, with the exhaustive method on request", "[prove]") {
  const RunResult r = run_mmacheck({source_path("examples/seed_corrected.txt"), "--method", "exhaustive"});
  CHECK(r.status == 0);
  CHECK(r.out.find("instruction: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n") == 0);
  CHECK(r.out.find("tiling: M 1 x N 1 x K 1 tiles per warp, 1 mma\n") != std::string::npos);
  CHECK(r.out.find("checks (exhaustive):\n") != std::string::npos);
  CHECK(r.out.find("  stage A") != std::string::npos);
  CHECK(r.out.find("verdict: proved (all 12 checks)\n") != std::string::npos);
}

TEST_CASE("the text report gives the counterexample in words and the verdict last", "[prove]") {
  const RunResult r = run_mmacheck({source_path("examples/seed.txt")});
  CHECK(r.status == 1);
  CHECK(r.out.find("  stage A: lane 0, slot 2: stage A loads A_g[0][8] but A_FRAG places A[8][0]\n") !=
        std::string::npos);
  CHECK(r.out.substr(r.out.rfind("verdict:")) == "verdict: refuted (2 of 12 checks refuted)\n");
}

TEST_CASE("a declined gemm prints the dispatch's reasons and exits 1", "[prove]") {
  const RunResult text = run_mmacheck({source_path("examples/reject_shared.txt")});
  CHECK(text.status == 1);
  CHECK(text.out.find("dispatch failed:\n  declined — gemm mma requires") == 0);
  CHECK(text.out.find("verdict: dispatch_failed\n") != std::string::npos);
  const RunResult json = run_mmacheck({"prove", source_path("examples/reject_shared.txt"), "--json"});
  CHECK(json.status == 1);
  const Json j = Json::parse(json.out);
  CHECK(j["verdict"] == "dispatch_failed");
  CHECK(j["instruction"].is_null());
  CHECK(j["tiles"].dump() == R"({"M":0,"N":0,"K":0})");
  CHECK(j["mma_count"] == 0);
  REQUIRE(!j["reasons"].empty());
  CHECK_THAT(j["reasons"][0].get<std::string>(), Catch::StartsWith("declined — "));
  CHECK(j["checks"].empty());
  CHECK(j["counterexamples"].empty());
}

TEST_CASE("with no time to solve, every z3 check is unknown and the run exits 1", "[prove]") {
  const RunResult r = run_mmacheck({source_path("examples/seed_corrected.txt"), "--timeout-ms", "0", "--json"});
  CHECK(r.status == 1);
  const Json j = Json::parse(r.out);
  CHECK(j["verdict"] == "unknown");
  REQUIRE(!j["checks"].empty());
  for (const Json& c : j["checks"]) CHECK(c["result"] != "proved");
}

TEST_CASE("bad input exits 2 with FILE:LINE:COL", "[prove]") {
  const std::string head = R"(D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]
A = buffer((16, 16), float16, local, D_FRAG.tile_to([16, 16], [16, 8]))
B = buffer((16, 8), float16, local, S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8]))
D = buffer((16, 8), float32, local, D_FRAG)
)";
  const auto run = [](const std::string& name, const std::string& text) {
    const std::string path = temp_file(name, text);
    const RunResult r = run_mmacheck({path});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    return std::pair{path, r.err};
  };
  SECTION("a stage on a shared buffer") {
    const auto [path, err] =
        run("shared.txt", head +
                              "S_A = buffer((16, 16), float16, shared, D_FRAG.tile_to([16, 16], [16, 8]))\n"
                              "gemm(D, A, B, D)\nstage S_A[s] = A_g[lane, s]\n");
    CHECK(err == path +
                     ":7:1: error: stage S_A: 'S_A' is a shared buffer; stage and store move register (local) buffers\n"
                     "  stage S_A[s] = A_g[lane, s]\n  ^\n");
  }
  SECTION("a store whose target has another shape is the program's mistake: refuted, not bad input") {
    const std::string path = temp_file("shape.txt", head +
                                                        "D_g = buffer((32, 8), float32, global)\ngemm(D, A, B, D)\n"
                                                        "store D[s] -> D_g[lane, s]\n");
    const RunResult r = run_mmacheck({path});
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::Contains("program: the output of the gemm comes from D_g, a (32, 8) tensor, but its "
                                      "buffer D is (16, 8)"));
    CHECK_THAT(r.out, Catch::Contains("store D -> D_g (line 7) moves D_g, a (32, 8) tensor, and D, a (16, 8) buffer"));
  }
  SECTION("a stage on an unknown buffer") {
    const auto [path, err] = run("unknown.txt", head + "gemm(D, A, B, D)\nstage Q[s] = A_g[lane, s]\n");
    CHECK(err.rfind(path + ":6:7: error: stage on unknown buffer 'Q'", 0) == 0);
    // The source line and a caret under column 7.
    CHECK(err.find("\n  stage Q[s] = A_g[lane, s]\n        ^\n") != std::string::npos);
  }
  SECTION("operands whose K disagree") {
    const auto [path, err] =
        run("k.txt", head +
                         "B2 = buffer((8, 8), float16, local, S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])\n"
                         "gemm(D, A, B2, D)\n");
    CHECK(err.rfind(path + ":6:", 0) == 0);
    CHECK(err.find("error: gemm mma: A K=16 != B K=8") != std::string::npos);
  }
  SECTION("a division by zero in a staging expression") {
    const auto [path, err] = run("div.txt", head + "gemm(D, A, B, D)\nstage A[s] = A_g[lane // (s - 3), s]\n");
    CHECK(err.rfind(path + ":6:", 0) == 0);
    CHECK(err.find("division by zero") != std::string::npos);
  }
  SECTION("an unknown method") {
    const RunResult r = run_mmacheck({source_path("examples/seed.txt"), "--method", "guess"});
    CHECK(r.status == 2);
    CHECK(r.err == "error: unknown proof method 'guess' (expected z3, z3-unrolled or exhaustive)\n");
  }
}

TEST_CASE("a mistyped command is named, the nearest command suggested and the commands listed", "[cli]") {
  const RunResult r = run_mmacheck({"proove", "examples/seed.txt"});
  CHECK(r.status == 2);
  CHECK(r.err.find("unknown command 'proove'; did you mean 'prove'?") != std::string::npos);
  CHECK(r.err.find("(commands: help prove layout emit sim replay bench gpu capture draw)") != std::string::npos);

  const RunResult far = run_mmacheck({"frobnicate"});
  CHECK(far.status == 2);
  CHECK(far.err.find("unknown command 'frobnicate' (commands:") != std::string::npos);
  CHECK(far.err.find("did you mean") == std::string::npos);

  // A word with a path or an extension is still a file to prove.
  const RunResult file = run_mmacheck({"no_such_file.txt"});
  CHECK(file.status == 2);
  CHECK(file.err.find("unknown command") == std::string::npos);
  CHECK(file.err.find("no_such_file.txt") != std::string::npos);
}

}  // namespace test_prove_cli
