// `mmacheck sim` on tcgen05.mma files and mma.sp metadata files
// (sim/tcgen05/tcgen05_file_sim.h, sim/sparse/sparse_file_sim.h; issue 39):
// the program's instruction descriptor, buffers, descriptors, TMEM layout
// and metadata run with numbers against the instruction packed as the ISA
// means it.  The verdict must be prove's on every example (unchecked where
// the simulator has no model, never passed), and each planted mistake fails
// while its harmless twin passes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "core/sparse/sparse_check.h"
#include "core/sparse/sparse_reader.h"
#include "core/scales/scale_check.h"
#include "core/scales/scale_reader.h"
#include "core/tcgen05/tcgen05_check.h"
#include "core/tcgen05/tcgen05_reader.h"
#include "sim/numerics/mma_model.h"
#include "sim/scales/scale_file_sim.h"
#include "sim/sparse/sparse_file_sim.h"
#include "sim/tcgen05/tcgen05_arith.h"
#include "sim/tcgen05/tcgen05_file_sim.h"
#include "tests/support.h"

namespace test_family_file_sim {

using namespace mmacheck;
using mmacheck::test::run_mmacheck;
using mmacheck::test::source_path;

namespace {

std::vector<std::string> examples(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(source_path(folder)))
    if (e.path().extension() == ".txt") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

sim::Tcgen05FileSim run_tcgen05(const std::string& text, int cases = 4) {
  return sim::simulate_tcgen05_file(read_tcgen05_file(text, "t.txt"), sim::tcgen05_arith("sm_100"),
                                    {.cases = cases, .seed = 5, .show = 2});
}

// examples/tcgen05/f16_k_sw128.txt with one line replaced.
std::string f16_k_sw128_with(const std::string& from, const std::string& to) {
  std::string text = read_text_file(source_path("examples/tcgen05/f16_k_sw128.txt"));
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("tcgen05 files: sim's verdict is prove's; cta_group::2 unchecked, never passed", "[tcgen05][sim]") {
  const std::vector<std::string> files = examples("examples/tcgen05");
  REQUIRE(files.size() >= 10);
  int passed = 0, failed = 0, unchecked = 0;
  for (const std::string& path : files) {
    INFO(path);
    const Tcgen05Case c = read_tcgen05_file(read_text_file(path), path);
    const FrameVerdict proved = check_tcgen05(c).result;
    const sim::Tcgen05FileSim r = sim::simulate_tcgen05_file(c, sim::tcgen05_arith("sm_100"), {.cases = 4, .seed = 2});
    if (c.instr.cta_group == 2) {
      ++unchecked;
      CHECK(r.unchecked_any());
      CHECK_THAT(r.unchecked, Catch::Contains("cta_group::2 is not simulated"));
      CHECK(r.operands.empty());
      continue;
    }
    CHECK_FALSE(r.unchecked_any());
    if (proved == FrameVerdict::proved) {
      ++passed;
      CHECK_FALSE(r.failed());
      for (const sim::Tcgen05OperandSim& o : r.operands) CHECK(o.outputs == 4LL * c.instr.m * c.instr.n);
    } else {
      ++failed;
      CHECK(r.failed());
    }
  }
  CHECK(passed >= 2);
  CHECK(failed >= 4);
  CHECK(unchecked >= 3);
}

TEST_CASE("tcgen05 file sim: each planted mistake fails at its piece, its harmless twin passes", "[tcgen05][sim]") {
  // Harmless: B's buffer and descriptor moved together to 0x8000.
  const std::string moved = f16_k_sw128_with("descriptor 0x4000404000010400\nsmem base=0x4000",
                                             "descriptor 0x4000404000010800\nsmem base=0x8000");
  CHECK_FALSE(run_tcgen05(moved).failed());
  // The descriptor moved alone: B read from where nothing was put.
  const sim::Tcgen05FileSim stale =
      run_tcgen05(f16_k_sw128_with("descriptor 0x4000404000010400", "descriptor 0x4000404000010800"));
  CHECK(stale.failed());
  REQUIRE(stale.operands.size() == 3);
  CHECK(stale.operands[2].failed_cases == 4);
  CHECK(stale.operands[0].failed_cases == 0);
  // The idesc's transpose-B bit: the tensor core reads B MN-major.
  const sim::Tcgen05FileSim transposed = run_tcgen05(f16_k_sw128_with("idesc 0x08400490", "idesc 0x08410490"));
  CHECK(transposed.problem.empty());
  CHECK(transposed.failed());
  // The idesc's atype f16 (0) where the program means bf16: every operand run reads A as f16.
  const sim::Tcgen05FileSim retyped = run_tcgen05(f16_k_sw128_with("idesc 0x08400490", "idesc 0x08400410"));
  CHECK(retyped.failed());
  for (const sim::Tcgen05OperandSim& o : retyped.operands) CHECK(o.failed_cases > 0);
  // The idesc's negate A: not simulated, so no case can run as the program means it.
  const sim::Tcgen05FileSim negated = run_tcgen05(f16_k_sw128_with("idesc 0x08400490", "idesc 0x08402490"));
  CHECK(negated.failed());
  CHECK_THAT(negated.problem, Catch::Contains("negated A or B is not simulated"));
  // D's TMEM layout: rows read from the wrong lanes, or D at a lane it may not sit at.
  const sim::Tcgen05FileSim lanes =
      run_tcgen05(f16_k_sw128_with("tmem D lane=0 column=0 layout=S[(128, 256) : (1@TLane, 1@TCol)]",
                                   "tmem D lane=0 column=0 layout=S[(2, 64, 256) : (64@TLane, 1@TLane, 1@TCol)]"));
  CHECK_FALSE(lanes.failed());  // the same positions, written as two modes
  const sim::Tcgen05FileSim swapped =
      run_tcgen05(f16_k_sw128_with("tmem D lane=0 column=0 layout=S[(128, 256) : (1@TLane, 1@TCol)]",
                                   "tmem D lane=0 column=0 layout=S[(2, 64, 256) : (1@TLane, 2@TLane, 1@TCol)]"));
  CHECK(swapped.failed());
  const sim::Tcgen05FileSim lane16 =
      run_tcgen05(f16_k_sw128_with("tmem D lane=0 column=0 layout=S[(128, 256) : (1@TLane, 1@TCol)]",
                                   "tmem D lane=16 column=0 layout=S[(128, 256) : (1@TLane, 1@TCol)]"));
  CHECK(lane16.failed());
  CHECK_THAT(lane16.problem, Catch::Contains("D at TMEM lane 16"));
}

TEST_CASE("tcgen05 file sim through the command line: exit status, JSON; a TIRx dump is unchecked",
          "[tcgen05][sim][cli]") {
  const auto ok = run_mmacheck({"sim", source_path("examples/tcgen05/f16_k_sw128.txt"), "--cases", "2"});
  CHECK(ok.status == 0);
  CHECK(ok.out.find("passed: 3 runs") != std::string::npos);
  const auto lane = run_mmacheck({"sim", source_path("examples/tcgen05/bad_tmem_lane.txt"), "--cases", "2"});
  CHECK(lane.status == 1);
  CHECK(lane.out.find("through the program's descriptors and TMEM layout") != std::string::npos);
  const Json pair = Json::parse(run_mmacheck({"sim", source_path("examples/tcgen05/f16_pair_m128.txt"), "--json"}).out);
  CHECK(pair["verdict"] == "unchecked");
  CHECK(pair["reason"].get<std::string>().find("cta_group::2") != std::string::npos);
  const auto dump = run_mmacheck({"sim", source_path("tests/data/tirx/tcgen05_f16_mn_m64.lowered.py")});
  CHECK(dump.status == 1);
  CHECK(dump.out.find("unchecked  a TIRx dump's K loop is not simulated") != std::string::npos);
  const Json idesc = Json::parse(run_mmacheck({"sim", source_path("examples/tcgen05/bad_idesc_m.txt"), "--json"}).out);
  CHECK(idesc["verdict"] == "failed");
  CHECK(idesc["problem"].get<std::string>().find("m64n256k16") != std::string::npos);
}

TEST_CASE("mma.sp files: sim's verdict is prove's; planted metadata mistakes fail", "[mma-sp][sim]") {
  const std::vector<std::string> files = examples("examples/sparse");
  REQUIRE(files.size() >= 4);
  int passed = 0, failed = 0;
  for (const std::string& path : files) {
    INFO(path);
    const SparseCase c = read_sparse_file(read_text_file(path), path);
    const sim::SparseFileSim r = sim::simulate_sparse_file(c, sim::arch_params("sm_90"), {.cases = 6, .seed = 4});
    CHECK(r.cases == 6);
    CHECK(r.outputs == 6LL * c.inst->m * c.inst->n);
    if (check_sparse(c).result == FrameVerdict::proved) {
      ++passed;
      CHECK(r.failed_cases == 0);
    } else {
      ++failed;
      CHECK(r.failed_cases > 0);
    }
  }
  CHECK(passed >= 3);
  CHECK(failed >= 1);
  const std::string base = read_text_file(source_path("examples/sparse/k32_selector1.txt"));
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = base;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    return sim::simulate_sparse_file(read_sparse_file(text, "k.txt"), sim::arch_params("sm_90"), {.cases = 6});
  };
  // The selector 0 lanes write the metadata the kernel passes selector 1 for.
  CHECK(with("holders=2,3 row=g+8*j2 chunk=4*t-8+j0+2*j1", "holders=0,1 row=g+8*j2 chunk=4*t+j0+2*j1").failed_cases >
        0);
  // Rows g and g + 8 swapped.
  CHECK(with("row=g+8*j2", "row=g+8-8*j2").failed_cases > 0);
  // The selector changed with the lanes: harmless.
  CHECK(with("selector 1\nmeta holders=2,3 row=g+8*j2 chunk=4*t-8+j0+2*j1",
             "selector 0\nmeta holders=0,1 row=g+8*j2 chunk=4*t+j0+2*j1")
            .failed_cases == 0);
  // A chunk the kernel leaves out: the instruction reads 0b0000 there.
  const sim::SparseFileSim hole = with("chunk=4*t-8+j0+2*j1", "chunk=4*t-7+j0+2*j1");
  CHECK(hole.failed_cases > 0);
  CHECK_THAT(hole.undefined, Catch::Contains("no valid index pair"));
}

TEST_CASE("mma.sp file sim through the command line: exit status and JSON", "[mma-sp][sim][cli]") {
  const auto ok = run_mmacheck({"sim", source_path("examples/sparse/k64_s8.txt"), "--cases", "4"});
  CHECK(ok.status == 0);
  CHECK(ok.out.find("passed  ") == 0);
  const Json bad = Json::parse(
      run_mmacheck({"sim", source_path("examples/sparse/reject_k32_s8_16bit_meta.txt"), "--cases", "4", "--json"}).out);
  CHECK(bad["verdict"] == "failed");
  CHECK(bad["sparse_sim"]["failed_cases"].get<int>() > 0);
  CHECK(bad["sparse_sim"]["arch"] == "sm_90");
}

TEST_CASE("block-scaled files: sim's verdict is prove's; an operand without a place line is unchecked",
          "[scales][sim]") {
  const std::vector<std::string> files = examples("examples/scales");
  REQUIRE(files.size() >= 5);
  int passed = 0, failed = 0;
  for (const std::string& path : files) {
    INFO(path);
    for (const ScaleCase& c : read_scale_file(read_text_file(path), path)) {
      const bool proved = check_scales(*c.inst, *c.a).result == FrameVerdict::proved &&
                          check_scales(*c.inst, *c.b).result == FrameVerdict::proved;
      const sim::ScaleCaseSim r = sim::simulate_scale_case(c, sim::arch_params("sm_120"), {.cases = 6, .seed = 9});
      CHECK(r.unchecked.empty());
      CHECK(r.outputs == 6LL * c.inst->m * c.inst->n);
      if (proved) {
        ++passed;
        CHECK(r.failed_cases == 0);
      } else {
        ++failed;
        CHECK(r.failed_cases > 0);
      }
    }
  }
  CHECK(passed >= 2);
  CHECK(failed >= 3);
  const std::string base = read_text_file(source_path("examples/scales/mxf8f6f4_1x.txt"));
  const auto run = [&](const std::string& from, const std::string& to) {
    std::string text = base;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    return sim::simulate_scale_case(read_scale_file(text, "s.txt").at(0), sim::arch_params("sm_120"), {.cases = 6});
  };
  // The same row, written another way: harmless.  B's place line gone: unchecked, no case run.
  CHECK(run("row=lane // 4 + 8 * (lane % 2)", "row=(lane >> 2) + 8 * (lane & 1)").failed_cases == 0);
  const sim::ScaleCaseSim none = run("place b", "# place b");
  CHECK_THAT(none.unchecked, Catch::Contains("no place line for B"));
  CHECK(none.cases == 0);
  const auto cli = run_mmacheck({"sim", source_path("examples/scales/swapped.txt"), "--cases", "4", "--json"});
  CHECK(cli.status == 1);
  const Json j = Json::parse(cli.out);
  CHECK(j["verdict"] == "failed");
  CHECK(j["scales_sim"][0]["failed_cases"].get<int>() == 4);
}

}  // namespace test_family_file_sim
