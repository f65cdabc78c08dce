// `mmacheck replay` and the front door's vector row (cli/vector_replay.h):
// a vector file of each family — mma.sync, mma.sp, wgmma, tcgen05, cut to
// its first cases from the recorded ones — replays through its family's
// simulator whichever way it comes in (replay, prove, the family command);
// a planted wrong D word fails it; a file of no family, or of another
// family than the command's, is bad input naming the file.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/base/json.h"
#include "tests/support.h"

namespace test_cli_replay {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

namespace fs = std::filesystem;

// The recorded file's lines up to its `cases`-th case, in a temporary folder.
std::string first_cases(const std::string& recorded, const std::string& name, int cases) {
  const std::string text = read_file(source_path(recorded));
  std::size_t at = 0;
  for (int seen = 0; (at = text.find("\ncase ", at + 1)) != std::string::npos;)
    if (++seen > cases) break;
  const fs::path dir = fs::temp_directory_path() / ("mmacheck-replay-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path) << text.substr(0, at == std::string::npos ? text.size() : at + 1);
  return path.string();
}

struct Family {
  const char* name;
  std::string file;
};

std::vector<Family> families() {
  return {{"mma", first_cases("tests/data/m16n8k16.f32.f16.f16.f32.mmav", "mma.mmav", 3)},
          {"mma.sp", first_cases("tests/data/mma_sp/h200.k16.mmav", "sparse.mmav", 3)},
          {"wgmma", first_cases("tests/data/mmasim/wgmma.sm_90.mmav", "wgmma.mmav", 2)},
          {"tcgen05", first_cases("tests/data/mmasim/tcgen05.sm_100.mmav", "tcgen05.mmav", 2)}};
}

// The file with the first hex word of its first D line changed.
std::string planted(const std::string& path) {
  std::string text = read_file(path);
  const std::size_t d = text.find("\nD ");
  REQUIRE(d != std::string::npos);
  char& digit = text[d + 3];
  digit = digit == '0' ? '1' : '0';
  const std::string out = path + ".planted.mmav";
  std::ofstream(out) << text;
  return out;
}

}  // namespace

TEST_CASE("replay runs a vector file of every family through its simulator", "[cli][replay]") {
  const std::vector<Family> all = families();
  std::vector<std::string> args{"replay"};
  for (const Family& f : all) args.push_back(f.file);
  const RunResult r = run_mmacheck(args);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find(" 0 failed") != std::string::npos);
  // One JSON line per family, in the order given, each passed.
  args.emplace_back("--json");
  const RunResult j = run_mmacheck(args);
  REQUIRE(j.status == 0);
  std::istringstream lines(j.out);
  std::size_t i = 0;
  for (std::string line; std::getline(lines, line); ++i) {
    REQUIRE(i < all.size());
    const Json report = Json::parse(line);
    CHECK(report["family"] == all[i].name);
    CHECK(report["verdict"] == "passed");
    CHECK(report["cases"].get<int>() > 0);
    CHECK(report["failed"] == 0);
  }
  CHECK(i == all.size());
}

TEST_CASE("a wrong D word in a vector file fails it through replay, prove and the family command", "[cli][replay]") {
  const char* family_command[] = {"mma", "sparse", "wgmma-sim", "tcgen05-sim"};
  int k = 0;
  for (const Family& f : families()) {
    INFO(f.name);
    const std::string bad = planted(f.file);
    const RunResult replay = run_mmacheck({"replay", bad});
    INFO(replay.out << replay.err);
    CHECK(replay.status == 1);
    CHECK(replay.out.find(" 1 failed") != std::string::npos);
    // The front door reads it as a vector file, whatever instruction it names.
    const RunResult prove = run_mmacheck({"prove", bad});
    INFO(prove.out << prove.err);
    CHECK(prove.status == 1);
    CHECK(prove.out.find("failed  " + bad + "  " + f.name + " vectors replayed") != std::string::npos);
    CHECK(run_mmacheck({"prove", f.file}).status == 0);
    // sim, the job of running a file, replays a vector file too.
    CHECK(run_mmacheck({"sim", f.file}).status == 0);
    CHECK(run_mmacheck({"sim", bad}).status == 1);
    CHECK(run_mmacheck({family_command[k++], "--vectors", bad}).status == 1);
  }
}

TEST_CASE("replay refuses a file that is no vector file; the family commands are its aliases", "[cli][replay]") {
  const RunResult none = run_mmacheck({"replay", source_path("examples/seed.txt")});
  CHECK(none.status == 2);
  CHECK(none.err.find("seed.txt: error: not a vector file") != std::string::npos);
  // `mma --vectors` is replay: another family's file is replayed by its family.
  const std::vector<Family> all = families();
  const RunResult other = run_mmacheck({"mma", "--vectors", all[2].file});
  CHECK(other.status == 0);
  CHECK(other.out == run_mmacheck({"replay", all[2].file}).out);
  CHECK(run_mmacheck({"replay"}).status == 2);
  CHECK(run_mmacheck({"replay", all[0].file, "--show", "-1"}).status == 2);
}

}  // namespace test_cli_replay
