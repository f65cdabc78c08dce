// `mmacheck cute FILE [--json]` run as a program: exit statuses, the text
// summary, the JSON contract, located errors for bad input.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "core/base/json.h"
#include "tests/support.h"

namespace test_cute_cli {

using mmacheck::Json;
using mmacheck::test::run_mmacheck;
using mmacheck::test::RunResult;
using mmacheck::test::source_path;

TEST_CASE("cute: the pre-#3140 BLayout exits 1 with the counterexample, the fix exits 0", "[cli][cute]") {
  const RunResult before = run_mmacheck({"cute", source_path("tests/data/cute/pr3140_before.txt")});
  CHECK(before.status == 1);
  CHECK(before.out.find("B: refuted: thread 1 value 0 holds (n=0, k=4), PTX puts (n=0, k=8) there") !=
        std::string::npos);
  CHECK(before.out.find("1 atoms: 0 proved, 1 refuted, 0 ill_formed, 0 unchecked") != std::string::npos);
  const RunResult after = run_mmacheck({"cute", source_path("tests/data/cute/pr3140_after.txt")});
  CHECK(after.status == 0);
  CHECK(after.out.find("1 atoms: 1 proved") != std::string::npos);
}

TEST_CASE("cute --json prints the atoms with their operands, keys as documented", "[cli][cute]") {
  const RunResult r = run_mmacheck({"cute", source_path("tests/data/cute/pr3140_before.txt"), "--json"});
  REQUIRE(r.status == 1);
  const Json j = Json::parse(r.out);
  REQUIRE(j.size() == 5);
  CHECK(j["file"] == source_path("tests/data/cute/pr3140_before.txt"));
  CHECK(j["verdict"] == "refuted");
  CHECK(j["unchecked"] == Json::array());
  CHECK(j["notes"] == Json::array());
  REQUIRE(j["atoms"].size() == 1);
  const Json& atom = j["atoms"][0];
  std::vector<std::string> keys;
  for (auto it = atom.begin(); it != atom.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"atom", "instruction", "operands", "result"});
  CHECK(atom["atom"] == "SM80_16x8x32_S32S4S4S32_TN");
  CHECK(atom["instruction"] == "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32");
  CHECK(atom["result"] == "refuted");
  REQUIRE(atom["operands"].size() == 3);
  const Json& b = atom["operands"][1];
  keys.clear();
  for (auto it = b.begin(); it != b.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"operand", "result", "counterexample", "message"});
  CHECK(b["operand"] == "B");
  CHECK(b["result"] == "refuted");
  CHECK(b["counterexample"]["thread"] == 1);
  CHECK(b["counterexample"]["value"] == 0);
  CHECK(b["counterexample"]["coordinate"] == Json{{"n", 0}, {"k", 4}});
  CHECK(b["counterexample"]["ptx"] == Json{{"n", 0}, {"k", 8}});
  CHECK(atom["operands"][0]["counterexample"].is_null());
  CHECK(atom["operands"][0]["result"] == "proved");
}

TEST_CASE("cute on a header: ill-formed atoms fail the run", "[cli][cute]") {
  const RunResult r = run_mmacheck({"cute", source_path("tests/data/cute/mma_traits_mini.hpp"), "--json"});
  CHECK(r.status == 1);
  const Json j = Json::parse(r.out);
  REQUIRE(j["atoms"].size() == 7);
  CHECK(j["atoms"][6]["result"] == "unchecked");
  CHECK(j["atoms"][6]["instruction"].is_null());
  const RunResult dsl = run_mmacheck({"cute", source_path("tests/data/cute/dsl_atoms.txt")});
  CHECK(dsl.status == 0);
}

TEST_CASE("cute: bad input exits 2 with a located error", "[cli][cute]") {
  const RunResult missing = run_mmacheck({"cute", "/nonexistent/atoms.txt"});
  CHECK(missing.status == 2);
  CHECK(missing.err.find("error:") != std::string::npos);
  CHECK(run_mmacheck({"cute"}).status == 2);

  const std::string path = "cute_cli_bad.txt";
  {
    std::ofstream out(path);
    out << "# bad\nSM80_16x8x8_F16F16F16F16_TN: A = ((4,8),(2,2)):((32,1),(16,8),\n";
  }
  const RunResult bad = run_mmacheck({"cute", path});
  std::remove(path.c_str());
  CHECK(bad.status == 2);
  CHECK(bad.err.find("cute_cli_bad.txt:3:1: error:") != std::string::npos);
  CHECK(bad.out.empty());
}

TEST_CASE("triton: the wheel's layouts exit 0, #3580's reuse exits 1, JSON keys as documented", "[cli][triton]") {
  // Two layouts are unchecked: exit 1 (unchecked is not success) unless --allow-unchecked.
  const RunResult strict = run_mmacheck({"triton", source_path("tests/data/triton/mma_v2.json")});
  CHECK(strict.status == 1);
  CHECK(strict.out.find("25 layouts: 23 proved, 0 refuted, 0 ill_formed, 2 unchecked") != std::string::npos);
  CHECK(strict.out.find("2 unchecked (exit 1: unchecked is not success; --allow-unchecked accepts it):") !=
        std::string::npos);
  const RunResult ok = run_mmacheck({"triton", source_path("tests/data/triton/mma_v2.json"), "--allow-unchecked"});
  CHECK(ok.status == 0);
  CHECK(ok.out.find("2 unchecked (accepted: --allow-unchecked)") != std::string::npos);
  CHECK(ok.out.find("zero bases: register[3]") != std::string::npos);
  const RunResult bad = run_mmacheck({"triton", source_path("tests/data/triton/chained_int8.json"), "--json"});
  CHECK(bad.status == 1);
  const Json j = Json::parse(bad.out);
  REQUIRE(j["layouts"].size() == 2);
  const Json& l = j["layouts"][0];
  std::vector<std::string> keys;
  for (auto it = l.begin(); it != l.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"name", "operand", "instruction", "result", "counterexample", "zero_bases",
                                         "k_permutation", "message"});
  CHECK(l["result"] == "refuted");
  CHECK(l["instruction"] == "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
  CHECK(l["counterexample"]["register"] == 2);
  CHECK(l["counterexample"]["coordinate"] == Json::array({8, 0}));
  CHECK(l["counterexample"]["ptx"] == Json::array({0, 2}));
  CHECK(run_mmacheck({"triton", "/nonexistent.json"}).status == 2);
  const std::string path = "triton_cli_bad.json";
  {
    std::ofstream out(path);
    out << "{\"operands\": [\n  {\"operand\": \"a\", \"dtype\": \"f16\", \"k_width\": 2,\n"
           "   \"layout\": \" - register=1 -> (0, 1)\\n   register=4 -> (8, 0)\\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]\"}]}\n";
  }
  const RunResult malformed = run_mmacheck({"triton", path});
  std::remove(path.c_str());
  CHECK(malformed.status == 2);
  CHECK(malformed.err.find("error: register=4 where register=2 comes next") != std::string::npos);
}

}  // namespace test_cute_cli
