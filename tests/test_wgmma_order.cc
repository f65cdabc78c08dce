// The fence, commit and wait order of wgmma in a kernel's PTX
// (core/wgmma/wgmma_order.h): tests/data/wgmma/order/ holds the PTX nvcc
// writes for one kernel and seven planted mistakes
// (scripts/wgmma-oracle/order_ptx.sh); each mistake is refuted under its rule.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/wgmma/wgmma_order.h"
#include "tests/support.h"

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

WgmmaOrderReport of_file(const std::string& name) {
  const std::string path = "tests/data/wgmma/order/" + name + ".ptx";
  return check_wgmma_order(read_file(source_path(path)), path);
}

std::string error_of(const std::string& ptx) {
  try {
    check_wgmma_order(ptx, "k.ptx");
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.message();
  }
  return "";
}

const std::string kHead = ".version 8.0\n.target sm_90a\n.visible .entry k(\n  .param .u64 p\n)\n{\n";

}  // namespace

TEST_CASE("nvcc's PTX of a correctly ordered wgmma is proved", "[wgmma][order]") {
  const WgmmaOrderReport r = of_file("ok");
  CHECK(r.result == FrameVerdict::proved);
  CHECK(r.mma_count == 1);
  CHECK(r.group_count == 1);
  CHECK(r.violations.empty());
}

TEST_CASE("each planted order mistake is refuted under its rule", "[wgmma][order]") {
  const struct {
    const char* file;
    WgmmaOrderRule rule;
    const char* says;
  } cases[] = {
      {"missing_fence", WgmmaOrderRule::fence, "no wgmma.fence before the first wgmma.mma_async"},
      {"write_then_mma", WgmmaOrderRule::fence, "after the last wgmma.fence"},
      {"init_after_fence", WgmmaOrderRule::fence, "after the last wgmma.fence"},
      {"read_before_wait", WgmmaOrderRule::in_flight, "st.global.f32 accesses %f17, accumulator"},
      {"no_commit", WgmmaOrderRule::in_flight, "not yet committed"},
      {"write_in_flight", WgmmaOrderRule::in_flight, "mov.f32 accesses"},
      {"wait_too_weak", WgmmaOrderRule::in_flight, "still in flight"},
  };
  for (const auto& c : cases) {
    INFO(c.file);
    const WgmmaOrderReport r = of_file(c.file);
    CHECK(r.result == FrameVerdict::refuted);
    REQUIRE_FALSE(r.violations.empty());
    CHECK(r.violations.front().rule == c.rule);
    CHECK(r.violations.front().message.find(c.says) != std::string::npos);
    CHECK(r.message.rfind("line " + std::to_string(r.violations.front().at.line) + ": ", 0) == 0);
  }
  // The uncommitted mma is also never waited for.
  const WgmmaOrderReport r = of_file("no_commit");
  CHECK(r.violations.back().rule == WgmmaOrderRule::waited);
}

TEST_CASE("the order rules on hand-written PTX", "[wgmma][order]") {
  const std::string mma0 =
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;\n";
  const std::string mma1 =
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f5, %f6, %f7, %f8}, %rd1, %rd2, 1, 1, 1, 0, 0;\n";
  const std::string fence = "wgmma.fence.sync.aligned;\n", commit = "wgmma.commit_group.sync.aligned;\n";
  const auto wait = [](int n) { return "wgmma.wait_group.sync.aligned " + std::to_string(n) + ";\n"; };
  // Two groups, wait_group 1: the older group's D may be read, the newer's not.
  const std::string two = kHead + fence + mma0 + commit + mma1 + commit + wait(1);
  CHECK(check_wgmma_order(two + "st.global.f32 [%rd3], %f1;\n" + wait(0) + "}\n", "k.ptx").result ==
        FrameVerdict::proved);
  CHECK(check_wgmma_order(two + "st.global.f32 [%rd3], %f5;\n" + wait(0) + "}\n", "k.ptx").result ==
        FrameVerdict::refuted);
  // Accumulating over several wgmma.mma_async needs no fence between them.
  CHECK(check_wgmma_order(kHead + fence + mma0 + mma0 + commit + wait(0) + "}\n", "k.ptx").result ==
        FrameVerdict::proved);
  // A's registers (the register form) count as the mma's.
  const std::string reg_a =
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, %rd2, 1, 1, 1, 1;\n";
  const WgmmaOrderReport a =
      check_wgmma_order(kHead + fence + reg_a + commit + "mov.b32 %r2, 0;\n" + wait(0) + "}\n", "k.ptx");
  CHECK(a.result == FrameVerdict::refuted);
  CHECK(a.violations.front().message.find("A fragment register") != std::string::npos);
  // Never waited for.
  const WgmmaOrderReport w = check_wgmma_order(kHead + fence + mma0 + commit + "}\n", "k.ptx");
  CHECK(w.result == FrameVerdict::refuted);
  CHECK(w.violations.front().rule == WgmmaOrderRule::waited);
  // Control flow and no wgmma at all: unchecked, with the reason.
  const WgmmaOrderReport loop =
      check_wgmma_order(kHead + "$L1:\n" + fence + mma0 + commit + wait(0) + "@%p1 bra $L1;\n}\n", "k.ptx");
  CHECK(loop.result == FrameVerdict::unchecked);
  CHECK(loop.message.find("control flow (bra at line") == 0);
  CHECK(check_wgmma_order(kHead + "ret;\n}\n", "k.ptx").result == FrameVerdict::unchecked);
  // What is not PTX is a located error.
  CHECK(error_of(kHead + "wgmma.wait_group.sync.aligned;\n}\n").find("7:1: wgmma.wait_group takes one operand") == 0);
  CHECK(
      error_of(kHead + "wgmma.wait_group.sync.aligned x;\n}\n").find("7:1: wgmma.wait_group's N must be an integer") ==
      0);
  CHECK(error_of(kHead + "mov.b32 %r1, 0\n}\n").find("the instruction is not terminated by ';'") != std::string::npos);
  CHECK(error_of(kHead + "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1};\n}\n")
            .find("wgmma.mma_async needs d, a, b operands") != std::string::npos);
  CHECK(error_of(kHead + "wgmma.arrive;\n}\n").find("'wgmma.arrive' is not a wgmma instruction mmacheck reads") !=
        std::string::npos);
  CHECK(error_of(kHead + "}\n}\n").find("'}' closes no block") != std::string::npos);
  CHECK(error_of(kHead).find("a block is not closed") != std::string::npos);
}

TEST_CASE("mmacheck wgmma on a .ptx file checks the order", "[wgmma][order][cli]") {
  const RunResult ok = run_mmacheck({"wgmma", source_path("tests/data/wgmma/order/ok.ptx")});
  CHECK(ok.status == 0);
  CHECK(ok.out.rfind("proved: 1 wgmma.mma_async", 0) == 0);
  const RunResult bad = run_mmacheck({"wgmma", "--json", source_path("tests/data/wgmma/order/read_before_wait.ptx")});
  CHECK(bad.status == 1);
  CHECK(bad.out.find("\"wgmma_order\"") != std::string::npos);
  CHECK(bad.out.find("\"rule\":\"in flight\"") != std::string::npos);
  // A folder: the operand files and the PTX alike.
  const RunResult folder = run_mmacheck({"wgmma", source_path("tests/data/wgmma/order")});
  CHECK(folder.status == 1);
  CHECK(folder.out.find("8 files: 7 refuted, 1 proved") != std::string::npos);
}
