// The fence, commit and wait order of wgmma in a kernel's PTX
// (core/wgmma/wgmma_order.h): tests/data/wgmma/order/ holds the PTX nvcc
// writes for one kernel and seven planted mistakes
// (scripts/wgmma-oracle/order_ptx.sh); each mistake is refuted under its rule.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/wgmma/wgmma_order.h"
#include "tests/support.h"

namespace test_wgmma_order {

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
  // Opcodes with "::" (the async-proxy fence before the mma) are instructions, not labels.
  CHECK(check_wgmma_order(kHead + "fence.proxy.async.shared::cta;\n" + fence + mma0 + commit + wait(0) + "}\n", "k.ptx")
            .result == FrameVerdict::proved);
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

TEST_CASE("the order check reads PTX as ptxas does, never a verdict from a misreading", "[wgmma][order]") {
  const std::string mma =
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;\n";
  const std::string fence = "wgmma.fence.sync.aligned;\n", commit = "wgmma.commit_group.sync.aligned;\n";
  const std::string read = "st.global.f32 [%rd3], %f1;\n";
  const auto wait = [](const std::string& n) { return "wgmma.wait_group.sync.aligned " + n + ";\n"; };
  const auto verdict = [](const std::string& ptx) { return check_wgmma_order(ptx, "k.ptx").result; };
  // N in every PTX spelling: 0x1 and 0b1 leave the one group pending (the read races), 0x0, 00, 0U complete it.
  for (const char* one : {"1", "0x1", "0X1", "0b1", "01", "1U"}) {
    INFO(one);
    CHECK(verdict(kHead + fence + mma + commit + wait(one) + read + wait("0") + "}\n") == FrameVerdict::refuted);
  }
  for (const char* zero : {"0", "0x0", "0b0", "00", "0U"}) {
    INFO(zero);
    CHECK(verdict(kHead + fence + mma + commit + wait(zero) + read + "}\n") == FrameVerdict::proved);
  }
  // A negative or malformed N is a located error, never a crash or a zero.
  CHECK(error_of(kHead + wait("-1") + "}\n").find("7:1: wgmma.wait_group's N must be a non-negative integer") == 0);
  for (const char* junk : {"0junk", "0x", "0b2", "09", "1.0"}) {
    INFO(junk);
    CHECK(error_of(kHead + wait(junk) + "}\n").find("7:1: wgmma.wait_group's N must be") == 0);
  }
  // An empty commit group is a group: wait_group 1 after it completes the older, full one.
  CHECK(verdict(kHead + fence + mma + commit + commit + wait("1") + read + "}\n") == FrameVerdict::proved);
  CHECK(verdict(kHead + fence + mma + commit + commit + wait("2") + read + wait("0") + "}\n") == FrameVerdict::refuted);
  // A predicated fence, commit, wait or mma may not run: unchecked, never proved.
  for (const std::string& p : {"@%p1 " + wait("0"), "@!%p1 " + wait("0")}) {
    const WgmmaOrderReport r = check_wgmma_order(kHead + fence + mma + commit + p + read + "}\n", "k.ptx");
    CHECK(r.result == FrameVerdict::unchecked);
    CHECK(r.message.find("control flow (predicated wgmma.wait_group") == 0);
  }
  CHECK(verdict(kHead + "@%p1 " + fence + mma + commit + wait("0") + "}\n") == FrameVerdict::unchecked);
  CHECK(verdict(kHead + fence + mma + "@%p1 " + commit + wait("0") + "}\n") == FrameVerdict::unchecked);
  CHECK(verdict(kHead + fence + mma + commit + "@%p1 ret;\n" + wait("0") + "}\n") == FrameVerdict::unchecked);
  // An unpredicated ret or exit ends the kernel: a wait after it never runs.
  for (const char* leave : {"ret;\n", "exit;\n"}) {
    const WgmmaOrderReport r = check_wgmma_order(kHead + fence + mma + commit + leave + wait("0") + "}\n", "k.ptx");
    CHECK(r.result == FrameVerdict::refuted);
    REQUIRE_FALSE(r.violations.empty());
    CHECK(r.violations.front().rule == WgmmaOrderRule::waited);
  }
  // Registers need not begin with '%': the read of acc1 in flight is seen.
  const std::string plain =
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {acc1, acc2, acc3, acc4}, %rd1, %rd2, 1, 1, 1, 0, 0;\n";
  CHECK(verdict(kHead + fence + plain + commit + "st.global.f32 [%rd3], acc1;\n" + wait("0") + "}\n") ==
        FrameVerdict::refuted);
  CHECK(verdict(kHead + fence + plain + commit + wait("0") + "st.global.f32 [%rd3], acc1;\n}\n") ==
        FrameVerdict::proved);
  // A member suffix is not a register of its own: %tid.x is not x.
  const std::string mma_x =
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {x, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;\n";
  CHECK(verdict(kHead + fence + mma_x + commit + "mov.u32 %r1, %tid.x;\n" + wait("0") + "}\n") == FrameVerdict::proved);
  // Each kernel is its own program: the second kernel's wait completes nothing of the first's.
  const std::string two_kernels =
      kHead + fence + mma + commit + "}\n" + ".visible .entry k2(\n  .param .u64 p\n)\n{\n" + wait("0") + read + "}\n";
  const WgmmaOrderReport two = check_wgmma_order(two_kernels, "k.ptx");
  CHECK(two.result == FrameVerdict::refuted);
  REQUIRE_FALSE(two.violations.empty());
  CHECK(two.violations.front().rule == WgmmaOrderRule::waited);
  CHECK(error_of(".version 8.0\nmov.b32 %r1, 0;\n").find("2:1: 'mov.b32' stands outside") == 0);
  // A predicate with nothing after it (fuzz_families: it read past the end), or a byte no instruction begins with.
  CHECK(error_of("@/\xee").find("the text ends where a PTX instruction is expected") != std::string::npos);
  CHECK(error_of(kHead + "\x01;\n}\n").find("unexpected byte 0x01 (expected a PTX instruction)") != std::string::npos);
}

TEST_CASE("the order check is linear: 100,000 mma in one kernel", "[wgmma][order]") {
  std::string ptx = kHead + "wgmma.fence.sync.aligned;\n";
  for (int i = 0; i < 100'000; ++i)
    ptx +=
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;\n"
        "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 1;\n";
  ptx += "wgmma.wait_group.sync.aligned 0;\nst.global.f32 [%rd3], %f1;\n}\n";
  const WgmmaOrderReport r = check_wgmma_order(ptx, "k.ptx");
  CHECK(r.result == FrameVerdict::proved);
  CHECK(r.mma_count == 100'000);
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

}  // namespace test_wgmma_order
