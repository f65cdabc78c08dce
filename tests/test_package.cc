// The CMake package: `cmake --install` into a fresh prefix, then a separate
// project (tests/package/) finds it with find_package(mmacheck), links
// mmacheck::core, and locates the program through mmacheck::mmacheck.
#include <catch2/catch.hpp>

#include <filesystem>
#include <unistd.h>

#include "tests/support.h"

namespace test_package {

using namespace mmacheck::test;

TEST_CASE("an installed mmacheck is found by find_package and usable", "[package]") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("mmacheck-package-" + std::to_string(getpid()));
  fs::remove_all(root);
  const std::string prefix = (root / "prefix").string(), build = (root / "build").string();
  const RunResult install = run_program({MMACHECK_CMAKE, "--install", MMACHECK_BUILD_DIR, "--prefix", prefix});
  INFO(install.out << install.err);
  REQUIRE(install.status == 0);
  CHECK(fs::exists(root / "prefix" / "include" / "mmacheck" / "core" / "prove" / "prove.h"));

  std::vector<std::string> configure_args{MMACHECK_CMAKE,
                                          "-S",
                                          source_path("tests/package"),
                                          "-B",
                                          build,
                                          "-DCMAKE_PREFIX_PATH=" + prefix,
                                          "-DCMAKE_BUILD_TYPE=Release"};
  if (const std::string sanitize = MMACHECK_SANITIZE; !sanitize.empty())  // the sanitizer build's libraries
    for (const std::string& a :
         {"-DCMAKE_CXX_COMPILER=" + std::string(MMACHECK_CXX_COMPILER), "-DCMAKE_CXX_FLAGS=-fsanitize=" + sanitize,
          "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=" + sanitize})
      configure_args.push_back(a);
  const RunResult configure = run_program(configure_args);
  INFO(configure.out << configure.err);
  REQUIRE(configure.status == 0);
  const RunResult compile = run_program({MMACHECK_CMAKE, "--build", build});
  INFO(compile.out << compile.err);
  REQUIRE(compile.status == 0);

  const RunResult consumer = run_program({build + "/consumer", "S[(8, 4) : (4@laneid, 1@laneid)]"});
  CHECK(consumer.status == 0);
  CHECK(consumer.out == "S[(8, 4) : (4@laneid, 1@laneid)] laneid span 32\n");
  const RunResult bad = run_program({build + "/consumer", "S[(8, 4) : (4@laneid"});
  CHECK(bad.status == 2);

  const std::string program = read_file(build + "/mmacheck_program.txt");
  CHECK(program == prefix + "/bin/mmacheck");
  const RunResult version = run_program({program, "--version"});
  CHECK(version.status == 0);
  CHECK(version.out.rfind("mmacheck 0.1.0 (git ", 0) == 0);
  fs::remove_all(root);
}

}  // namespace test_package
