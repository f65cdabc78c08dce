// .pre-commit-hooks.yaml: the hook's entry, run as pre-commit runs it (the
// staged files matching `files` appended), proves good files, fails on a
// refuted one and on bad input.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include "tests/support.h"

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
}
