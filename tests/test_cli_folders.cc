// A folder is a repo: `mmacheck prove DIR` takes the kernels in it and
// reports the files that name no gemm as "no gemm" (exit 0) by default,
// checks them all with --no-skip-no-gemm, and selects files by
// --include/--exclude globs on the paths relative to the folder.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "tests/support.h"

namespace test_cli_folders {

using namespace mmacheck;
namespace fs = std::filesystem;

namespace {

// repo/: a proved and a refuted kernel, a README, a helper module and a test
// file around a kernel, in two folders.
fs::path make_repo() {
  const fs::path dir = fs::temp_directory_path() / ("mmacheck-folders-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "kernels");
  fs::create_directories(dir / "tests");
  const auto put = [&](const fs::path& p, const std::string& text) { std::ofstream(dir / p) << text; };
  put("kernels/good.py", test::read_file(test::source_path("examples/tirx_seed_corrected.py")));
  put("kernels/bad.py", test::read_file(test::source_path("examples/tirx_seed.py")));
  put("README.txt", "How to use $this repo.\n");
  put("util.py", "import os\nprint(os.getcwd())\n");
  put(std::string("tests/") + "test_kernel.py",
      "import pytest\n\n" + test::read_file(test::source_path("examples/seed_corrected.py")) +
          "\ndef test_x():\n    assert 1 < 2\n\nif __name__ == \"__main__\":\n    pytest.main()\n");
  return dir;
}

}  // namespace

TEST_CASE("a folder's files without a gemm are 'no gemm', not errors", "[cli][folders]") {
  const std::string repo = make_repo().string();
  const test::RunResult r = test::run_mmacheck({"prove", repo});
  CHECK(r.status == 1);  // bad.py is refuted; nothing is bad input
  CHECK(r.out.find("5 files: ") != std::string::npos);
  CHECK(r.out.find("2 no gemm") != std::string::npos);
  CHECK(r.out.find("2 proved") != std::string::npos);
  CHECK(r.out.find("1 refuted") != std::string::npos);
  CHECK(r.out.find("bad input") == std::string::npos);
  // Every file checked: the two that name no gemm are bad input, with a Python message.
  const test::RunResult all = test::run_mmacheck({"prove", "--no-skip-no-gemm", repo});
  CHECK(all.status == 2);
  CHECK(all.out.find("2 bad input") != std::string::npos);
  CHECK(all.out.find("scope ...") == std::string::npos);
  // Only the proved kernels: exit 0 with the no-gemm files counted.
  const test::RunResult good = test::run_mmacheck({"prove", repo, "--exclude", "kernels/bad.py"});
  CHECK(good.status == 0);
  CHECK(good.out.find("4 files: ") != std::string::npos);
  // JSON: a verdict of its own.
  const test::RunResult json = test::run_mmacheck({"prove", "--json", repo, "--include", "*.txt"});
  CHECK(json.status == 0);
  CHECK(json.out.find("\"verdict\":\"no_gemm\"") != std::string::npos);
  // The test file's kernel is proved; what was passed over around it is listed.
  const test::RunResult kernel = test::run_mmacheck({"prove", repo + "/tests/test_kernel.py"});
  CHECK(kernel.status == 0);
  CHECK(kernel.out.find("note: skipped (no bearing on the gemm): def test_x (line ") != std::string::npos);
  CHECK(kernel.out.find(", if __name__ block (line ") != std::string::npos);
  // A single file is checked as before unless asked.
  CHECK(test::run_mmacheck({"prove", repo + "/util.py"}).status == 2);
  CHECK(test::run_mmacheck({"prove", "--skip-no-gemm", repo + "/util.py"}).status == 0);
  CHECK(test::run_mmacheck({"sim", "--cases", "2", repo, "--include", "kernels/*"}).status == 1);
  CHECK(test::run_mmacheck({"prove", repo, "--include", "nothing/*"}).status == 2);
  CHECK(test::run_mmacheck({"prove", "--skip-no-gemm", "--no-skip-no-gemm", repo}).status == 2);
  fs::remove_all(repo);
}

TEST_CASE("a folder's files are selected by --include/--exclude globs on their relative paths", "[cli][folders]") {
  const std::string repo = make_repo().string();
  // One JSON line per file selected.
  const auto files = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"prove", "--json", repo});
    const std::string out = test::run_mmacheck(args).out;
    return std::count(out.begin(), out.end(), '\n');
  };
  CHECK(files({}) == 5);
  CHECK(files({"--include", "*.py"}) == 1);     // * stays within a name: util.py
  CHECK(files({"--include", "**/*.py"}) == 4);  // **/ any folders, none included
  CHECK(files({"--include", "tests/**"}) == 1);
  CHECK(files({"--include", "k?rnels/*", "--include", "*.txt"}) == 3);
  CHECK(files({"--exclude", "tests/**", "--exclude", "*.txt"}) == 3);
  CHECK(files({"--include", "**/*.py", "--exclude", "**/test_*.py"}) == 3);
  fs::remove_all(repo);
}

}  // namespace test_cli_folders
