// The released TIRx's mma pattern on regions of its images (docs/tirx-release.md,
// "Regions of an image"): `T.cuda.tile.apply(OP, d[0:1, :, :, :], a[0:1, :, :, :],
// b[:, :, :, :], C)` runs the pattern over the region's repeats, each register
// read at the region's origin plus the repeat; several applies over disjoint
// regions together form the gemm, which the program run checks as executed.
//
// tests/data/tirx/regions holds the programs over examples/tirx_tiled_2x2x2.py's
// images, TVM 0.1.0a4's decision on each (oracle.jsonl, its first line the
// command that made it), and TVM's dumps (NAME.lowered.py) and CUDA (NAME.cu)
// of those it accepts.
#include <catch2/catch.hpp>

#include <sstream>
#include <variant>

#include "core/base/json.h"
#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/prove/prove.h"
#include "sim/check/sim_check.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_tirx_regions {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const std::string kDir = "tests/data/tirx/regions";

std::string text_of(const std::string& file) { return read_file(source_path(kDir + "/" + file)); }

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
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.what();
  }
  return "no error";
}

// Every nest statement's registers, in order: "init d=[..] c=[..] bits", "mma d=.. a=.. b=.. c=..".
std::vector<std::string> registers(const Plan& plan) {
  const auto list = [](const std::vector<int>& v) {
    std::string s = "[";
    for (int x : v) s += std::to_string(x) + ",";
    return s + "]";
  };
  std::vector<std::string> out;
  for (const NestStmt& s : plan.nest.stmts) {
    if (const auto* init = std::get_if<InitStmt>(&s))
      out.push_back("init d=" + list(init->d_slots) + " c=" + list(init->c_slots) + " " + std::to_string(init->bits));
    else if (const auto* m = std::get_if<MmaStmt>(&s))
      out.push_back("mma d=" + list(m->d) + " a=" + list(m->a) + " b=" + list(m->b) + " c=" + list(m->c));
  }
  return out;
}

}  // namespace

TEST_CASE("applies on regions of the images: TVM's decision, its dump's registers, prove and sim alike",
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
    CHECK(o["accepted"].get<bool>() == (expected != "dispatch_failed"));
    const std::string program = text_of(name + ".py");
    CHECK(prove_decision(program) == expected);
    CHECK(sim_decision(program) == expected);
    if (o["accepted"].get<bool>()) {
      // TVM's dump is the nest the regions dispatch to, register for register,
      // and decides alike.
      const std::string dump = text_of(name + ".lowered.py");
      const Plan want = dispatch(program_from(program)), got = dispatch(program_from(dump));
      REQUIRE(want.ok);
      REQUIRE(got.ok);
      CHECK(registers(got) == registers(want));
      CHECK(static_cast<int>(want.nest.mma_count()) == o["mma_count"].get<int>());
      CHECK(prove_decision(dump) == expected);
      CHECK(sim_decision(dump) == expected);
    } else {
      // TVM's reason, as the pattern words it (its analyzer's "cannot prove ..." left out).
      const std::string tvm = o["message"];
      const ProofReport r = prove(program_from(program), ProveOptions{});
      REQUIRE(r.reasons.size() == 1);
      CHECK(r.reasons.front() == "declined — " + tvm.substr(0, tvm.find(": cannot prove")));
    }
    (expected == "holds" ? proved : expected == "fails" ? refuted : declined) += 1;
  }
  CHECK(proved == 7);
  CHECK(refuted == 5);
  CHECK(declined == 3);
}

TEST_CASE("applies on regions: what each computes, the run's words for each planted mistake", "[tirx][prove]") {
  // The second M apply reads D's and A's registers of M tile 1, all of B's.
  const Plan m = dispatch(program_from(text_of("ok_m_split.py")));
  REQUIRE(m.ok);
  REQUIRE(m.nest.parts.size() == 2);
  std::vector<const MmaStmt*> mmas;
  for (const NestStmt& s : m.nest.stmts)
    if (const auto* x = std::get_if<MmaStmt>(&s)) mmas.push_back(x);
  REQUIRE(mmas.size() == 8);
  CHECK((std::vector<int>{mmas[0]->tile_m, mmas[4]->tile_m}) == std::vector<int>{0, 1});
  CHECK(mmas[4]->d == std::vector<int>{8, 9, 10, 11});  // D = 8*m + 4*n + 2*rM + rN
  CHECK(mmas[4]->a == std::vector<int>{8, 9, 10, 11});  // A = 8*m + 4*k + rM + 2*kHi
  CHECK(mmas[4]->b == mmas[0]->b);
  // The index and short forms are the slice form.
  const auto regs = [](const std::string& file) { return registers(dispatch(program_from(text_of(file)))); };
  CHECK(regs("ok_index_form.py") == regs("ok_m_split.py"));
  CHECK(regs("ok_short_form.py") == regs("ok_m_split.py"));

  CHECK_THAT(run_message(text_of("bad_same_region_twice.py")),
             Catch::Contains("holds the product A[0][0]·B[0][0] (k = 0) twice"));
  CHECK_THAT(run_message(text_of("bad_missing_tile.py")), Catch::Contains("D[16][0]"));
  CHECK_THAT(run_message(text_of("bad_missing_tile.py")), Catch::Contains("holds nothing"));
  CHECK_THAT(run_message(text_of("bad_one_region.py")), Catch::Contains("D[16][0]"));
  CHECK_THAT(run_message(text_of("bad_crossed_regions.py")), Catch::Contains("which is no A[0][k]·B[k][0]"));
  CHECK_THAT(run_message(text_of("bad_k_split_restart.py")), Catch::Contains("misses the product of k = 0"));

  // An accumulating apply reading C from another region of D than it writes:
  // TVM's pattern reads C's registers there (a copy, not in place).
  const std::string mk = text_of("ok_mk_split.py");
  const std::string crossed_c =
      replace_once(mk, "b[:, 1:2, :, :], d[0:1, :, :, :]", "b[:, 1:2, :, :], d[1:2, :, :, :]");
  CHECK_THAT(run_message(crossed_c), Catch::Contains("D[0][0] (written by store d -> D"));
  CHECK_THAT(run_message(crossed_c),
             Catch::Contains("holds the product A[16][0]·B[0][0], which is no A[0][k]·B[k][0]"));

  // What is not read: located errors.
  const std::string ms = text_of("ok_m_split.py");
  CHECK_THAT(error_of(replace_once(ms, "d[0:1, :, :, :]", "d[1:1, :, :, :]")), Catch::Contains("an empty region 1:1"));
  CHECK_THAT(error_of(replace_once(ms, "d[0:1, :, :, :]", "d[0:1, :, :, :, :]")),
             Catch::Contains("'d' has 4 dimensions"));
  // A step (TVM: "Tensor slices with a non-unit step are not supported").
  CHECK_THAT(error_of(replace_once(ms, "d[0:1, :, :, :]", "d[0:1:2, :, :, :]")),
             Catch::Contains("30:85: error: expected ']' to close '['"));
}

}  // namespace test_tirx_regions
