// The build's include rule (cmake/check_layer.cmake): a layer may include
// only the layers it is allowed to use.  The real folders pass; a planted
// include from a layer above is refused with the file and the header named.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "tests/support.h"

namespace fs = std::filesystem;
using mmacheck::test::run_program;
using mmacheck::test::source_path;

namespace {

mmacheck::test::RunResult check(const std::string& layer, const std::string& allowed,
                                const std::vector<std::string>& files, const fs::path& dir) {
  std::string list;
  for (const auto& f : files) list += (list.empty() ? "" : ";") + f;
  const fs::path list_file = dir / "files";
  std::ofstream(list_file) << list;
  return run_program({MMACHECK_CMAKE, "-DLAYER=" + layer, "-DALLOWED=" + layer + ";" + allowed,
                      "-DFILES_FROM=" + list_file.string(), "-DSTAMP=" + (dir / "ok").string(), "-P",
                      source_path("cmake/check_layer.cmake")});
}

}  // namespace

TEST_CASE("layer rules: a layer including a layer above it fails the build") {
  const fs::path dir = fs::temp_directory_path() / ("mmacheck-layers-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path bad = dir / "bad.cc";
  std::ofstream(bad) << "#include <vector>\n#include \"core/layout/tile_layout.h\"\n"
                        "#include \"core/gemm/nest.h\"\n";
  const auto r = check("core/layout", "core/base", {bad.string()}, dir);
  CHECK(r.status != 0);
  CHECK(r.err.find("includes \"core/gemm/nest.h\", which core/layout may not use") != std::string::npos);
  CHECK(r.err.find("tile_layout.h\", which") == std::string::npos);
  CHECK_FALSE(fs::exists(dir / "ok"));

  SECTION("the same include is fine where the rule allows it") {
    const auto ok = check("core/prove", "core/base;core/layout;core/program;core/gemm", {bad.string()}, dir);
    CHECK(ok.status == 0);
    CHECK(fs::exists(dir / "ok"));
  }
  fs::remove_all(dir);
}

TEST_CASE("layer rules: core/layout uses nothing above core/base") {
  const fs::path dir = fs::temp_directory_path() / ("mmacheck-layers-real-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(source_path("core/layout"))) files.push_back(e.path().string());
  REQUIRE(files.size() > 10);
  CHECK(check("core/layout", "core/base", files, dir).status == 0);
  // and it is not vacuous: forbidding core/base too breaks it
  CHECK(check("core/layout", "", files, dir).status != 0);
  fs::remove_all(dir);
}
