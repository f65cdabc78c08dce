// tcgen05 in the PTX machine (core/ptx/ptx_tcgen05.h): a hand-written
// Blackwell gemm compiled by nvcc for sm_100a (tests/data/ptx/tcgen05_nvcc/,
// made by scripts/ptx-oracle/tcgen05_kernels.sh) proved, its planted
// mistakes refuted at the line expected.tsv names; edits of its PTX for the
// other protocol checks and the forms not modelled (located errors); sim's
// numbers from sim/tcgen05's arithmetic (MMA-Sim's model: no Blackwell GPU
// checked them).
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "tests/support.h"
#include "tests/test_ptx_support.h"

namespace test_ptx_tcgen05 {

using namespace mmacheck;
using namespace mmacheck::ptx;
using namespace mmacheck::test;

namespace {

const std::string kDir = "tests/data/ptx/tcgen05_nvcc/";
const std::string kGemm = kDir + "gemm.ptx";

PtxReport check_text(const std::string& text) {
  return check_ptx_launch(read_ptx(text, "k.ptx"), read_launch_for(source_path(kGemm)), {});
}

}  // namespace

TEST_CASE("a hand-written sm_100a tcgen05 gemm proves and its planted mistakes are refuted at their line",
          "[ptx][tcgen05]") {
  const ManifestTally t = check_ptx_manifest(kDir);
  CHECK(t.rows == 12);
  CHECK(t.proved == 1);
  CHECK(t.refuted == 11);
}

TEST_CASE("TileLang's sm_100 gemm (tcgen05) proves and its planted mistakes are refuted at their line",
          "[ptx][tcgen05][tilelang]") {
  const ManifestTally t = check_ptx_manifest("tests/data/ptx/tilelang_sm100/");
  CHECK(t.rows == 6);
  CHECK(t.proved == 2);
  CHECK(t.refuted == 4);
}

TEST_CASE("TIRx's tcgen05.mma programs compiled for sm_100a: TMEM used with no tcgen05.alloc is refuted at the mma",
          "[ptx][tcgen05][tirx]") {
  const ManifestTally t = check_ptx_manifest("tests/data/ptx/tirx_sm100/");
  CHECK(t.rows == 8);
  CHECK(t.refuted == 6);
  CHECK(t.unchecked == 2);
}

TEST_CASE("tcgen05 protocol mistakes planted in the PTX are refuted at their line", "[ptx][tcgen05]") {
  const std::string text = read_file(source_path(kGemm));
  const std::string dealloc = "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, %r242;";
  SECTION("a dealloc of another column count than the alloc's") {
    const std::string t = ptx_edited(text, dealloc, "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 32;");
    const PtxReport r = check_text(t);
    CHECK(r.verdict == FrameVerdict::refuted);
    CHECK_THAT(r.message, Catch::Contains("deallocates 32 columns of the 64"));
    REQUIRE(r.finding.has_value());
    CHECK(r.finding->loc.line == ptx_line_of(t, "tcgen05.dealloc"));
  }
  SECTION("a dealloc of an address no alloc gave") {
    const std::string t = ptx_edited(text, dealloc, "tcgen05.dealloc.cta_group::1.sync.aligned.b32 64, %r242;");
    const PtxReport r = check_text(t);
    CHECK(r.verdict == FrameVerdict::refuted);
    CHECK_THAT(r.message, Catch::Contains("where no live tcgen05.alloc of this CTA begins"));
  }
  SECTION("D loaded with the 16x256b shape: its 32 registers span 64 columns") {
    // 16x256b.x8 moves 32 registers a thread as 32x32b.x32 does, but over
    // 16 lanes and 64 columns (8 a repeat): the second load, 32 columns on,
    // reaches column 64, past the 64-column allocation.
    std::string t = text;
    for (std::size_t at = t.find("32x32b.x32"); at != std::string::npos; at = t.find("32x32b.x32"))
      t.replace(at, 10, "16x256b.x8");
    const PtxReport r = check_text(t);
    CHECK(r.verdict == FrameVerdict::refuted);
    CHECK_THAT(r.message, Catch::Contains("column 64, outside every TMEM allocation"));
    REQUIRE(r.finding.has_value());
    CHECK(ptx_opcode_at(t, r.finding->loc.line).starts_with("tcgen05.ld.sync.aligned.16x256b.x8"));
  }
  SECTION("an alloc after the CTA relinquished its permit") {
    const std::string relinquish = "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;";
    const std::string alloc = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r60], %r61;";
    const std::string t =
        ptx_edited(ptx_edited(text, relinquish, "// relinquished first"), alloc, relinquish + "\n\t" + alloc);
    const PtxReport r = check_text(t);
    CHECK(r.verdict == FrameVerdict::refuted);
    CHECK_THAT(r.message, Catch::Contains("after the CTA's tcgen05.relinquish_alloc_permit"));
  }
}

TEST_CASE("tcgen05 forms the machine does not model are errors at their line", "[ptx][tcgen05]") {
  const std::string text = read_file(source_path(kGemm));
  const auto error_of = [](const std::string& t) -> std::optional<Error> {
    try {
      (void)read_ptx(t, "k.ptx");
    } catch (const Error& e) {
      return e;
    }
    return std::nullopt;
  };
  const std::string mma = "tcgen05.mma.cta_group::1.kind::f16";
  const std::string alloc = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r60], %r61;";
  SECTION("cta_group::2") {
    std::string t = text;
    const std::size_t first = t.find(mma);
    REQUIRE(first != std::string::npos);
    t.replace(first, mma.size(), "tcgen05.mma.cta_group::2.kind::f16");
    const auto e = error_of(t);
    REQUIRE(e.has_value());
    CHECK_THAT(e->message(), Catch::Contains("cta_group::2"));
    CHECK(e->loc().line == ptx_line_of(t, "cta_group::2"));
  }
  SECTION("tcgen05.cp") {
    const std::string t = ptx_edited(text, alloc, alloc + "\n\ttcgen05.cp.cta_group::1.128x256b [%r60], %rd2;");
    const auto e = error_of(t);
    REQUIRE(e.has_value());
    CHECK_THAT(e->message(), Catch::Contains("not modelled"));
    CHECK(e->loc().line == ptx_line_of(t, "tcgen05.cp"));
  }
  SECTION("a packed load") {
    const std::string t = ptx_edited(text, "32x32b.x32.b32 {%r168", "32x32b.x32.pack::16b.b32 {%r168");
    const auto e = error_of(t);
    REQUIRE(e.has_value());
    CHECK_THAT(e->message(), Catch::Contains("pack"));
  }
}

TEST_CASE("sim of the tcgen05 gemm: D within the f64 reference's bound (sim/tcgen05's arithmetic)",
          "[ptx][tcgen05][sim]") {
  CHECK(sim_outside_bound(kGemm, 4) == 0);
  CHECK(sim_outside_bound("tests/data/ptx/tilelang_sm100/bf16_128x64x64.ptx", 2) == 0);
}

}  // namespace test_ptx_tcgen05
