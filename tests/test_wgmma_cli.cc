// `mmacheck wgmma` as a user runs it: exit statuses (0 proved, 1 refuted or
// unchecked, 2 bad input at FILE:LINE:COL), the text and the JSON report.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support.h"

namespace test_wgmma_cli {

namespace {

using mmacheck::test::run_mmacheck;
using mmacheck::test::source_path;
namespace fs = std::filesystem;

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("mmacheck_wgmma_" + name);
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST_CASE("wgmma proves the correct examples and refutes the planted ones", "[wgmma][cli]") {
  const auto good = run_mmacheck({"wgmma", source_path("examples/wgmma/k_sw128_f16.txt")});
  INFO(good.out << good.err);
  CHECK(good.status == 0);
  CHECK(good.out.find("3 operands: 3 proved, 0 refuted, 0 unchecked") != std::string::npos);
  const auto bad = run_mmacheck({"wgmma", source_path("examples/wgmma/bad_swizzle.txt")});
  CHECK(bad.status == 1);
  CHECK(bad.out.find("A[m=1][k=0] is read at 0x440 but placed at 0x490") != std::string::npos);
  CHECK(bad.out.find("likely wrong: swizzle: ") != std::string::npos);
  // A folder: every .txt, the worst status.
  CHECK(run_mmacheck({"wgmma", source_path("examples/wgmma")}).status == 1);
}

TEST_CASE("wgmma --json names the fix", "[wgmma][cli]") {
  const auto r = run_mmacheck({"wgmma", source_path("examples/wgmma/bad_lbo_sbo.txt"), "--json"});
  REQUIRE(r.status == 1);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["verdict"] == "refuted");
  REQUIRE(j["wgmma_operands"].size() == 1);
  const nlohmann::json& op = j["wgmma_operands"][0];
  CHECK(op["result"] == "refuted");
  CHECK(op["counterexample"]["i"] == 0);
  CHECK(op["counterexample"]["k"] == 8);
  CHECK(op["descriptor"]["bits"] == "0x800100000");
  CHECK(op["fixes"][0]["fields"] == nlohmann::json::array({"lbo/sbo swapped"}));
  CHECK(op["fixes"][0]["descriptor"]["lbo"] == 128);
}

TEST_CASE("wgmma: a base offset is unchecked, exit 1 unless --allow-unchecked", "[wgmma][cli]") {
  const std::string path =
      write_temp("base_offset.txt",
                 "operand A dtype=f16 tile=64x16 major=K\n"
                 "descriptor start=0x400 lbo=16 sbo=1024 swizzle=128B base_offset=2\n"
                 "smem base=0x400 layout=ComposeLayout(3, 3, 3, TileLayout(S[(64, 16) : (16, 1)]))\n");
  const auto r = run_mmacheck({"wgmma", path});
  CHECK(r.status == 1);
  CHECK(r.out.find("1 operands: 0 proved, 0 refuted, 1 unchecked") != std::string::npos);
  CHECK(run_mmacheck({"wgmma", path, "--allow-unchecked"}).status == 0);
  const nlohmann::json j = nlohmann::json::parse(run_mmacheck({"wgmma", path, "--json"}).out);
  CHECK(j["verdict"] == "unchecked");
  CHECK(j["wgmma_operands"][0]["descriptor"]["base_offset"] == 2);
}

TEST_CASE("wgmma bad input is FILE:LINE:COL and exit 2", "[wgmma][cli]") {
  struct Bad {
    const char* name;
    std::string text;
    std::string where;  // ":LINE:COL: error: " and the start of the message
  };
  const std::string op = "operand A dtype=f16 tile=64x16 major=K\n";
  const std::string d = "descriptor start=0 lbo=16 sbo=1024 swizzle=128B\n";
  const std::string s = "smem base=0 layout=ComposeLayout(3, 3, 3, TileLayout(S[(64, 16) : (16, 1)]))\n";
  for (const Bad& b : {
           Bad{"keyword", "operand A dtype=f16 tile=64x16 major=K\nfoo x\n",
               ":2:1: error: expected a 'descriptor' line"},
           Bad{"dtype", "operand A dtype=f32 tile=64x16 major=K\n" + d + s, ":1:17: error: unknown dtype 'f32'"},
           Bad{"k", "operand A dtype=f16 tile=64x8 major=K\n" + d + s, ":1:9: error: a f16 wgmma has K = 16"},
           Bad{"tf32 MN", "operand A dtype=tf32 tile=64x8 major=MN\n" + d + s, ":1:9: error: MN-major needs f16"},
           Bad{"number", op + "descriptor start=0x4g lbo=16 sbo=1024 swizzle=128B\n" + s, ":2:18: error: expected a"},
           Bad{"swizzle", op + "descriptor start=0 lbo=16 sbo=1024 swizzle=96B\n" + s, ":2:44: error: swizzle="},
           Bad{"unaligned", op + "descriptor start=8 lbo=16 sbo=1024 swizzle=128B\n" + s,
               ":2:1: error: descriptor start must be a multiple of 16"},
           Bad{"raw bits", op + "descriptor 0x4000\n" + s, ":2:12: error: descriptor 0x4000: bits outside"},
           Bad{"key", op + d + "smem base=0 size=3 layout=S[(64, 16) : (16, 1)]\n", ":3:13: error: unknown key 'size'"},
           Bad{"missing", op + "descriptor lbo=16 sbo=1024 swizzle=128B\n" + s, ":2: error: missing start="},
           Bad{"layout", op + d + "smem base=0 layout=S[(64, 16) : (16, 1)\n", ":3:"},
           Bad{"size", op + d + "smem base=0 layout=S[(64, 8) : (8, 1)]\n",
               ":3:20: error: the layout has 512 elements"},
           Bad{"thread axis", op + d + "smem base=0 layout=S[(64, 16) : (16, 1@laneid)]\n",
               ":3:20: error: a shared buffer's layout is on m alone"},
           // No operand line: no family's file, and no gemm (the front door says so).
           Bad{"empty", "# nothing\n", ":1:1: error: no reader recognises this file"},
           Bad{"major", "operand A dtype=f16 tile=64x16 major=M\n" + d + s, ":1:38: error: major= expects K or MN"},
           Bad{"far", op + d + "smem base=0 layout=S[(64, 16) : (1099511627776, 1)]\n",
               ":3:20: error: the layout puts element 16 at offset"},
           Bad{"base", op + d + "smem base=0x100000000 layout=S[(64, 16) : (16, 1)]\n", ":3:11: error: base= must be"},
       }) {
    INFO(b.name);
    const std::string path = write_temp(std::string(b.name) + ".txt", b.text);
    const auto r = run_mmacheck({"prove", path});
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.err.rfind(path + b.where, 0) == 0);
  }
}

}  // namespace test_wgmma_cli
