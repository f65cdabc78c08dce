// Defects 7 and 8 of the hardening issue: bench survives a thread that
// cannot start and refuses durations it cannot represent; unsigned options
// refuse a minus sign instead of wrapping it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>

#include "tests/support.h"
#include "tests/test_hardening_support.h"

namespace mmacheck::test_cli_hostile {

using Catch::Matchers::Contains;

TEST_CASE("unsigned options reject negative values", "[hardening][options]") {
  const std::string seed = test::source_path("examples/seed_corrected.txt");
  const test::RunResult timeout = test::run_mmacheck({"prove", seed, "--timeout-ms", "-1"});
  CHECK(timeout.status == 2);
  CHECK_THAT(timeout.err, Contains("the argument ('-1') for option '--timeout-ms' is invalid: it must be >= 0"));
  const test::RunResult sim_seed = test::run_mmacheck({"sim", seed, "--seed", "-1"});
  CHECK(sim_seed.status == 2);
  CHECK_THAT(sim_seed.err, Contains("'--seed' is invalid: it must be >= 0"));
  const test::RunResult too_big = test::run_mmacheck({"sim", seed, "--seed", "18446744073709551616"});
  CHECK(too_big.status == 2);
  CHECK_THAT(too_big.err, Contains("the argument ('18446744073709551616') for option '--seed' is invalid"));
  CHECK(test::run_mmacheck({"sim", seed, "--seed", "18446744073709551615", "--cases", "1"}).status == 0);
}

TEST_CASE("bench refuses durations past a day, inf and nan", "[hardening][bench]") {
  for (const char* seconds : {"inf", "1e300", "nan", "-1", "0"}) {
    const test::RunResult r = test::run_mmacheck({"bench", "--seconds", seconds, "--threads", "1"});
    INFO(seconds);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("--seconds must be positive and at most 86400"));
    CHECK(r.out.find("nan") == std::string::npos);
  }
}

TEST_CASE("every command that takes --threads bounds it", "[hardening][bench]") {
  // bench --threads 100000000 used to start threads until the machine gave out.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"bench", "--seconds", "0.01", "--threads", "100000000"},
        std::vector<std::string>{"bench", "--seconds", "0.01", "--threads", "-1"},
        std::vector<std::string>{"sim", test::source_path("examples/seed_corrected.txt"), "--threads", "1025"}}) {
    const test::RunResult r = test::run_mmacheck(args);
    INFO(args.back() << ": " << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("--threads must be in 0..1024"));
  }
}

TEST_CASE("bench reports a thread it cannot start instead of aborting", "[hardening][bench]") {
  if (test::kAddressSanitizer) return test::skip("ulimit -v cannot apply under AddressSanitizer");
  const test::RunResult r = test::run_program(
      {"sh", "-c", "ulimit -v 2097152 && exec \"$0\" bench --threads 1000 --seconds 0.01", MMACHECK_BINARY});
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("bench: cannot start thread") && Contains("of 1000") && Contains("fewer --threads"));
  CHECK(r.err.find("terminate called") == std::string::npos);
}

TEST_CASE("a file that names no gemm is an error at a place, BOM or not", "[hardening][options]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "mmacheck_no_gemm";
  std::filesystem::create_directories(dir);
  for (const char* text : {"\xef\xbb\xbf# nothing here\n", "# nothing here\n", ""}) {
    const std::string path = (dir / "k.py").string();
    std::ofstream(path, std::ios::binary) << text;
    const test::RunResult r = test::run_mmacheck({"prove", path});
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.err.rfind(path + ":1:1: error: no reader recognises this file (it names no gemm, and it is none of vector "
                             "files",
                      0) == 0);
    CHECK(
        r.err.find("CuTe headers, atom lists and DSL prints); read as a gemm program: the program has no gemm call") !=
        std::string::npos);
  }
  // A file cut mid-decorator, at every byte of its last line: an error at a line and column, exit 2.
  const std::string whole = "\xef\xbb\xbf" + test::read_file(test::source_path("examples/tirx_seed_corrected.py"));
  const std::size_t at = whole.find("@T.function");
  REQUIRE(at != std::string::npos);
  for (std::size_t cut = at + 1; cut <= at + std::string("@T.function").size(); ++cut) {
    const std::string path = (dir / "cut.py").string();
    std::ofstream(path, std::ios::binary) << whole.substr(0, cut);
    const test::RunResult r = test::run_mmacheck({"prove", path});
    INFO(whole.substr(at, cut - at) + ": " + r.err);
    CHECK(r.status == 2);
    CHECK(std::regex_search(
        r.err, std::regex("^" + std::regex_replace(path, std::regex("[.]"), "[.]") + ":[0-9]+:[0-9]+: error: ")));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("draw under ulimit -f: the failed write is an error, exit 2, not a signal", "[draw][cli]") {
  const std::string out =
      (std::filesystem::temp_directory_path() / ("mmacheck-test-ulimit-" + std::to_string(getpid()) + ".svg")).string();
  const test::RunResult r = test::run_program({"sh", "-c", "ulimit -f 1 && exec \"$0\" draw \"$1\" -o \"$2\"",
                                               MMACHECK_BINARY, test::source_path("examples/seed_corrected.txt"), out});
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find("error: cannot write") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
}

}  // namespace mmacheck::test_cli_hostile
