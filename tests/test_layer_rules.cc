// The build's include rule (cmake/check_layer.cmake): a layer may include
// only the layers it is allowed to use.  The real folders pass; a planted
// include from a layer above, through a relative path or of a tests/ or
// bench/ header, is refused with the file and the header named.  And no
// file reader includes another: what readers share is a header of its own.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "tests/support.h"

namespace test_layer_rules {

namespace fs = std::filesystem;
using mmacheck::test::run_program;
using mmacheck::test::source_path;

namespace {

// `root` is the project root the includes resolve against (the real one by
// default).
mmacheck::test::RunResult check(const std::string& layer, const std::string& allowed,
                                const std::vector<std::string>& files, const fs::path& dir,
                                const std::string& root = source_path("")) {
  std::string list;
  for (const auto& f : files) list += (list.empty() ? "" : ";") + f;
  const fs::path list_file = dir / "files";
  std::ofstream(list_file) << list;
  return run_program({MMACHECK_CMAKE, "-DLAYER=" + layer, "-DALLOWED=" + layer + ";" + allowed,
                      "-DFILES_FROM=" + list_file.string(), "-DSTAMP=" + (dir / "ok").string(), "-DROOT=" + root, "-P",
                      source_path("cmake/check_layer.cmake")});
}

// The project's own files of one folder (not its subfolders).
std::vector<std::string> folder_files(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(source_path(folder)))
    if (e.is_regular_file()) files.push_back(e.path().string());
  return files;
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

TEST_CASE("layer rules: a folder is its own layer, so core/program does not admit the readers' rooms") {
  const fs::path dir = fs::temp_directory_path() / ("mmacheck-layers-rooms-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path bad = dir / "release_reader.cc";
  std::ofstream(bad) << "#include \"core/program/lexer.h\"\n#include \"core/program/tvmscript/program_parser.h\"\n";
  // one reader reaching into another's room
  const auto r = check("core/program/tirx_release", "core/base;core/layout;core/program", {bad.string()}, dir);
  CHECK(r.status != 0);
  CHECK(
      r.err.find("includes \"core/program/tvmscript/program_parser.h\", which core/program/tirx_release may not use") !=
      std::string::npos);
  CHECK(r.err.find("lexer.h\", which") == std::string::npos);
  // nor does a layer above core/program reach a room through it
  CHECK(check("core/gemm", "core/base;core/layout;core/program", {bad.string()}, dir).status != 0);
  CHECK(check("core/program/read", "core/program;core/program/tvmscript", {bad.string()}, dir).status == 0);
  fs::remove_all(dir);
}

TEST_CASE("layer rules: each reader's room uses the shared reader parts and no other room") {
  const fs::path dir = fs::temp_directory_path() / ("mmacheck-layers-readers-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string shared = "core/base;core/layout;core/program";
  for (const std::string room : {"core/program/tvmscript", "core/program/tirx_release"}) {
    INFO(room);
    const std::vector<std::string> files = folder_files(room);
    REQUIRE(files.size() >= 3);
    CHECK(check(room, shared, files, dir).status == 0);
    CHECK(check(room, "core/base;core/layout", files, dir).status != 0);  // not vacuous: they do use core/program
  }
  // the shared part includes none of its rooms
  CHECK(check("core/program", "core/base;core/layout", folder_files("core/program"), dir).status == 0);
  // the wings share the verdict (core/prove); CuTe's GMMA/UMMA atoms use the wgmma wing's frames and the tcgen05
  // wing's TMEM, Triton's wgmma operands the wgmma wing's canonical layouts, no other wing
  CHECK(check("core/cute", "core/base;core/gemm;core/prove;core/wgmma;core/tcgen05", folder_files("core/cute"), dir)
            .status == 0);
  CHECK(check("core/cute", "core/base;core/gemm;core/prove;core/wgmma", folder_files("core/cute"), dir).status != 0);
  CHECK(check("core/cute", "core/base;core/gemm;core/prove;core/tcgen05", folder_files("core/cute"), dir).status != 0);
  // Triton's wgmma operands in shared memory are held to the wgmma wing's canonical layouts
  CHECK(check("core/triton", "core/base;core/program;core/gemm;core/prove;core/wgmma", folder_files("core/triton"), dir)
            .status == 0);
  CHECK(check("core/triton", "core/base;core/program;core/gemm;core/prove", folder_files("core/triton"), dir).status !=
        0);
  // the mma.sp and block-scaled wings: the instruction table's models and the verdict, no other wing
  CHECK(check("core/sparse", "core/base;core/gemm;core/prove", folder_files("core/sparse"), dir).status == 0);
  CHECK(check("core/sparse", "core/base;core/gemm", folder_files("core/sparse"), dir).status != 0);
  CHECK(check("core/scales", "core/base;core/program;core/gemm;core/prove", folder_files("core/scales"), dir).status ==
        0);
  CHECK(check("core/scales", "core/base;core/program;core/gemm", folder_files("core/scales"), dir).status != 0);
  // the wgmma wing: the verdict and the layout expressions, no other wing and not core/gemm
  CHECK(check("core/wgmma", "core/base;core/layout;core/program;core/prove", folder_files("core/wgmma"), dir).status ==
        0);
  CHECK(check("core/wgmma", "core/base;core/layout;core/prove", folder_files("core/wgmma"), dir).status != 0);
  // Blackwell's tcgen05 wing stands on Hopper's (its canonical layouts and statement lines), never the reverse
  const std::string tcgen05_uses = "core/base;core/layout;core/program;core/prove;core/wgmma";
  CHECK(check("core/tcgen05", tcgen05_uses, folder_files("core/tcgen05"), dir).status == 0);
  CHECK(check("core/tcgen05", "core/base;core/layout;core/program;core/prove", folder_files("core/tcgen05"), dir)
            .status != 0);
  // the PTX front end executes wgmma through the wgmma wing's descriptors, canonical layouts and frames, TMA
  // through the TMA wing's tensor maps and tile copies, and tcgen05 through the tcgen05 wing's descriptors and TMEM
  const std::string ptx_uses = "core/base;core/program;core/gemm;core/prove;core/wgmma;core/tma;core/tcgen05";
  CHECK(check("core/ptx", ptx_uses, folder_files("core/ptx"), dir).status == 0);
  CHECK(check("core/ptx", "core/base;core/program;core/gemm;core/prove;core/wgmma;core/tma", folder_files("core/ptx"),
              dir)
            .status != 0);
  CHECK(check("core/ptx", "core/base;core/program;core/gemm;core/prove;core/wgmma", folder_files("core/ptx"), dir)
            .status != 0);
  // the TMA wing stands on the wgmma wing (its descriptors, canonical layouts and operand lines), no other
  CHECK(check("core/tma", "core/base;core/layout;core/prove;core/wgmma", folder_files("core/tma"), dir).status == 0);
  CHECK(check("core/tma", "core/base;core/layout;core/prove", folder_files("core/tma"), dir).status != 0);
  fs::remove_all(dir);
}

TEST_CASE("layer rules: no reader includes another reader (what readers share is a header of its own)") {
  // a reader is core/.../NAME_reader.{h,cc}; it may include its own header, no other NAME_reader.h
  const fs::path root = fs::path(source_path("core")).parent_path();
  int readers = 0;
  for (const auto& e : fs::recursive_directory_iterator(root / "core")) {
    const std::string stem = e.path().stem().string();
    if (!e.is_regular_file() || !stem.ends_with("_reader")) continue;
    ++readers;
    const std::string own = (e.path().parent_path() / (stem + ".h")).lexically_relative(root).string();
    std::istringstream lines(mmacheck::test::read_file(e.path().string()));
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("#include \"") || line.find("_reader.h\"") == std::string::npos) continue;
      INFO(e.path().string() << ": " << line);
      CHECK(line == "#include \"" + own + "\"");
    }
  }
  CHECK(readers >= 10);  // wgmma, tcgen05, TMA, mma.sp, block scales, released TIRx: a header and a source each
}

TEST_CASE("layer rules: a relative include is resolved against the including file's folder") {
  const fs::path root = fs::temp_directory_path() / ("mmacheck-layers-relative-" + std::to_string(::getpid()));
  fs::create_directories(root / "core" / "layout");
  const fs::path bad = root / "core" / "layout" / "bad.cc";
  std::ofstream(root / "core" / "layout" / "axis.h") << "\n";
  std::ofstream(bad) << "#include \"axis.h\"\n#include \"./axis.h\"\n#include \"../base/error.h\"\n"
                        "#include \"../gemm/nest.h\"\n";
  const auto r = check("core/layout", "core/base", {bad.string()}, root, root.string());
  CHECK(r.status != 0);
  CHECK(r.err.find("includes \"../gemm/nest.h\" (core/gemm/nest.h), which core/layout may not use") !=
        std::string::npos);
  // its own folder's headers and core/base's are allowed, however spelled
  CHECK(r.err.find("axis.h") == std::string::npos);
  CHECK(r.err.find("error.h") == std::string::npos);
  CHECK(check("core/layout", "core/base;core/gemm", {bad.string()}, root, root.string()).status == 0);
  // "../base/error.h" is core/base's: forbidding it is caught too
  const auto no_base = check("core/layout", "core/gemm", {bad.string()}, root, root.string());
  CHECK(no_base.err.find("includes \"../base/error.h\" (core/base/error.h)") != std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("layer rules: no library layer includes a tests/ or bench/ header") {
  const fs::path dir = fs::temp_directory_path() / ("mmacheck-layers-tests-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path bad = dir / "bad.cc";
  // bench/ has no header yet: the name is put together so that this file
  // cites no missing one (scripts/check_references.sh)
  const std::string bench_header = std::string("bench/") + "timing.h";
  std::ofstream(bad) << "#include \"core/base/error.h\"\n#include \"tests/support.h\"\n#include \"" << bench_header
                     << "\"\n";
  const auto r = check("core/prove", "core/base;core/layout;core/program;core/gemm", {bad.string()}, dir);
  CHECK(r.status != 0);
  CHECK(r.err.find("includes \"tests/support.h\", which core/prove may not use") != std::string::npos);
  CHECK(r.err.find("includes \"" + bench_header + "\", which core/prove may not use") != std::string::npos);
  CHECK(r.err.find("error.h\", which") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("layer rules: tests/ and bench/ use the library layers, not cli/, and bench not tests/") {
  const fs::path dir = fs::temp_directory_path() / ("mmacheck-layers-clients-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // what tests/CMakeLists.txt and bench/CMakeLists.txt allow: every library layer
  const std::string libraries =
      "core/base;core/layout;core/program;core/program/tvmscript;core/program/tirx_release;core/program/read;"
      "core/gemm;core/prove;core/sparse;core/scales;core/cute;core/triton;core/wgmma;core/tcgen05;core/tma;core/ptx;core/emit;"
      "sim/numerics;sim/machine;sim/vectors;sim/check;sim/wgmma;sim/tcgen05;sim/sparse;sim/scales;sim/ptx;"
      "cuda";
  const std::vector<std::string> tests = folder_files("tests"), bench = folder_files("bench");
  REQUIRE(tests.size() > 50);
  REQUIRE(bench.size() >= 4);
  CHECK(check("tests", libraries, tests, dir).status == 0);
  CHECK(check("bench", libraries, bench, dir).status == 0);
  CHECK(check("tests", "core/base;core/gemm", tests, dir).status != 0);  // not vacuous
  const fs::path bad = dir / "bad.cc";
  std::ofstream(bad) << "#include \"cli/command.h\"\n#include \"tests/support.h\"\n";
  const auto t = check("tests", libraries, {bad.string()}, dir);
  CHECK(t.err.find("includes \"cli/command.h\", which tests may not use") != std::string::npos);
  CHECK(t.err.find("support.h\", which") == std::string::npos);
  const auto b = check("bench", libraries, {bad.string()}, dir);
  CHECK(b.err.find("includes \"cli/command.h\", which bench may not use") != std::string::npos);
  CHECK(b.err.find("includes \"tests/support.h\", which bench may not use") != std::string::npos);
  fs::remove_all(dir);
}

}  // namespace test_layer_rules
