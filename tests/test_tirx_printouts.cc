// What TVM 0.1.0a4 prints, read as it prints it: tests/data/tirx/printouts/
// (scripts/tirx-oracle/printouts.py) holds, per variant, the program as
// written (NAME.py), TVM's `mod.script()` of it bound to a CUDA sm_90 target
// (NAME.script.py: T.func_attr, T.target, T.device_entry(1, 1, 1, 32, 1, 1,
// attrs=...), the tile.apply tuple form) and, where TVM accepts the pattern,
// the module after TileDispatch (NAME.lowered.py).  Every file of the folder
// is read, and each printout gets the verdict and check results of the
// program it was printed from — planted mistakes TVM accepts are refuted in
// all three forms.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <sstream>

#include "core/base/json.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_tirx_printouts {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const std::string kFolder = "tests/data/tirx/printouts";

std::vector<Json> manifest() {
  std::istringstream in(read_file(source_path(kFolder + "/manifest.jsonl")));
  std::vector<Json> out;
  std::string line;
  for (bool first = true; std::getline(in, line); first = false)
    if (!first && !line.empty()) out.push_back(parse_json(line, "manifest.jsonl"));
  return out;
}

}  // namespace

TEST_CASE("every file TVM printed for the corpus is read", "[tirx][printouts]") {
  std::set<std::string> listed;
  int forms = 0;
  for (const Json& e : manifest()) {
    for (const char* key : {"source", "script", "lowered"})
      if (e.contains(key)) {
        listed.insert(std::filesystem::path(e[key].get<std::string>()).filename().string());
        ++forms;
      }
  }
  int read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_path(kFolder))) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".py") continue;
    INFO(name);
    CHECK(listed.contains(name));  // nothing in the folder escapes the comparison below
    const Program p = load_program(entry.path().string());
    CHECK(p.release.has_value());
    ++read;
  }
  // The examples' sources live in examples/, the rest beside their prints.
  CHECK(read >= 90);
  CHECK(forms >= read);
}

TEST_CASE("each printout of TVM gets the verdict of the program it prints", "[tirx][printouts][prove]") {
  const std::vector<Json> entries = manifest();
  REQUIRE(entries.size() >= 30);
  std::map<std::string, int> verdicts;
  for (const Json& e : entries) {
    const std::string name = e["name"], verdict = e["verdict"];
    INFO(name);
    const ProofReport program = prove_both(load_program(source_path(e["source"].get<std::string>())));
    CHECK(verdict_name(program.verdict) == verdict);
    ++verdicts[verdict];
    std::vector<std::string> prints{e["script"].get<std::string>()};
    // TVM lowers what it accepts; a pattern it refuses has no dump.
    CHECK(e.contains("lowered") == e["accepted"].get<bool>());
    CHECK(e["accepted"].get<bool>() == (verdict != "dispatch_failed"));
    if (e.contains("lowered")) prints.push_back(e["lowered"].get<std::string>());
    for (const std::string& path : prints) {
      INFO(path);
      const ReadProgram read = read_program_file(source_path(path));
      const Program& printed = read.program;
      REQUIRE(printed.release.has_value());
      // What was passed over is TVM's function attributes, and it is listed.
      REQUIRE_FALSE(read.skipped.empty());
      for (const std::string& s : read.skipped) CHECK(s.rfind("T.func_attr (line ", 0) == 0);
      CHECK(printed.release->lowered == (path.find(".lowered.") != std::string::npos));
      const ProofReport r = prove_both(printed);
      CHECK(verdict_name(r.verdict) == verdict);
      CHECK(r.reasons == program.reasons);
      CHECK(r.mma_count == program.mma_count);
      REQUIRE(r.checks.size() == program.checks.size());
      for (std::size_t i = 0; i < r.checks.size(); ++i) {
        CHECK(r.checks[i].check == program.checks[i].check);
        CHECK(r.checks[i].result == program.checks[i].result);
      }
    }
  }
  // The corpus plants mistakes of both kinds, not only correct programs.
  CHECK(verdicts["proved"] >= 20);
  CHECK(verdicts["refuted"] >= 5);
  CHECK(verdicts["dispatch_failed"] >= 3);
}

}  // namespace test_tirx_printouts
