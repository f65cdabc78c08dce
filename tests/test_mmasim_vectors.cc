// Oracle vectors: MMA-Sim 2.1.1's answers on edge-heavy inputs, one file per
// architecture row (tests/data/mmasim/ARCH.mmav, made by
// scripts/mmasim/compare.py --record), replayed through the lane-accurate
// simulator with that row; and the H200 edge captures (tests/data/edge.*.mmav,
// replayed on sm_90 with the rest of tests/data by test_vectors.cc) checked
// to be there.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <span>

#include "core/gemm/mma_inst.h"
#include "sim/vectors/vector_file.h"
#include "tests/support.h"

namespace test_mmasim_vectors {

using namespace mmacheck;
using namespace mmacheck::sim;

TEST_CASE("every architecture row agrees with MMA-Sim on its recorded edge cases", "[vectors][mmasim]") {
  for (const ArchParams& arch : all_arch_params()) {
    const std::string path = test::source_path("tests/data/mmasim/" + std::string(arch.name) + ".mmav");
    INFO(path);
    REQUIRE(std::filesystem::exists(path));
    const VectorFile file = read_vector_file(path);
    const VectorReport report = run_vector_file(file, arch, 5);
    for (const sim::Mismatch& m : report.mismatches)
      UNSCOPED_INFO("case " << m.vcase->id << " (" << m.vcase->kind << ") D[" << m.row << "][" << m.col << "] MMA-Sim "
                            << std::hex << m.expected << ", mmacheck " << m.got);
    CHECK(report.failed == 0);
    CHECK(report.passed == static_cast<int>(file.cases.size()));
    // Every kind of scripts/mmasim/edge_cases.py is there, for each variant the row models.
    std::set<std::string> kinds;
    for (const VectorCase& c : file.cases) kinds.insert(c.kind);
    CHECK(kinds == std::set<std::string>{"uniform", "bits", "cancel", "threshold", "zeroterm", "underflow", "ties",
                                         "overflow", "lowbits"});
    CHECK(report.tallies.size() >= 2);
    // Every floating-point instruction the row models is there, except where
    // MMA-Sim has no model: fp8 on sm_90 (CUDA's emulation, H200 only) and
    // f64 m16n8k* beyond sm_90 (MMA-Sim's Blackwell lists lack them).
    // m8n8k4 f16 (quad pairs) counts as well: sm_70 and sm_75 model it.
    std::set<std::string> want, got;
    for (const std::span<const MmaInst> table : {mma_instructions(), quad_pair_instructions()})
      for (const MmaInst& i : table) {
        if (!dtype_info(i.a).is_float || !has_model(i, arch)) continue;
        if (is_f8f6f4(i.a) && arch.fp8 == Fp8Path::emulated) continue;
        if (i.a == DType::f64 && i.m == 16 && arch.sm > 90) continue;
        want.insert(i.ptx());
      }
    for (const InstrTally& t : report.tallies) got.insert(t.inst->ptx());
    CHECK(got == want);
  }
}

TEST_CASE("the H200 edge captures of the eight fused variants are kept", "[vectors]") {
  std::set<std::string> found, fused;
  for (const MmaInst& i : mma_instructions())
    if (i.a == DType::f16 || i.a == DType::bf16 || i.a == DType::tf32) fused.insert(i.ptx());
  REQUIRE(fused.size() == 8);
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("tests/data"))) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("edge.", 0) != 0) continue;
    const VectorFile file = read_vector_file(entry.path().string());
    CHECK(file.cases.size() >= 6);  // 2 (fp8: 1) of each edge kind
    found.insert(file.cases.front().inst->ptx());
  }
  for (const std::string& ptx : fused) CHECK(found.count(ptx) == 1);
}

}  // namespace test_mmasim_vectors
