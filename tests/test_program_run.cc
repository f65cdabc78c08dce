// The program as executed (core/prove/program_run.h): held-out compositions
// of correct pieces — order, tensors, registers, repeats — each planted in a
// released-TIRx program (as written, TVM's print, TVM's lowered dump: made by
// TVM 0.1.0a4, scripts/tirx-oracle/compositions.py), in TVMScript and in a
// layout file.  Every wrong one is refuted by the "program" check, every
// correct variant proves (docs/soundness.md, "The program as executed").
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/base/error.h"
#include "core/program/read/read_program.h"
#include "core/prove/program_run.h"
#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_program_run {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// The header's "# Expected verdict: proved|refuted".
std::string expected_verdict(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  const std::string key = "# Expected verdict: ";
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return line.substr(key.size());
  return "";
}

std::vector<std::string> files_in(const std::string& rel, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(source_path(rel)))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

void check_file(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  const std::string expect = expected_verdict(path);
  INFO(name << ": expected " << expect);
  REQUIRE((expect == "proved" || expect == "refuted"));
  const Program program = load_program(path);
  const ProofReport r = prove(program, ProveOptions{});
  const CheckResult run = result_of(r, "program");
  if (expect == "proved") {
    CHECK(r.verdict == Verdict::proved);
    CHECK(run == CheckResult::proved);
  } else {
    CHECK(r.verdict == Verdict::refuted);
    CHECK(run == CheckResult::refuted);
    const Counterexample* cx = counterexample(r, "program");
    REQUIRE(cx != nullptr);
    CHECK_FALSE(cx->message.empty());
  }
}

}  // namespace

TEST_CASE("released TIRx: every composition made by TVM is proved or refuted as it runs", "[program][tirx]") {
  const std::vector<std::string> files = files_in("tests/data/program/tirx", ".py");
  REQUIRE(files.size() >= 80);
  for (const std::string& f : files) check_file(f);
}

TEST_CASE("TVMScript and layout files: order, overwrites and consistent K orders", "[program]") {
  for (const std::string& f : files_in("tests/data/program/tvmscript", ".py")) check_file(f);
  for (const std::string& f : files_in("tests/data/program/layout", ".txt")) check_file(f);
}

TEST_CASE("the counterexample names the element, the statement and what is wrong", "[program]") {
  const auto refutation = [](const std::string& rel) {
    const ProofReport r = prove(load_program(source_path(rel)), ProveOptions{});
    const Counterexample* cx = counterexample(r, "program");
    REQUIRE(cx != nullptr);
    return cx->message;
  };
  using Catch::Matchers::Contains;
  // The store runs before the gemm: it writes registers nothing wrote.
  CHECK_THAT(refutation("tests/data/program/tvmscript/bad_store_before_gemm.py"),
             Contains("D_g[0][0]") && Contains("holds nothing") && Contains("runs after it"));
  // A staged after the gemm: the mma multiplies a register nothing wrote, and says which statement comes too late.
  CHECK_THAT(refutation("tests/data/program/tvmscript/bad_stage_a_after_gemm.py"),
             Contains("multiplies A's register") && Contains("runs after"));
  // B from A's tensor.
  CHECK_THAT(refutation("tests/data/program/tirx/bad_b_from_a.py"), Contains("pair A with itself"));
  CHECK_THAT(refutation("tests/data/program/layout/bad_b_from_a.txt"), Contains("A_g"));
  // The output is an input.
  CHECK_THAT(refutation("tests/data/program/tirx/bad_c_from_d.py"), Contains("D"));
  // D's registers stored into C, while D is never written.
  CHECK_THAT(refutation("tests/data/program/tirx/bad_store_into_c.py"), Contains("C"));
  // A consistent reversal of K in A alone is one K missing, another doubled.
  CHECK_THAT(refutation("tests/data/program/tvmscript/bad_k_reversed_a_only.py"), Contains("which is no A["));
}

TEST_CASE("a piece that departs from its layout is superseded when the program computes the gemm", "[program]") {
  const ProofReport r = prove(load_program(source_path("tests/data/program/tvmscript/ok_k_reversed.py")), {});
  CHECK(r.verdict == Verdict::proved);
  CHECK(result_of(r, "stage A_f") == CheckResult::superseded);
  CHECK(result_of(r, "stage B_f") == CheckResult::superseded);
  CHECK(result_of(r, "program") == CheckResult::proved);
  CHECK(r.counterexamples.empty());
  bool noted = false;
  for (const std::string& n : r.notes) noted = noted || n.find("stage A_f departs") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("every example's verdict is the program run's", "[program]") {
  // The pieces and the run agree on every shipped example: where they would
  // not, one of them is wrong (a bug of ours).
  for (const std::string& f : files_in("examples", ".txt")) {
    const std::string expect = expected_verdict(f);
    if (expect != "proved" && expect != "refuted") continue;
    INFO(f);
    ProveOptions options;
    if (std::filesystem::path(f).filename().string().rfind("ext_", 0) == 0) options.inst_set = InstSet::extended;
    const ProofReport r = prove(load_program(f), options);
    if (r.verdict == Verdict::dispatch_failed) continue;
    const CheckResult run = result_of(r, "program");
    CHECK(run == (expect == "proved" ? CheckResult::proved : CheckResult::refuted));
    for (const CheckReport& c : r.checks) CHECK(c.result != CheckResult::superseded);
  }
}

TEST_CASE("sim executes the statements in their order", "[program][sim]") {
  const auto sim = [](const std::string& rel) {
    return run_mmacheck({"sim", source_path(rel), "--cases", "4"}).status;
  };
  CHECK(sim("tests/data/program/tvmscript/ok_b_staged_first.py") == 0);
  CHECK(sim("tests/data/program/tvmscript/ok_overwritten_staging.py") == 0);
  CHECK(sim("tests/data/program/tvmscript/bad_store_before_gemm.py") == 1);
  CHECK(sim("tests/data/program/tvmscript/bad_stage_a_after_gemm.py") == 1);
  CHECK(sim("tests/data/program/tvmscript/bad_overwritten_staging.py") == 1);
  // The tensors the statements name: B from A's, C from the output before it is written.
  CHECK(sim("tests/data/program/tirx/ok_square.py") == 0);
  CHECK(sim("tests/data/program/tirx/bad_b_from_a.py") == 1);
  CHECK(sim("tests/data/program/tirx/ok_c_tensor.py") == 0);
  CHECK(sim("tests/data/program/tirx/bad_c_from_d.py") == 1);
  // Loops over part of a view's registers and views indexed by an
  // expression run as written: the halves of A around B's staging, a wrong
  // store overwritten by the right one (and the other way round).
  const std::string dir = "tests/data/program/tirx/";
  for (const char* form : {".py", ".print.py", ".lowered.py"}) {
    INFO(form);
    CHECK(sim(dir + "ok_a_split_around_b" + form) == 0);
    CHECK(sim(dir + "bad_a_half_staged" + form) == 1);
    CHECK(sim(dir + "ok_overwritten_store" + form) == 0);
    CHECK(sim(dir + "bad_overwritten_store" + form) == 1);
  }
  // Two applies run where they stand, and so does a statement between
  // them (statement by statement, registers nothing wrote as poison): a D
  // store between the applies, A restaged wrongly before the second, a
  // first apply on unstaged registers that the second restarts, or
  // accumulates onto (the poison reaches D).
  for (const char* form : {".py", ".print.py", ".lowered.py"}) {
    INFO(form);
    CHECK(sim(dir + "ok_apply_twice" + form) == 0);
    CHECK(sim(dir + "bad_accumulate_twice" + form) == 1);
    CHECK(sim(dir + "ok_store_between_applies" + form) == 0);
    CHECK(sim(dir + "bad_restage_between_applies" + form) == 1);
    CHECK(sim(dir + "ok_first_apply_unstaged" + form) == 0);
    CHECK(sim(dir + "bad_first_apply_unstaged_accumulated" + form) == 1);
  }
  // gpu's kernel runs the applies back to back: it names the statement
  // between them instead of running another program (with a GPU or not).
  if (kWithCuda) {
    const RunResult r = run_mmacheck({"gpu", source_path(dir + "ok_store_between_applies.py")});
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find("ok_store_between_applies.py:") != std::string::npos);
    CHECK(r.err.find("stands between two mma statements") != std::string::npos);
  }
}

TEST_CASE("sim decides every composition as prove does, or names what it does not run", "[program][sim]") {
  // What sim does not run is a located error naming the statement (exit 2),
  // never a pass: a store of registers other than D's.  A consistent reordering of K sums in another order:
  // every element within the reference's bound, not bit for bit the
  // direct evaluation's order, so sim reports it.
  const std::set<std::string> other_order = {"ok_k_tiles_swapped"};
  std::vector<std::string> files = files_in("tests/data/program/tirx", ".py");
  for (const std::string& f : files_in("tests/data/program/tvmscript", ".py")) files.push_back(f);
  for (const std::string& f : files_in("tests/data/program/layout", ".txt")) files.push_back(f);
  int decided = 0;
  for (const std::string& path : files) {
    const std::string name = std::filesystem::path(path).filename().string();
    const std::string stem = name.substr(0, name.find('.'));
    const std::string expect = expected_verdict(path);
    const RunResult r = run_mmacheck({"sim", path, "--cases", "4"});
    INFO(name << ": expected " << expect << "\n" << r.out << r.err);
    if (r.status == 2) {
      CHECK(r.err.find(name + ":") != std::string::npos);
      CHECK(r.err.find("sim and gpu store D's registers") != std::string::npos);
      continue;
    }
    ++decided;
    if (other_order.contains(stem)) {
      CHECK(r.status == 1);
      CHECK(r.out.find(", 0 outside the Eigen reference bound)") != std::string::npos);
      continue;
    }
    CHECK(r.status == (expect == "proved" ? 0 : 1));
  }
  CHECK(decided >= 105);
}

}  // namespace test_program_run
