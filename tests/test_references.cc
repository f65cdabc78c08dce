// scripts/check_references.sh: every repository path the sources and docs
// cite names a file or folder that exists.  The tree passes; planted
// citations of missing files fail with FILE:LINE named, and what is not a
// citation (globs, placeholders, other projects' paths) passes.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "tests/support.h"

namespace test_references {

namespace fs = std::filesystem;
using namespace mmacheck::test;

namespace {

RunResult check_references(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"bash", source_path("scripts/check_references.sh")};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv);
}

}  // namespace

TEST_CASE("references: every path the repository cites exists", "[lint]") {
  const RunResult r = check_references({});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("references: every path cited in") != std::string::npos);
}

TEST_CASE("references: a citation of a missing file is named at its line", "[lint]") {
  const fs::path root = fs::temp_directory_path() / ("mmacheck-references-" + std::to_string(::getpid()));
  fs::create_directories(root / "core" / "prove");
  fs::create_directories(root / "docs");
  std::ofstream(root / "core" / "prove" / "prove.h") << "// the prover\n";
  std::ofstream(root / "docs" / "gpu.md") << "# GPU\n";
  // The fixture's names are put together here, so that this file cites none.
  const std::string gone = "gone", md = ".md", docs = "docs", index = docs + "/index" + md;
  const std::string design = "DESIGN" + md;
  std::ofstream(root / "core" / "prove" / "prove.cc")
      << "// Proofs (core/prove/prove.h; docs/gpu.md).\n"
      << "// See core/prove/" << gone << ".h and " << docs << "/" << gone << md << ".\n"
      << "// The older notes: " << design << ".\n"
      << "// Not citations: core/prove/*.cc, core/NAME/, ../shared/" << design << ", tests/python/tirx/x.py\n";
  std::ofstream(root / index) << "# Index\n\n[GPU](gpu.md), [the prover](../core/prove/prove.h)\n"
                              << "[gone](" << gone << md << "#top), [web](https://example.org/x" << md << ")\n";
  const std::vector<std::string> args = {"-C", root.string(), "core/prove/prove.cc", index};
  const RunResult r = check_references(args);
  CHECK(r.status == 1);
  const auto reported = [&](const std::string& where, const std::string& path) {
    return r.err.find(where + ": error: cites " + path + ", which does not exist") != std::string::npos;
  };
  CHECK(reported("core/prove/prove.cc:2", "core/prove/" + gone + ".h"));
  CHECK(reported("core/prove/prove.cc:2", docs + "/" + gone + md));
  CHECK(reported("core/prove/prove.cc:3", design));
  CHECK(reported(index + ":4", gone + md));
  CHECK(r.err.find("references: 4 cited paths do not exist") != std::string::npos);
  CHECK(r.err.find(":1: error") == std::string::npos);    // the citations that exist
  CHECK(r.err.find("prove.cc:4:") == std::string::npos);  // what is not a citation

  SECTION("the same files pass once the cited files exist") {
    std::ofstream(root / "core" / "prove" / (gone + ".h")) << "\n";
    std::ofstream(root / docs / (gone + md)) << "\n";
    std::ofstream(root / design) << "\n";
    const RunResult ok = check_references(args);
    INFO(ok.err);
    CHECK(ok.status == 0);
  }
  fs::remove_all(root);
}

}  // namespace test_references
