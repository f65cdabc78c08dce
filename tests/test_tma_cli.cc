// `mmacheck tma` as a user runs it: exit statuses (0 proved, 1 refuted or
// unchecked, 2 bad input at FILE:LINE:COL), the text and the JSON report.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support.h"

namespace test_tma_cli {

namespace {

using mmacheck::test::run_mmacheck;
using mmacheck::test::source_path;
namespace fs = std::filesystem;

}  // namespace

TEST_CASE("tma proves the correct examples and refutes the planted ones", "[tma][cli]") {
  const auto good = run_mmacheck({"tma", source_path("examples/tma/k_sw128_f16.txt")});
  INFO(good.out << good.err);
  CHECK(good.status == 0);
  CHECK(good.out.find("4 operands: 4 proved, 0 refuted, 0 unchecked") != std::string::npos);
  const auto bad = run_mmacheck({"tma", source_path("examples/tma/bad_box_inner.txt")});
  INFO(bad.out);
  CHECK(bad.status == 1);
  CHECK(bad.out.find("fields: box inner dimension") != std::string::npos);
  CHECK(bad.out.find("the box's inner dimension is 32 bytes") != std::string::npos);
  // A folder: every .txt, the worst status.
  CHECK(run_mmacheck({"tma", source_path("examples/tma")}).status == 1);
}

TEST_CASE("tma --json: fields, the counterexample and the fix", "[tma][cli]") {
  const auto r = run_mmacheck({"tma", source_path("examples/tma/bad_start.txt"), "--json"});
  REQUIRE(r.status == 1);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& op = j["tma_operands"][0];
  CHECK(op["fields"] == nlohmann::json::array({"descriptor"}));
  CHECK(op["counterexample"]["read"] != op["counterexample"]["written"]);
  CHECK(op["fixes"][0]["fields"] == nlohmann::json::array({"start"}));
  CHECK(op["fixes"][0]["descriptor"]["start"] == 0x420);
}

TEST_CASE("tma: unchecked exits 1 unless --allow-unchecked; bad input exits 2 at FILE:LINE:COL", "[tma][cli]") {
  const fs::path p = fs::temp_directory_path() / "mmacheck_tma_unchecked.txt";
  std::ofstream(p) << "tma A dtype=f16 dims=512x256 strides=1024 box=64x64 swizzle=128B smem=0x400\n"
                      "operand A dtype=f16 tile=64x16 major=K\n"
                      "descriptor start=0x400 lbo=16 sbo=1024 swizzle=128B base_offset=1\n"
                      "smem tma=A\n";
  CHECK(run_mmacheck({"tma", p.string()}).status == 1);
  CHECK(run_mmacheck({"tma", p.string(), "--allow-unchecked"}).status == 0);
  const fs::path bad = fs::temp_directory_path() / "mmacheck_tma_bad.txt";
  std::ofstream(bad) << "tma A dtype=f16 dims=64 box=64 swizzle=128B smem=0x400 extra=1\n";
  const auto r = run_mmacheck({"tma", bad.string()});
  CHECK(r.status == 2);
  CHECK(r.err.find(bad.string() + ":1:") != std::string::npos);
}

}  // namespace test_tma_cli
