// `mmacheck sim` on wgmma operand files (sim/wgmma/wgmma_file_sim.h, issue
// 39): random cases through the program's buffer and descriptor against the
// operands packed densely.  Its verdict must be prove's, operand by operand,
// on every example: a proved descriptor gives D bit for bit, a refuted one
// wrong D elements.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "core/base/file_io.h"
#include "core/base/json.h"
#include "core/wgmma/wgmma_check.h"
#include "core/wgmma/wgmma_reader.h"
#include "sim/numerics/wgmma_model.h"
#include "sim/wgmma/wgmma_file_sim.h"
#include "tests/support.h"

namespace test_wgmma_file_sim {

using namespace mmacheck;
using mmacheck::test::run_mmacheck;
using mmacheck::test::source_path;

namespace {

std::vector<std::string> example_files() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(source_path("examples/wgmma")))
    if (e.path().extension() == ".txt") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("wgmma operand files: sim's verdict is prove's, operand by operand", "[wgmma][sim]") {
  const std::vector<std::string> files = example_files();
  REQUIRE(files.size() >= 10);
  int refuted = 0, proved = 0;
  for (const std::string& path : files) {
    for (const WgmmaCase& c : read_wgmma_file(read_text_file(path), path)) {
      INFO(path << " " << c.name);
      const FrameVerdict verdict = check_wgmma(c).result;
      if (verdict == FrameVerdict::unchecked) continue;
      const sim::WgmmaOperandSim r =
          sim::simulate_wgmma_operand(c, sim::wgmma_arith("sm_90"), {.cases = 8, .seed = 3, .show = 2});
      CHECK(r.cases == 8);
      CHECK(r.outputs == 8 * 64 * r.run.inst.n);
      if (verdict == FrameVerdict::proved) {
        ++proved;
        CHECK(r.failed_cases == 0);
        CHECK(r.mismatches.empty());
      } else {
        ++refuted;
        CHECK(r.failed_cases > 0);
        REQUIRE(!r.mismatches.empty());
        CHECK(r.mismatches[0].expected != r.mismatches[0].got);
      }
    }
  }
  CHECK(proved >= 8);
  CHECK(refuted >= 5);
}

TEST_CASE("sim on wgmma files through the command line: exit status, report, JSON", "[wgmma][sim][cli]") {
  const std::string good = source_path("examples/wgmma/k_sw128_f16.txt"),
                    bad = source_path("examples/wgmma/bad_major.txt");
  const auto ok = run_mmacheck({"sim", good, "--cases", "4"});
  CHECK(ok.status == 0);
  CHECK(ok.out.find("3 operands: 3 passed, 0 failed") != std::string::npos);
  const auto wrong = run_mmacheck({"sim", bad, "--cases", "4"});
  CHECK(wrong.status == 1);
  CHECK(wrong.out.find("failed     B (line 4)") != std::string::npos);
  CHECK(wrong.out.find("through the buffer and descriptor") != std::string::npos);
  const Json j = Json::parse(run_mmacheck({"sim", bad, "--cases", "4", "--json"}).out);
  CHECK(j["verdict"] == "failed");
  CHECK(j["cases"] == 4);
  CHECK(j["wgmma_sim"][0]["failed_cases"].get<int>() > 0);
  // Both files at once: a report each, the worst status.
  CHECK(run_mmacheck({"sim", good, bad, "--cases", "2"}).status == 1);
}

TEST_CASE("gpu on a wgmma operand file runs its proved operands; another family's file is bad input", "[gpu][cli]") {
  if (!mmacheck::test::runs_here("gpu")) return;  // a build without CUDA refuses gpu: test_cli_cuda_commands.cc
  const auto r = run_mmacheck({"gpu", source_path("examples/wgmma/k_sw128_f16.txt"), "--cases", "2", "--json"});
  INFO(r.out << r.err);
  REQUIRE((r.status == 0 || r.status == 3));
  const Json j = Json::parse(r.out);
  CHECK(j["verdict"] == (r.status == 0 ? "match" : "no_gpu"));
  if (r.status == 0) CHECK(j["runs"].size() == 3);
  const auto other = run_mmacheck({"gpu", source_path("examples/tcgen05/f16_k_sw128.txt")});
  CHECK(other.status == 2);
  CHECK(other.err.find("gpu has no run of tcgen05.mma files") != std::string::npos);
}

TEST_CASE("sim on a family's file it has no model to run is bad input naming prove", "[sim][cli]") {
  const std::string tma = source_path("examples/tma/k_sw128_f16.txt");
  const auto r = run_mmacheck({"sim", tma});
  CHECK(r.status == 2);
  CHECK(r.err.find("sim has no arithmetic model to run TMA copy files") != std::string::npos);
  CHECK(r.err.find("'mmacheck prove " + tma + "' checks it") != std::string::npos);
}

}  // namespace test_wgmma_file_sim
