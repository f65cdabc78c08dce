// .pre-commit-hooks.yaml: the hook's entry, run as pre-commit runs it (the
// staged files matching `files` appended), proves good files, fails on a
// refuted one and on bad input.  .pre-commit-config.yaml: the repository's
// own hooks run its format and cited-files checks.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/support.h"

namespace test_pre_commit_hook {

using namespace mmacheck::test;

namespace {

// The value of `key:` in the hook definition (one hook, flat keys).
std::string hook_field(const std::string& yaml, const std::string& key) {
  std::istringstream lines(yaml);
  const std::regex field("^ *-? *" + key + ": *(.*)$");
  std::smatch m;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_match(line, m, field)) return m[1];
  return "";
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

TEST_CASE("the pre-commit hook proves the staged layout files", "[cli]") {
  const std::string yaml = read_file(source_path(".pre-commit-hooks.yaml"));
  CHECK(hook_field(yaml, "id") == "mmacheck-prove");
  CHECK(hook_field(yaml, "language") == "system");
  CHECK(hook_field(yaml, "pass_filenames") == "true");
  const std::regex files(hook_field(yaml, "files"));
  CHECK(std::regex_search("kernels/layouts/seed.txt", files));
  CHECK(std::regex_search("kernels/layouts/gemm.py", files));
  CHECK(!std::regex_search("README.md", files));

  std::vector<std::string> entry = words(hook_field(yaml, "entry"));
  REQUIRE(!entry.empty());
  REQUIRE(entry.front() == "mmacheck");
  entry.front() = MMACHECK_BINARY;
  const auto run = [&](const std::vector<std::string>& staged) {
    std::vector<std::string> argv = entry;
    for (const std::string& f : staged) argv.push_back(source_path(f));
    return run_program(argv);
  };
  const RunResult good = run({"examples/seed_corrected.txt", "examples/k8.txt"});
  CHECK(good.status == 0);
  CHECK(good.out.find("2 files: 2 proved") != std::string::npos);
  const RunResult bad = run({"examples/seed_corrected.txt", "examples/seed.txt"});
  CHECK(bad.status == 1);
  CHECK(bad.out.find("stage A: lane 0, slot 2") != std::string::npos);
  CHECK(run({"README.md"}).status == 2);
  // An ordinary repository's files: what names no gemm is listed, not bad input.
  const std::string dir = MMACHECK_BUILD_DIR "/pre-commit-ordinary";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/requirements.txt") << "numpy>=1.26\ntorch\n";
  std::ofstream(dir + "/helper.py") << "import sys\n\ndef main():\n    print(sys.argv)\n";
  std::vector<std::string> argv = entry;
  for (const char* f : {"/requirements.txt", "/helper.py"}) argv.push_back(dir + f);
  const RunResult ordinary = run_program(argv);
  CHECK(ordinary.status == 0);
  CHECK(ordinary.out.find("2 files: 2 no gemm") != std::string::npos);
  // A refuted descriptor file among them fails the hook.
  CHECK(std::regex_search("kernels/wgmma/a_desc.txt", files));
  argv.push_back(source_path("examples/wgmma/bad_start.txt"));
  CHECK(run_program(argv).status == 1);
}

// .pre-commit-config.yaml, the repository's own hooks: their entries are the
// project's checks, run as pre-commit runs them from the repository root.
TEST_CASE("the repository's pre-commit hooks check the format and the cited files", "[lint]") {
  const std::string yaml = read_file(source_path(".pre-commit-config.yaml"));
  std::vector<std::string> entries;
  std::istringstream lines(yaml);
  const std::regex entry("^ *entry: *(.*)$");
  std::smatch m;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_match(line, m, entry)) entries.push_back(m[1]);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0] == "scripts/format.sh --check");
  CHECK(entries[1] == "scripts/check_references.sh");
  CHECK(hook_field(yaml, "files") == "\\.(cc|h|cu)$");

  const RunResult references = run_program({"bash", source_path("scripts/check_references.sh")});
  INFO(references.err);
  CHECK(references.status == 0);

  if (run_program({"clang-format", "--version"}).status != 0) return skip("clang-format is not installed");
  const auto format_check = [](const std::vector<std::string>& staged) {
    std::vector<std::string> argv = {"bash", source_path("scripts/format.sh"), "--check"};
    argv.insert(argv.end(), staged.begin(), staged.end());
    return run_program(argv);
  };
  CHECK(format_check({"tests/test_references.cc"}).status == 0);
  const std::string misformatted = MMACHECK_BUILD_DIR "/misformatted.cc";
  std::ofstream(misformatted) << "int  main( ){return 0;}\n";
  const RunResult bad = format_check({"tests/test_references.cc", misformatted});
  CHECK(bad.status == 1);
  CHECK(bad.err.find("1 of 2 files differ") != std::string::npos);
  CHECK(bad.err.find("  " + misformatted + "\n") != std::string::npos);
  std::remove(misformatted.c_str());
}

}  // namespace test_pre_commit_hook
