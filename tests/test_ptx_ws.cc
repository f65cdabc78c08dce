// Warp-specialised Hopper kernels in the PTX machine: TileLang 0.1.15's sm_90a
// gemm (tests/data/ptx/tilelang_sm90/, scripts/ptx-oracle/tilelang_sm90_kernels.py:
// a producer warpgroup loading with TMA, one or two consumer warpgroups with
// wgmma, setmaxnreg, full and empty mbarriers) and Triton 3.9's
// tl.range(warp_specialize=True) matmul (tests/data/ptx/triton_sm90_ws/,
// scripts/ptx-oracle/triton_kernels.py sm90_ws: named barriers among part of
// the CTA), each verdict and line as expected.tsv says; setmaxnreg's ISA
// rules (core/ptx/ptx_setmaxnreg.h) and the order barriers of part of the CTA
// and mbarriers give (core/ptx/sync_clock.h) planted by editing the PTX.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "tests/support.h"
#include "tests/test_ptx_support.h"

namespace test_ptx_ws {

using namespace mmacheck;
using namespace mmacheck::ptx;
using namespace mmacheck::test;

namespace {

const std::string kTileLang = "tests/data/ptx/tilelang_sm90/";
const std::string kTriton = "tests/data/ptx/triton_sm90_ws/";
const std::string kKernel = kTileLang + "f16_128x128x64_s3_c2";

PtxReport check_kernel_text(const std::string& text) {
  return check_ptx_launch(read_ptx(text, "k.ptx"),
                          read_launch(read_file(source_path(kKernel + ".launch.json")), "k.launch.json"), {});
}

}  // namespace

TEST_CASE("TileLang's warp-specialised sm_90a gemm proves and its planted mistakes are refuted at their line",
          "[ptx][ws][tilelang]") {
  const ManifestTally t = check_ptx_manifest(kTileLang);
  CHECK(t.rows == 11);
  CHECK(t.proved == 5);
  CHECK(t.refuted == 6);
}

TEST_CASE("Triton 3.9's warp-specialised sm_90 matmul: verdicts and lines as expected.tsv says", "[ptx][ws][triton]") {
  const ManifestTally t = check_ptx_manifest(kTriton);
  CHECK(t.rows == 5);
  CHECK(t.proved == 1);
  CHECK(t.refuted == 4);
}

TEST_CASE("setmaxnreg follows the ISA's rules", "[ptx][ws]") {
  const std::string text = read_file(source_path(kKernel + ".ptx"));
  const std::string dec = "setmaxnreg.dec.sync.aligned.u32 24;";
  SECTION("a count outside 24..256 or not a multiple of 8 is bad input at the operand") {
    for (const std::string count : {"20", "100", "264"}) {
      INFO(count);
      try {
        (void)read_ptx(ptx_edited(text, dec, "setmaxnreg.dec.sync.aligned.u32 " + count + ";"), "k.ptx");
        FAIL("accepted");
      } catch (const Error& e) {
        CHECK_THAT(e.message(), Catch::Contains("is not a multiple of 8 in 24..256"));
        CHECK(e.loc().line == ptx_line_of(text, dec));
      }
    }
  }
  SECTION("a register count, not a constant, is bad input") {
    CHECK_THROWS_WITH(read_ptx(ptx_edited(text, dec, "setmaxnreg.dec.sync.aligned.u32 %r1;"), "k.ptx"),
                      Catch::Contains("is a constant"));
  }
  SECTION(".dec above the warpgroup's current maximum is refuted at the instruction") {
    const std::string again = "setmaxnreg.dec.sync.aligned.u32 32;";
    const std::string edited = ptx_edited(text, dec, dec + "\n\t" + again);
    const PtxReport r = check_kernel_text(edited);
    INFO(r.message);
    CHECK(r.verdict == FrameVerdict::refuted);
    CHECK_THAT(r.message,
               Catch::Contains("setmaxnreg.dec to 32 registers, above the warpgroup's current maximum of 24"));
    REQUIRE(r.finding.has_value());
    CHECK(r.finding->loc.line == ptx_line_of(edited, again));
  }
  SECTION(".inc below the kernel's .maxnreg is refuted") {
    const std::string edited = ptx_edited(ptx_edited(text, ".maxntid 384, 1, 1", ".maxntid 384, 1, 1\n.maxnreg 168"),
                                          dec, "setmaxnreg.inc.sync.aligned.u32 160;");
    const PtxReport r = check_kernel_text(edited);
    INFO(r.message);
    CHECK(r.verdict == FrameVerdict::refuted);
    CHECK_THAT(r.message,
               Catch::Contains("setmaxnreg.inc to 160 registers, below the warpgroup's current maximum of 168"));
  }
}

TEST_CASE("an mbarrier orders the consumers' reads before the producer's next copy, and only after the wgmma completes",
          "[ptx][ws]") {
  const std::string text = read_file(source_path(kKernel + ".ptx"));
  // The consumers' arrival on the empty mbarrier dropped: the producer's wait
  // for the stage never succeeds, a deadlock at its try_wait.
  const std::string arrive = "mbarrier.arrive.shared::cta.b64 _, [%r";
  const std::size_t at = text.find(arrive);
  REQUIRE(at != std::string::npos);
  const std::size_t end = text.find('\n', at);
  const std::string whole = text.substr(at, end - at);
  const PtxReport r = check_kernel_text(ptx_edited(text, whole, "// " + whole));
  INFO(r.message);
  CHECK(r.verdict == FrameVerdict::refuted);
  CHECK_THAT(r.message, Catch::Contains("deadlock: the thread waits forever on the mbarrier"));
  REQUIRE(r.finding.has_value());
  CHECK(ptx_opcode_at(text, r.finding->loc.line).starts_with("mbarrier.try_wait"));
}

TEST_CASE("labels are scoped by blocks, as inline assembly's local labels are", "[ptx][ws]") {
  const std::string text = read_file(source_path(kKernel + ".ptx"));
  // TileLang's try_wait helper defines LAB_WAIT in each inlined block: read.
  CHECK_NOTHROW(read_ptx(text, "k.ptx"));
  // Twice in one block is still an error.
  const std::string label = "LAB_WAIT: \n";
  const std::size_t at = text.find(label);
  REQUIRE(at != std::string::npos);
  std::string twice = text;
  twice.insert(at, label);
  CHECK_THROWS_WITH(read_ptx(twice, "k.ptx"), Catch::Contains("label 'LAB_WAIT' defined twice"));
}

TEST_CASE("a vector with constant elements is a store's source only", "[ptx][ws]") {
  const std::string text = read_file(source_path(kTriton + "f16_64x64x32_w4_s3.ptx"));
  const std::string store = "st.shared.v2.b32 \t[global_smem+41112], {0, 16843009};";
  REQUIRE(text.find(store) != std::string::npos);
  CHECK_NOTHROW(read_ptx(text, "k.ptx"));
  CHECK_THROWS_WITH(read_ptx(ptx_edited(text, store, store + "\n\tmov.b64 \t%rd1, {0, 1};"), "k.ptx"),
                    Catch::Contains("a constant in a vector operand"));
  // A vector of one constant is that constant; as a destination, an error.
  CHECK_NOTHROW(read_ptx(ptx_edited(text, store, store + "\n\tst.shared.b32 \t[global_smem+41112], {7};"), "k.ptx"));
  CHECK_THROWS(read_ptx(ptx_edited(text, store, store + "\n\tld.shared.b32 \t{7}, [global_smem+41112];"), "k.ptx"));
}

}  // namespace test_ptx_ws
