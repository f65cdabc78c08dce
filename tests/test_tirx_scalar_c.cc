// The released TIRx's scalar C (docs/tirx-release.md): `T.cuda.tile.apply(...,
// T.float32(1.5), scope="warp")`, and D's registers set to a constant before
// an apply accumulating onto them.  The gemm is D = A·B + C with C that
// constant (GemmCall::c_scalar); the program run checks every element of D
// starts from it, bit for bit, and sim computes it as the mma's C input.
//
// tests/data/tirx/scalar_c holds the programs, TVM 0.1.0a4's decision on each
// (oracle.jsonl, its first line the command that made it) and TVM's dumps
// (NAME.lowered.py) and CUDA (NAME.cu) of those it accepts.
#include <catch2/catch.hpp>

#include <bit>
#include <filesystem>
#include <sstream>

#include "core/base/json.h"
#include "core/emit/cuda_source.h"
#include "core/emit/tirx_text.h"
#include "core/gemm/dispatch.h"
#include "core/gemm/geometry.h"
#include "core/program/program.h"
#include "core/prove/prove.h"
#include "sim/check/sim_check.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_tirx_scalar_c {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const std::string kDir = "tests/data/tirx/scalar_c";

std::string text_of(const std::string& file) { return read_file(source_path(kDir + "/" + file)); }

// prove's verdict as sim names its decisions.
std::string prove_decision(const std::string& text) {
  const ProofReport r = prove(program_from(text), ProveOptions{});
  return r.verdict == Verdict::dispatch_failed ? "dispatch_failed" : r.verdict == Verdict::proved ? "holds" : "fails";
}

std::string sim_decision(const std::string& text) {
  const Program p = program_from(text);
  const Plan plan = dispatch(p);
  if (!plan.ok) return "dispatch_failed";
  sim::SimCheck check(p, plan.nest, sim::arch_params("sm_90"));
  std::size_t wrong = 0;
  for (int i = 0; i < 16; ++i) wrong += check.failures(check.random_case(i, 7)).size();
  return wrong == 0 ? "holds" : "fails";
}

// The program run's counterexample, or "" when it has none.
std::string run_message(const std::string& text) {
  const ProofReport r = prove(program_from(text), ProveOptions{});
  for (const Counterexample& c : r.counterexamples)
    if (c.check.kind == CheckKind::program) return c.message;
  return "";
}

std::string error_of(const std::string& text) {
  try {
    (void)program_from(text);
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ": " + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a scalar C and D's registers set to a constant read as D = A·B + C; TVM's decision on each",
          "[tirx][prove][sim]") {
  std::istringstream lines(text_of("oracle.jsonl"));
  std::string line;
  std::getline(lines, line);
  CHECK(parse_json(line, "oracle.jsonl")["tvm"] == "apache-tvm-tirx 0.1.0a4");
  int proved = 0, refuted = 0, declined = 0;
  while (std::getline(lines, line)) {
    const Json o = parse_json(line, "oracle.jsonl");
    const std::string name = o["name"];
    INFO(name);
    const std::string expected = name.rfind("ok_", 0) == 0    ? "holds"
                                 : name.rfind("bad_", 0) == 0 ? "fails"
                                                              : "dispatch_failed";
    // TVM accepts every ok_ and bad_ program and refuses the declined_ ones;
    // mmacheck decides the program and (where TVM lowered it) TVM's dump alike.
    CHECK(o["accepted"].get<bool>() == (expected != "dispatch_failed"));
    std::vector<std::string> texts{text_of(name + ".py")};
    if (o["accepted"].get<bool>()) texts.push_back(text_of(name + ".lowered.py"));
    for (const std::string& text : texts) {
      CHECK(prove_decision(text) == expected);
      CHECK(sim_decision(text) == expected);
    }
    if (expected == "dispatch_failed") {
      // TVM's reason, its first two lines: "... candidates rejected it as:\n  mma: mma: operand 'c' ..."
      const std::string tvm = o["message"];
      const std::string reason =
          tvm.substr(tvm.find("operand 'c'"), tvm.find('\n', tvm.find("operand 'c'")) - tvm.find("operand 'c'"));
      const ProofReport r = prove(program_from(texts.front()), ProveOptions{});
      REQUIRE(r.reasons.size() == 1);
      CHECK_THAT(r.reasons.front(), Catch::Contains(reason));
      CHECK_THAT(r.reasons.front(), Catch::Contains("no ptx instruction matches these operands"));
    }
    (expected == "holds" ? proved : expected == "fails" ? refuted : declined) += 1;
  }
  CHECK(proved == 6);
  CHECK(refuted == 5);
  CHECK(declined == 2);
}

TEST_CASE("the scalar C is the gemm's C: its value, f32 rounding and the run's words", "[tirx][prove]") {
  // The gemm's C as read: 1.5; 0.1 rounded to float32 as TVM's CUDA does (0x1.99999ap-4f).
  CHECK(program_from(text_of("ok_scalar_c.py")).gemm->c_scalar == 1.5f);
  CHECK(program_from(text_of("ok_scalar_c.lowered.py")).gemm->c_scalar == 1.5f);
  CHECK(program_from(text_of("ok_registers_c.py")).gemm->c_scalar == 1.5f);
  CHECK(program_from(text_of("ok_scalar_c_tiled.lowered.py")).gemm->c_scalar == -2.25f);
  for (const char* file : {"ok_scalar_c_tenth.py", "ok_scalar_c_tenth.lowered.py"}) {
    const Program p = program_from(text_of(file));
    CHECK(std::bit_cast<std::uint32_t>(p.gemm->c_scalar) == 0x3dcccccdu);
    CHECK(gemm_geometry(p).c_bits == 0x3dcccccdu);
  }
  // The nest sets D's registers to the scalar's bits where the first K step reads it.
  const Plan plan = dispatch(program_from(text_of("ok_scalar_c_tiled.py")));
  REQUIRE(plan.ok);
  int inits = 0;
  for (const NestStmt& s : plan.nest.stmts)
    if (const auto* init = std::get_if<InitStmt>(&s)) {
      CHECK(init->c_slots.empty());
      CHECK(init->bits == std::bit_cast<std::uint32_t>(-2.25f));
      ++inits;
    }
  CHECK(inits == 4);  // one per (m, n) of the 2 x 2 x 2 tiling
  // gpu's kernel and the printed nest set them to the same value.
  const Plan one = dispatch(program_from(text_of("ok_scalar_c.py")));
  REQUIRE(one.ok);
  CHECK_THAT(emit_cuda(one.nest), Catch::Contains("d[0] = 0x3fc00000u;"));
  CHECK_THAT(emit_tirx(one), Catch::Contains("= T.float32(1.5)"));
  // Their headers say what D starts from: the scalar, not beta = 0.
  CHECK_THAT(emit_cuda(one.nest), Catch::Contains("1 mma, C=1.5\n"));
  CHECK_THAT(emit_tirx(one), Catch::Contains("(M=16, N=8, K=16, C=1.5)"));
  CHECK_THAT(emit_tirx(plan), Catch::Contains("C=-2.25)"));
  std::string covered;
  for (const CheckReport& c : prove(program_from(text_of("ok_scalar_c.py")), ProveOptions{}).checks)
    if (c.check.kind == CheckKind::program) covered = c.note;
  CHECK_THAT(covered, Catch::Contains("products A·B + the constant 1.5"));

  // Each planted mistake, refuted by the program as executed.
  CHECK_THAT(run_message(text_of("bad_registers_c_half.py")), Catch::Contains("nothing wrote"));
  CHECK_THAT(run_message(text_of("bad_registers_c_half_zero.py")),
             Catch::Contains("starts from zero, but C is the constant 1.5"));
  CHECK_THAT(run_message(text_of("bad_registers_c_overwritten.py")),
             Catch::Contains("starts from zero, but C is the constant 1.5"));
  CHECK_THAT(run_message(text_of("bad_registers_c_after_mma.py")),
             Catch::Contains("holds the constant 1.5, not a sum of products"));
  CHECK_THAT(run_message(text_of("bad_scalar_c_then_accumulate.py")), Catch::Contains("twice"));

  // A constant other than the kernel's C, changed in one place: refuted (the
  // registers' 1.5 against the apply's 2.5 would be two C's: an error).
  const std::string regs = text_of("ok_registers_c.py");
  CHECK_THAT(error_of(replace_once(regs, "d[:, :, :, :], scope=\"warp\")", "T.float32(2.5), scope=\"warp\")")),
             Catch::Contains("C is the constant 2.5 here and 1.5 at line"));
  const std::string dump = text_of("ok_scalar_c.lowered.py");
  CHECK_THAT(error_of(replace_once(dump, "T.if_then_else(repeat_2 == 0, T.float32(1.5)",
                                   "T.if_then_else(repeat_2 == 0, T.float32(2.5)")),
             Catch::Contains("C is the constant 1.5 here and 2.5 at line"));
  // One element's scalar C zero in the dump: that element misses C.
  CHECK_THAT(run_message(replace_once(dump, "T.if_then_else(repeat_2 == 0, T.float32(1.5)",
                                      "T.if_then_else(repeat_2 == 0, T.float32(0.0)")),
             Catch::Contains("starts from zero, but C is the constant 1.5"));
  // -0 is a constant of its own: bit for bit, not +0.
  CHECK_THAT(run_message(replace_once(replace_once(regs, "d_r[s] = T.float32(1.5)", "d_r[s] = T.float32(-0.0)"),
                                      "d[:, :, :, :], scope=\"warp\")", "T.float32(0), scope=\"warp\")")),
             Catch::Contains("starts from zero, but C is the constant -0"));

  // What is not read: located errors.
  CHECK_THAT(error_of(replace_once(regs, "d_r[s] = T.float32(1.5)", "d_r[s] = T.float32(1e39)")),
             Catch::Contains("not a finite float32"));
  CHECK_THAT(error_of(replace_once(text_of("ok_scalar_c.py"), "T.float32(1.5), scope", "T.float32(1e39), scope")),
             Catch::Contains("not a finite float32"));
  const std::string a_constant = replace_once(regs, "for s in T.unroll(8):\n            a_h[s] = A[",
                                              "for s in T.unroll(8):\n            a_h[s] = 1.5\n"
                                              "        for s in T.unroll(8):\n            a_h[s] = A[");
  CHECK_THAT(error_of(a_constant), Catch::Contains("not D's accumulators 'd'"));
  // TVM rounds a float16 constant to float16 before the float32 register
  // (T.Cast("float32", T.float16(0.1))): not read, unless 0.
  CHECK_THAT(error_of(replace_once(regs, "d_r[s] = T.float32(1.5)", "d_r[s] = T.float16(0.1)")),
             Catch::Contains("TVM rounds it to float16"));
  CHECK(program_from(replace_once(regs, "d_r[s] = T.float32(1.5)", "d_r[s] = 1.5")).gemm->c_scalar == 1.5f);
}

}  // namespace test_tirx_scalar_c
