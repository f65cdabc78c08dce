// The diagnosis as `mmacheck prove` prints it (text and JSON), and the
// per-lane table of `mmacheck layout --by-lane`.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/base/json.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_diagnosis_cli {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("prove prints the diagnosis and the fix after TVM's decline", "[diagnosis][cli]") {
  const std::string path = write_temp("mmacheck-test-diag-d.txt",
                                      replace_once(kSeedCorrected, "(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])",
                                                   "(S[(2, 8, 4, 2) : (1, 4 @ laneid, 1 @ laneid, 2)])"));
  const RunResult r = run_mmacheck({"prove", path});
  CHECK(r.status == 1);
  CHECK(r.out.find(
            "dispatch failed:\n  declined — no mma instruction fits M=16, N=8, K=16, dtypes=('float16', "
            "'float16', 'float32', 'float32')\ndiagnosis:\n  as mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32:\n"
            "    D: lane 0, slot 1 holds D[8][0]; the m16n8k16 frame puts D[0][1] there  [frame]\n"
            "      fix: D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]  (the two register iters were "
            "swapped)\n") != std::string::npos);
  CHECK(r.out.find("verdict: dispatch_failed\n") != std::string::npos);

  const RunResult j = run_mmacheck({"prove", path, "--json"});
  CHECK(j.status == 1);
  const Json out = Json::parse(j.out);
  CHECK(out["verdict"] == "dispatch_failed");
  REQUIRE(out["diagnosis"].size() == 2);  // m16n8k16 and m16n8k8 both admit the dtypes and the shape
  const Json& d = out["diagnosis"][0];
  std::vector<std::string> keys;
  for (const auto& item : d.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"instruction", "operand", "property", "message", "counterexample", "fix",
                                         "fix_line", "fix_reason", "fix_proves"});
  CHECK(d["instruction"] == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  CHECK(d["operand"] == "D");
  CHECK(d["property"] == "frame");
  CHECK(
      d["counterexample"].dump() ==
      R"({"lane":0,"slot":1,"expected":[0,1],"actual":[8,0],"message":"lane 0, slot 1 holds D[8][0]; the m16n8k16 frame puts D[0][1] there"})");
  CHECK(d["fix"] == "S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]");
  CHECK(d["fix_proves"] == true);
  std::remove(path.c_str());
}

TEST_CASE("prove says when the dtypes need --inst-set extended", "[diagnosis][cli]") {
  const RunResult r = run_mmacheck({"prove", source_path("examples/ext_tf32_k8.txt")});
  CHECK(r.status == 1);
  CHECK(r.out.find("need --inst-set extended") != std::string::npos);
  CHECK(run_mmacheck({"prove", source_path("examples/ext_tf32_k8.txt"), "--inst-set", "extended"}).status == 0);
}

TEST_CASE("layout --by-lane: which elements a lane holds in which slot", "[layout][cli]") {
  const std::string d = "S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]";
  const RunResult all = run_mmacheck({"layout", d, "--shape", "16,8", "--by-lane"});
  CHECK(all.status == 0);
  CHECK(all.out.find("thread   slot 0  slot 1  slot 2   slot 3\nlane 0   (0, 0)  (0, 1)  (8, 0)   (8, 1)\n") !=
        std::string::npos);
  const RunResult five = run_mmacheck({"layout", d, "--shape", "16,8", "--by-lane", "--lane", "5"});
  CHECK(five.out.find("\nthread  slot 0  slot 1  slot 2  slot 3\nlane 5  (1, 2)  (1, 3)  (9, 2)  (9, 3)\n") !=
        std::string::npos);
  const Json j = Json::parse(run_mmacheck({"layout", d, "--shape", "16,8", "--by-lane", "--lane", "5", "--json"}).out);
  REQUIRE(j["by_lane"].size() == 1);
  CHECK(j["by_lane"][0]["thread"].dump() == R"({"laneid":5})");
  CHECK(j["by_lane"][0]["slots"][2].dump() == R"({"slot":{"m":2},"coords":[[9,2]]})");
  CHECK(run_mmacheck({"layout", d, "--by-lane"}).status == 2);                       // needs --shape
  CHECK(run_mmacheck({"layout", d, "--shape", "16,8", "--lane", "5"}).status == 2);  // --lane needs --by-lane
}

TEST_CASE("layout FILE --by-lane tables every register fragment of the file", "[layout][cli]") {
  const RunResult r = run_mmacheck({"layout", source_path("examples/cta_threads64_n.txt"), "--by-lane", "--lane", "5"});
  CHECK(r.status == 0);
  CHECK(r.out.find("A  [16, 16] float16  ") != std::string::npos);
  CHECK(r.out.find("warp 1 lane 5  (2, 9)  (3, 9)  (10, 9)  (11, 9)\n") != std::string::npos);  // B, warp 1
  const Json j = Json::parse(run_mmacheck({"layout", source_path("examples/seed.txt"), "--by-lane", "--json"}).out);
  REQUIRE(j["buffers"].size() == 3);
  CHECK(j["buffers"][0]["buffer"] == "A");
  CHECK(j["buffers"][0]["by_lane"].size() == 32);
  CHECK(j["buffers"][0]["by_lane"][0]["slots"][4].dump() == R"({"slot":{"m":4},"coords":[[0,8]]})");
}

}  // namespace test_diagnosis_cli
