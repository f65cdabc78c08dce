// sm_120's block-scaled mma.sync bit for bit against MMA-Sim 2.1.1: the
// edge-heavy vectors of scripts/mmasim/block_scaled.py
// (tests/data/mmasim/block_scaled.sm_120.mmav) replayed through the lanes,
// their scale words and selectors; a wrong application of the scales
// planted in them is refuted; and the vector format's scale lines are
// checked as strictly as its tiles.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "core/base/error.h"
#include "sim/numerics/block_scaled.h"
#include "sim/vectors/vector_file.h"
#include "tests/support.h"

namespace test_block_scaled_vectors {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

const std::string kPath = "tests/data/mmasim/block_scaled.sm_120.mmav";

const VectorFile& recorded() {
  static const VectorFile file = read_vector_file(test::source_path(kPath));
  return file;
}

// D elements that differ when each case's scale tiles are first passed
// through `plant` (a wrong way of applying them) and then computed.
template <class Plant>
int planted_differences(Plant plant) {
  const ArchParams& sm120 = arch_params("sm_120");
  int differ = 0;
  for (const VectorCase& vc : recorded().cases) {
    std::vector<std::uint64_t> sa = vc.sa, sb = vc.sb, d(vc.d.size());
    plant(*vc.inst, sa, sb);
    block_scaled_tile(*vc.inst, sm120, vc.a, vc.b, vc.c, sa, sb, d);
    for (std::size_t i = 0; i < d.size(); ++i) differ += d[i] != vc.d[i];
  }
  return differ;
}

std::string error_of(const std::string& text) {
  try {
    parse_vector_file(text, "v.mmav");
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.message();
  }
  return "no error";
}

std::string words(int n, const std::string& w) {
  std::string s;
  for (int i = 0; i < n; ++i) s += " " + w;
  return s;
}

}  // namespace

TEST_CASE("every block-scaled instruction agrees with MMA-Sim on its edge cases", "[block_scaled][vectors][mmasim]") {
  const VectorFile& file = recorded();
  const VectorReport report = run_vector_file(file, arch_params("sm_120"), 5);
  for (const Mismatch& m : report.mismatches)
    UNSCOPED_INFO("case " << m.vcase->id << " (" << m.vcase->kind << ") of " << m.vcase->inst->ptx() << " D[" << m.row
                          << "][" << m.col << "] MMA-Sim " << std::hex << m.expected << ", mmacheck " << m.got);
  CHECK(report.failed == 0);
  CHECK(report.passed == static_cast<int>(file.cases.size()));
  std::size_t outputs = 0;
  std::set<std::string> kinds, insts, selectors;
  for (const VectorCase& c : file.cases) {
    outputs += c.d.size();
    kinds.insert(c.kind);
    insts.insert(c.inst->ptx());
    selectors.insert(std::to_string(c.sel_a.byte_id) + std::to_string(c.sel_a.thread_id) +
                     std::to_string(c.sel_b.byte_id) + std::to_string(c.sel_b.thread_id));
  }
  CHECK(outputs == 128 * file.cases.size());
  CHECK(outputs >= 60000);
  CHECK(kinds == std::set<std::string>{"uniform", "bits", "nanscale", "zeroscale", "extreme", "cancel", "subnormal",
                                       "saturate", "ctiny"});
  std::set<std::string> want;
  for (const MmaInst& i : block_scale_instructions()) want.insert(i.ptx());
  CHECK(insts == want);
  CHECK(selectors.size() >= 8);  // the scale words went through many selectors
}

TEST_CASE("a wrong application of the scales is refuted by the MMA-Sim vectors", "[block_scaled][vectors][mmasim]") {
  // Each plant is a way to get the scale operands wrong; every one changes
  // some recorded D, so the vectors would catch a model that made it.
  // ue8m0 read as 2^(s - 128): one exponent off.
  CHECK(planted_differences([](const MmaInst& in, std::vector<std::uint64_t>& sa, std::vector<std::uint64_t>&) {
          if (in.stype != ScaleType::ue8m0) return;
          for (std::uint64_t& s : sa)
            if (s != 0xFF && s != 0) --s;
        }) > 1000);
  // K-blocks in the wrong order (2X/4X): block v's scale on block v + 1.
  CHECK(planted_differences([](const MmaInst& in, std::vector<std::uint64_t>& sa, std::vector<std::uint64_t>&) {
          for (int i = 0; i < in.m && in.scale_vec > 1; ++i)
            std::rotate(sa.begin() + i * in.scale_vec, sa.begin() + i * in.scale_vec + 1,
                        sa.begin() + (i + 1) * in.scale_vec);
        }) > 1000);
  // A's scale for row i used for row i ^ 8 (the thread-id pair swapped).
  CHECK(planted_differences([](const MmaInst& in, std::vector<std::uint64_t>& sa, std::vector<std::uint64_t>&) {
          for (int i = 0; i < 8; ++i)
            std::swap_ranges(sa.begin() + i * in.scale_vec, sa.begin() + (i + 1) * in.scale_vec,
                             sa.begin() + (i + 8) * in.scale_vec);
        }) > 1000);
  // ue4m3's sign bit honoured as a sign (MMA-Sim ignores it): read a negative scale as NaN-free magnitude 0.
  CHECK(planted_differences([](const MmaInst& in, std::vector<std::uint64_t>& sa, std::vector<std::uint64_t>& sb) {
          if (in.stype != ScaleType::ue4m3) return;
          for (auto* t : {&sa, &sb})
            for (std::uint64_t& s : *t)
              if (s & 0x80) s = 0;
        }) > 0);
  // Unplanted, nothing differs: the refutations are the plants'.
  CHECK(planted_differences([](const MmaInst&, std::vector<std::uint64_t>&, std::vector<std::uint64_t>&) {}) == 0);
}

TEST_CASE("mmacheck mma --vectors replays the block-scaled vectors on sm_120", "[block_scaled][vectors][cli]") {
  const test::RunResult r = test::run_mmacheck({"mma", "--vectors", test::source_path(kPath), "--arch", "sm_120"});
  CHECK(r.status == 0);
  CHECK(r.out.find(std::to_string(recorded().cases.size()) + " passed, 0 failed\n") != std::string::npos);
  const test::RunResult old = test::run_mmacheck({"mma", "--vectors", test::source_path(kPath), "--arch", "sm_90"});
  CHECK(old.status == 2);
  CHECK(old.err.find("needs sm_120, not sm_90") != std::string::npos);
}

TEST_CASE("scale lines of a vector file are checked like its tiles", "[block_scaled][vectors]") {
  const std::string instr =
      "instr mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3\n";
  const std::string tiles = "A" + words(1024, "2") + "\nB" + words(512, "2") + "\nC" + words(128, "00000000") + "\nD" +
                            words(128, "42800000") + "\n";
  const std::string sa = "SA" + words(64, "38") + "\n", sb = "SB" + words(32, "38") + "\n";
  const VectorFile ok = parse_vector_file(instr + "case 0 unit\n" + tiles + sa + sb + "SEL 0 1 0 3\n", "ok.mmav");
  REQUIRE(ok.cases.size() == 1);
  CHECK(ok.cases[0].sel_b == ScaleSelector{0, 3});
  CHECK(run_vector_case(ok.cases[0], arch_params("sm_120")).empty());  // 64 products of 1, scales 1
  CHECK(error_of(instr + "case 0\n" + tiles + sa) == "2:0: case 0 has no SB line");
  CHECK(error_of(instr + "case 0\n" + tiles + "SA" + words(63, "38") + "\n") ==
        "7:1: SA has 63 words, m16n8k64 needs 64");
  CHECK(error_of(instr + "case 0\n" + tiles + "SA 138" + words(63, "38") + "\n") ==
        "7:4: '138' has 3 hex digits, ue4m3 words have 2");
  CHECK(error_of(instr + "case 0\n" + tiles + sa + sb + "SEL 2 0 0 0\n") ==
        "9:5: byte-id-a 2 is not valid for scale_vec::4X (0)");
  CHECK(error_of(instr + "case 0\n" + tiles + sa + sb + "SEL 0 0 0 4\n") == "9:9: thread-id-b 4 is not 0..3");
  CHECK(error_of(instr + "case 0\nA" + words(1024, "12") + "\n") == "3:3: '12' has 2 hex digits, e2m1 words have 1");
  // A scale line for an instruction without scales is an unknown line kind.
  CHECK(error_of("instr mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\ncase 0\nSA 00\n") ==
        "3:1: unknown line kind 'SA' (expected instr, case, A, B, C or D)");
}

}  // namespace test_block_scaled_vectors
