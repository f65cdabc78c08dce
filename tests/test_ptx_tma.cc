// TMA and mbarriers in the PTX machine (core/ptx/ptx_tma.h,
// core/ptx/ptx_mbarrier.h): Triton 3.9's matmul given host TensorDescriptors,
// compiled for sm_90 (tests/data/ptx/triton_sm90_tma/, made by
// scripts/ptx-oracle/triton_kernels.py sm90_tma), proved, its planted mistakes
// refuted at the line expected.tsv names; the hazards (a read of the
// destination before its phase completes, the destination written or copied
// into again while the copy is in flight, a phase that never completes, an
// mbarrier never initialised) planted by editing its PTX and refuted at their
// line; sim's D the same bits as the pointer-load kernel's.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "sim/ptx/ptx_sim.h"
#include "tests/support.h"
#include "tests/test_ptx_support.h"

namespace test_ptx_tma {

using namespace mmacheck;
using namespace mmacheck::ptx;
using namespace mmacheck::test;

namespace {

const std::string kDir = "tests/data/ptx/triton_sm90_tma/";
const std::string kKernel = kDir + "f16_64x64x32_w4.ptx";

PtxReport check_text(const std::string& text, const std::string& launch_text) {
  return check_ptx_launch(read_ptx(text, "k.ptx"), read_launch(launch_text, "k.launch.json"), {});
}

const std::string kFirstCopy =
    "@%p5 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [%r9], [%rd10, {%r185, %r10}], "
    "[%r6];";

}  // namespace

TEST_CASE(
    "Triton's matmul with host TensorDescriptors (TMA, mbarriers, wgmma) proves and its planted mistakes are "
    "refuted at their line",
    "[ptx][tma][triton]") {
  const ManifestTally t = check_ptx_manifest(kDir);
  CHECK(t.rows == 12);
  CHECK(t.proved == 2);
  CHECK(t.refuted == 10);
}

TEST_CASE("TMA and mbarrier hazards are refuted at their line", "[ptx][tma]") {
  const std::string text = read_file(source_path(kKernel));
  const std::string launch = read_file(source_path(kDir + "f16_64x64x32_w4.launch.json"));
  const auto refuted_at = [&](const std::string& ptx, const std::string& needle, const std::string& message) {
    const PtxReport r = check_text(ptx, launch);
    INFO(r.message);
    CHECK(r.verdict == FrameVerdict::refuted);
    CHECK_THAT(r.message, Catch::Contains(message));
    REQUIRE(r.finding.has_value());
    CHECK(r.finding->loc.line == ptx_line_of(ptx, needle));
  };
  SECTION("the destination read before the phase completes") {
    const std::string read = "ld.shared.b32 %r25, [%r9];";
    refuted_at(ptx_edited(text, kFirstCopy, kFirstCopy + "\n\t" + read), read,
               "which the cp.async.bulk.tensor at line " + std::to_string(ptx_line_of(text, kFirstCopy)) +
                   " is still writing");
  }
  SECTION("the destination written while the copy is in flight") {
    const std::string write = "st.shared.b32 [%r9], %r185;";
    refuted_at(ptx_edited(text, kFirstCopy, kFirstCopy + "\n\t" + write), write,
               "writes shared byte 0, which the cp.async");
  }
  SECTION("a second copy into the destination while the first is in flight") {
    const std::string again =
        "@%p5 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [%r9], "
        "[%rd11, {%r12, %r185}], [%r6];";
    refuted_at(ptx_edited(text, kFirstCopy, kFirstCopy + "\n\t" + again), again,
               "copies into shared byte 0, which the cp.async.bulk.tensor");
  }
  SECTION("deadlock: expected transaction bytes that never arrive") {
    const std::string first_wait = "mbarrier.try_wait.parity.shared::cta.b64 complete, [%r32], %r185;";
    refuted_at(ptx_edited(text, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], 8192;",
                          "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], 8200;"),
               first_wait, "deadlock: the thread waits forever on the mbarrier at shared byte 24576");
  }
  SECTION("deadlock: an arrival count never reached") {
    const std::string first_wait = "mbarrier.try_wait.parity.shared::cta.b64 complete, [%r32], %r185;";
    refuted_at(ptx_edited(text, "@%p1 mbarrier.init.shared::cta.b64 [%r6], 1;",
                          "@%p1 mbarrier.init.shared::cta.b64 [%r6], 2;"),
               first_wait, "1 of its 2 arrivals");
  }
  SECTION("an mbarrier never initialised") {
    const std::string arrive = "@%p4 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], 8192;";
    refuted_at(ptx_edited(text, "@%p1 mbarrier.init.shared::cta.b64 [%r6], 1;", "// init deleted"), arrive,
               "where no mbarrier.init made one");
  }
}

TEST_CASE("a tensor-map parameter in the launch file: the map's rules, the parameter's kind", "[ptx][tma]") {
  const std::string text = read_file(source_path(kKernel));
  const std::string launch = read_file(source_path(kDir + "f16_64x64x32_w4.launch.json"));
  const PtxModule m = read_ptx(text, "k.ptx");
  const auto bad = [&](const std::string& from, const std::string& to, const std::string& message) {
    PtxLaunch l;
    try {
      l = read_launch(ptx_edited(launch, from, to), "k.launch.json");
      bind_launch(l, m);
      FAIL("no error for " + to);
    } catch (const Error& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains(message));
      CHECK_THAT(std::string(e.what()), Catch::Contains("k.launch.json:"));
    }
  };
  // A 64-element f16 row is 128 bytes, more than SWIZZLE_64B's span.
  bad("     32,\n     64\n    ],\n    \"swizzle\": \"64B\"", "     64,\n     64\n    ],\n    \"swizzle\": \"64B\"",
      "cuTensorMapEncodeTiled refuses the map");
  bad("\"tensor\": \"A\",\n    \"box\"", "\"tensor\": \"E\",\n    \"box\"", "no tensor named \"E\"");
  // A tensor map for a pointer parameter, a tensor for a CUtensorMap.
  bad("\"tensor\": \"D\",", "\"tensor_map\": {\"tensor\": \"A\", \"box\": [32, 64]}, \"x\": \"D\",",
      "a tensor-map parameter is {\"tensor_map\": {...}}");
  bad("\"swizzle\": \"64B\"", "\"swizzle\": \"64B\", \"oob_fill\": \"nan\"", "not modelled");
}

TEST_CASE("sim of the TMA matmul: D the same bits as the pointer-load matmul's", "[ptx][tma][sim]") {
  const auto d_of = [](const std::string& path, int i) {
    const PtxModule m = read_ptx(read_file(source_path(path)), path);
    PtxLaunch l = read_launch_for(source_path(path));
    const PtxKernel& k = bind_launch(l, m);
    const sim::PtxCase c = sim::simulate_ptx_case(k, l, sim::arch_params("sm_90"), 3, i, sim::InputSet::standard);
    REQUIRE_FALSE(c.refutation.has_value());
    REQUIRE_FALSE(c.unfollowed.has_value());
    return c.d;
  };
  for (int i = 0; i < 2; ++i) {
    const auto tma = d_of(kKernel, i);
    CHECK(tma == d_of("tests/data/ptx/triton_sm90/f16_64x64x32_w4.ptx", i));
    CHECK_FALSE(tma.empty());
  }
}

}  // namespace test_ptx_tma
