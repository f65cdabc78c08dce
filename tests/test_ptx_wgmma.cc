// wgmma in the PTX machine (core/ptx/ptx_wgmma.h): Triton 3.9's matmul
// compiled for sm_90 (tests/data/ptx/triton_sm90/, made by
// scripts/ptx-oracle/triton_kernels.py) proved, its planted mistakes refuted
// at the line expected.tsv names; a hand-written m64n8k16, A from shared
// memory and from registers (tests/data/ptx/wgmma/), proved, and its
// asynchronous hazards (the
// accumulators read or written in flight, the shared operand overwritten in
// flight, the thread's end with a wgmma in flight, no wgmma.fence, no
// fence.proxy.async) refuted
// at their line; sim's numbers from the wgmma model.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/error.h"
#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "sim/numerics/wgmma_model.h"
#include "sim/ptx/ptx_sim.h"
#include "tests/support.h"
#include "tests/test_ptx_support.h"

namespace test_ptx_wgmma {

using namespace mmacheck;
using namespace mmacheck::ptx;
using namespace mmacheck::test;

namespace {

const std::string kHand = "tests/data/ptx/wgmma/m64n8k16.ptx";
const std::string kRegisterA = "tests/data/ptx/wgmma/m64n8k16_rs.ptx";

PtxReport check_text(const std::string& text, const std::string& launch = "") {
  const PtxModule m = read_ptx(text, "k.ptx");
  const std::string l = launch.empty() ? read_file(source_path("tests/data/ptx/wgmma/m64n8k16.launch.json")) : launch;
  return check_ptx_launch(m, read_launch(l, "k.launch.json"), {});
}

// A kernel's text with a planted mistake: refuted with `message`, at an
// instruction whose opcode starts with `opcode`.
struct Case {
  const char* what;
  std::string text;
  const char* opcode;
  const char* message;
};
void expect_refuted(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO(c.what);
    const PtxReport r = check_text(c.text);
    CHECK(r.verdict == FrameVerdict::refuted);
    CHECK_THAT(r.message, Catch::Contains(c.message));
    REQUIRE(r.finding.has_value());
    CHECK(ptx_opcode_at(c.text, r.finding->loc.line).starts_with(c.opcode));
  }
}

}  // namespace

TEST_CASE(
    "Triton's matmul PTX for sm_90 (wgmma, one and two warpgroups, f16 and bf16) proves and its planted mistakes are "
    "refuted at their line",
    "[ptx][wgmma][triton]") {
  const ManifestTally t = check_ptx_manifest("tests/data/ptx/triton_sm90/");
  CHECK(t.rows == 17);
  CHECK(t.proved == 3);
  CHECK(t.refuted == 14);
}

TEST_CASE("a hand-written wgmma m64n8k16 (descriptors from the kernel's addresses, B MN-major) proves",
          "[ptx][wgmma]") {
  const std::string text = read_file(source_path(kHand));
  const PtxReport r = check_text(text);
  INFO(r.message);
  CHECK(r.verdict == FrameVerdict::proved);
  CHECK_THAT(r.message, Catch::Contains("each product once"));
}

TEST_CASE("wgmma's asynchronous hazards are refuted at the instruction", "[ptx][wgmma]") {
  const std::string text = read_file(source_path(kHand));
  const std::string wait = "\twgmma.wait_group.sync.aligned 0;\n";
  const std::string first_store = "\tst.global.v2.f32 [%rd13], {%f0, %f1};\n";
  const std::vector<Case> cases{
      {"D stored before the wait", ptx_edited(ptx_edited(text, wait, ""), first_store, first_store + wait), "st.global",
       "reads register %f0, an accumulator of the wgmma.mma_async at line 63 still in flight"},
      {"no wait at all: the epilogue reads D in flight", ptx_edited(text, wait, ""), "st.global",
       "still in flight (no wgmma.wait_group has completed it)"},
      {"no wait and no store: the thread ends with the wgmma in flight",
       ptx_edited(ptx_edited(ptx_edited(text, wait, ""), first_store, ""),
                  "\tst.global.v2.f32 [%rd13+256], {%f2, %f3};\n", ""),
       "ret", "the thread ends with the wgmma.mma_async at line 63 in flight"},
      {"no commit: the wait does not complete it", ptx_edited(text, "\twgmma.commit_group.sync.aligned;\n", ""),
       "st.global", "still in flight"},
      {"an accumulator written in flight", ptx_edited(text, wait, "\tmov.f32 %f2, 0f3F800000;\n" + wait), "mov.f32",
       "writes register %f2, an accumulator of the wgmma.mma_async at line 63 still in flight"},
      {"A's shared bytes overwritten in flight",
       ptx_edited(text, wait, "\tst.shared.v4.b32 [%r15], {%r10, %r11, %r12, %r13};\n" + wait), "st.shared",
       "reads while in flight (no wgmma.wait_group has completed it)"},
      {"no wgmma.fence after the accumulators' movs", ptx_edited(text, "\twgmma.fence.sync.aligned;\n", ""),
       "wgmma.mma_async", "with no wgmma.fence between that write and this wgmma.mma_async"},
      {"no fence.proxy.async between the shared stores and the wgmma",
       ptx_edited(text, "\tfence.proxy.async.shared::cta;\n", ""), "wgmma.mma_async",
       "with no fence.proxy.async after the write"},
      {"no barrier between the shared stores and the wgmma", ptx_edited(text, "\tbar.sync 0;\n", ""), "wgmma.mma_async",
       "with no barrier between the write and this read"},
      {"A's descriptor with a stride of 128 bytes, not 256",
       ptx_edited(text, "or.b64 %rd8, %rd9, 68720001024;", "or.b64 %rd8, %rd9, 34360262656;"), "wgmma.mma_async", "A["},
  };
  expect_refuted(cases);
}

TEST_CASE(
    "wgmma with A from registers: the fragment read by the ISA's A frame proves; A's registers out of order, "
    "written in flight or unfenced are refuted",
    "[ptx][wgmma]") {
  const std::string text = read_file(source_path(kRegisterA));
  const PtxReport ok = check_text(text);
  INFO(ok.message);
  CHECK(ok.verdict == FrameVerdict::proved);
  const std::string mma = "{%r10, %r11, %r12, %r13}, %rd11";
  const std::string wait = "\twgmma.wait_group.sync.aligned 0;\n";
  const std::vector<Case> cases{
      {"A's registers 0 and 2 exchanged", ptx_edited(text, mma, "{%r12, %r11, %r10, %r13}, %rd11"), "wgmma.mma_async",
       "which is not A[0][k]"},
      {"an A register written in flight", ptx_edited(text, wait, "\tmov.b32 %r10, 0;\n" + wait), "mov.b32",
       "writes register %r10, an A register of the wgmma.mma_async at line 58 still in flight"},
      {"an A register written after the wgmma.fence",
       ptx_edited(text, "\twgmma.fence.sync.aligned;\n", "\twgmma.fence.sync.aligned;\n\tadd.s32 %r10, %r10, 0;\n"),
       "wgmma.mma_async", "A register %r10 of thread 0 was written by 'add.s32'"},
  };
  expect_refuted(cases);
}

TEST_CASE("wgmma needs whole warpgroups meeting at it", "[ptx][wgmma]") {
  const std::string text = read_file(source_path(kHand));
  std::string launch = read_file(source_path("tests/data/ptx/wgmma/m64n8k16.launch.json"));
  launch = ptx_edited(launch, "\"block\": [128]", "\"block\": [96]");
  const PtxReport part = check_text(text, launch);
  CHECK(part.verdict == FrameVerdict::refuted);
  CHECK_THAT(part.message, Catch::Contains("in a warpgroup of 96 threads"));
  // Warp 3 skips the wgmma: the warpgroup diverges.
  const std::string skip =
      ptx_edited(text, "\twgmma.fence.sync.aligned;\n",
                 "\twgmma.fence.sync.aligned;\n\tsetp.ge.u32 %p3, %r1, 96;\n\t@%p3 bra $L_skip;\n");
  const std::string diverged =
      ptx_edited(skip, "\twgmma.commit_group.sync.aligned;\n", "$L_skip:\n\twgmma.commit_group.sync.aligned;\n");
  const PtxReport r = check_text(diverged);
  CHECK(r.verdict == FrameVerdict::refuted);
  CHECK_THAT(r.message, Catch::Contains("threads of warpgroup 0 diverge at an aligned instruction"));
  // A descriptor that is not the warpgroup's one value: which thread's the
  // instruction takes, the ISA does not say, so the run is not followed
  // (unchecked, never proved).
  const std::string mixed = ptx_edited(text, "\tor.b64 %rd8, %rd9, 68720001024;\n",
                                       "\tor.b64 %rd8, %rd9, 68720001024;\n\tcvt.u64.u32 %rd14, %r1;\n\tand.b64 %rd14, "
                                       "%rd14, 64;\n\tadd.s64 %rd8, %rd8, %rd14;\n");
  const PtxReport m = check_text(mixed);
  CHECK(m.verdict == FrameVerdict::unchecked);
  CHECK_THAT(m.message, Catch::Contains("A's matrix descriptor is"));
  CHECK_THAT(m.message, Catch::Contains("the PTX ISA does not say"));
}

TEST_CASE("sim of a wgmma kernel: D is the wgmma model's, bit for bit; Triton's sm_90 matmul within the bound",
          "[ptx][wgmma][sim]") {
  for (const std::string& file : {kHand, kRegisterA})
    for (int i = 0; i < 4; ++i) {
      INFO(file);
      const PtxModule m = read_ptx(read_file(source_path(file)), file);
      PtxLaunch l = read_launch_for(source_path(file));
      const PtxKernel& k = bind_launch(l, m);
      const sim::PtxCase c = sim::simulate_ptx_case(k, l, sim::arch_params("sm_90"), 7, i, sim::InputSet::standard);
      REQUIRE_FALSE(c.refutation.has_value());
      REQUIRE_FALSE(c.unfollowed.has_value());
      std::vector<std::uint64_t> a(64 * 16), b(16 * 8), zero(64 * 8, 0), d(64 * 8, 0);
      for (std::size_t e = 0; e < a.size(); ++e) a[e] = c.tensors[0][2 * e] | (c.tensors[0][2 * e + 1] << 8);
      for (std::size_t e = 0; e < b.size(); ++e) b[e] = c.tensors[1][2 * e] | (c.tensors[1][2 * e + 1] << 8);
      sim::wgmma_tile(sim::WgmmaInst{8, DType::f32, DType::f16, DType::f16, false}, sim::wgmma_arith("sm_90"), a, b,
                      zero, d);
      int differ = 0;
      for (std::size_t e = 0; e < d.size(); ++e) {
        std::uint32_t got = 0;
        std::memcpy(&got, c.d.data() + 4 * e, 4);
        differ += got != static_cast<std::uint32_t>(d[e]) ? 1 : 0;
      }
      CHECK(differ == 0);
    }
  const PtxModule m = read_ptx(read_file(source_path(kHand)), kHand);
  PtxLaunch l = read_launch_for(source_path(kHand));
  const PtxKernel& k = bind_launch(l, m);
  // An architecture without wgmma is an error at the kernel.
  CHECK_THROWS_AS(sim::simulate_ptx_case(k, l, sim::arch_params("sm_80"), 7, 0, sim::InputSet::standard), Error);
  const auto outside = [](const std::string& path) { return sim_outside_bound(path, 3); };
  CHECK(outside("tests/data/ptx/triton_sm90/f16_64x64x32_w4.ptx") == 0);
  CHECK(outside("tests/data/ptx/triton_sm90/bf16_64x128x64_w4.ptx") == 0);
  CHECK(outside("tests/data/ptx/triton_sm90/f16_128x64x64_w8_skip_k.ptx") > 0);
}

TEST_CASE("mmacheck on a wgmma kernel: with a launch file the machine runs it, without one the order check reads it",
          "[ptx][wgmma][cli]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mmacheck-wgmma-cli-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string lone = (dir / "lone.ptx").string();
  std::ofstream(lone) << read_file(source_path(kHand));
  const std::string launch = source_path("tests/data/ptx/wgmma/m64n8k16.launch.json");
  test::RunResult r = run_mmacheck({"prove", source_path(kHand)});
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("proved: k, grid [1, 1, 1] x block [128, 1, 1]"));
  // No launch file beside it: the fence, commit and wait order (a branch: unchecked).
  r = run_mmacheck({"prove", lone});
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Contains("the order check reads straight-line code"));
  // --launch: the launch, for prove and sim alike.
  r = run_mmacheck({"prove", lone, "--launch", launch});
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("proved: k"));
  r = run_mmacheck({"sim", lone, "--launch", launch, "--cases", "2"});
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("passed: k on sm_90, 2 cases"));
  r = run_mmacheck({"sim", source_path(kHand), "--arch", "sm_80"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("executes wgmma.mma_async, which sm_80 does not have"));
  std::filesystem::remove_all(dir);
}

}  // namespace test_ptx_wgmma
