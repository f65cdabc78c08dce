// `mmacheck sim` end to end: exit status, named failing elements, bad input.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/support.h"
#include "tests/test_sim_support.h"

namespace mmacheck::test_sim_cli {
namespace {

// A layout file with `text`, removed when the test ends.
class TempFile {
 public:
  explicit TempFile(const std::string& text)
      : path_(std::filesystem::temp_directory_path() /
              ("mmacheck-sim-test-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)) + ".txt")) {
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace

TEST_CASE("mmacheck sim passes the corrected seed", "[sim]") {
  const test::RunResult r = test::run_mmacheck({"sim", test::source_path("examples/seed_corrected.txt")});
  CHECK(r.status == 0);
  CHECK(r.out.find("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32") != std::string::npos);
  CHECK(r.out.find("passed: 64 cases") != std::string::npos);
  CHECK(r.err.empty());  // no progress bar when stderr is not a terminal
}

TEST_CASE("mmacheck sim fails the seed and names the wrong elements", "[sim]") {
  const test::RunResult r =
      test::run_mmacheck({"sim", test::source_path("examples/seed.txt"), "--cases", "3", "--show", "4"});
  CHECK(r.status == 1);
  INFO(r.out);
  CHECK(r.out.find("case 0 (normal) ") != std::string::npos);
  CHECK(r.out.find("[0][0]: got 0x") != std::string::npos);  // D's buffer, row 0, column 0
  CHECK(r.out.find("direct evaluation 0x") != std::string::npos);
  CHECK(r.out.find("bit-exact and bound checks failed") != std::string::npos);
  CHECK(r.out.find("more failing elements") != std::string::npos);
  CHECK(r.out.find("FAILED: 3 of 3 cases") != std::string::npos);
}

TEST_CASE("mmacheck sim reports the same failures on any number of threads", "[sim]") {
  // The seed fails in every case; the cases run three or five at a time
  // must still be reported in case order, with the same counts.
  std::string first;
  for (const char* threads : {"1", "3", "5"}) {
    const test::RunResult r = test::run_mmacheck({"sim", test::source_path("examples/seed.txt"), "--cases", "13",
                                                  "--show", "40", "--threads", threads, "--json"});
    CHECK(r.status == 1);
    if (first.empty()) first = r.out;
    CHECK(r.out == first);
  }
  CHECK(first.find("\"failed_cases\":13") != std::string::npos);
  CHECK(test::run_mmacheck({"sim", test::source_path("examples/seed.txt"), "--threads", "-1"}).status == 2);
}

TEST_CASE("mmacheck sim options: seed, arch, instruction set", "[sim]") {
  const TempFile tiled(test::kTiledText);
  CHECK(test::run_mmacheck({"sim", tiled.path(), "--cases", "16", "--seed", "99", "--arch", "sm_80"}).status == 0);
  const std::string f16acc = test::kFragments + R"(
A = buffer((16, 16), "float16", "local", A_FRAG)
B = buffer((16, 8), "float16", "local", B_FRAG)
D = buffer((16, 8), "float16", "local", D_FRAG)
gemm(D, A, B, D)
)";
  const TempFile ext(f16acc);
  const test::RunResult tvm = test::run_mmacheck({"sim", ext.path()});
  CHECK(tvm.status == 1);
  CHECK(tvm.out.find("dispatch_failed") != std::string::npos);
  CHECK(tvm.out.find("no mma instruction fits") != std::string::npos);
  CHECK(test::run_mmacheck({"sim", ext.path(), "--inst-set", "extended"}).status == 0);
}

TEST_CASE("mmacheck sim on bad input exits 2", "[sim]") {
  const TempFile broken("A = buffer((16, 16), \"float16\", \"local\", S[(2, 8 : (1, 2)])\n");
  const TempFile corrected(test::seed_text(true));
  for (const std::vector<std::string>& args : {std::vector<std::string>{"sim"},
                                               {"sim", "/nonexistent/layout.txt"},
                                               {"sim", broken.path()},
                                               {"sim", corrected.path(), "--cases", "0"},
                                               {"sim", corrected.path(), "--arch", "sm_60"},
                                               {"sim", corrected.path(), "--arch", "sm_70"},  // f16 m16n8k16: none
                                               {"sim", corrected.path(), "--inst-set", "cute"},
                                               {"sim", corrected.path(), "--bogus"}}) {
    const test::RunResult r = test::run_mmacheck(args);
    INFO(args.back() << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find("error") != std::string::npos);
  }
}

}  // namespace mmacheck::test_sim_cli
