// The released TIRx's Python helpers in index expressions (docs/tirx-release.md):
// `def a_row(lane, s): return lane // 4 + 8 * (s // 2 % 2)` at the top level,
// called in a kernel's staging as `A[a_row(lane, s), a_col(lane, s)]`.
// TVMScript's parser runs the function on the expressions, so TVM's dump holds
// the expression it returned; mmacheck reads the body at the call.
//
// tests/data/tirx/helpers holds the programs, TVM 0.1.0a4's decision on those it
// accepts (oracle.jsonl, its first line the command that made it) with their
// dumps (NAME.lowered.py) and CUDA (NAME.cu), and refused_helper_kernel_name.py,
// on which TVM raises NameError (a located error here).
#include <catch2/catch.hpp>

#include <sstream>

#include "core/base/json.h"
#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "sim/check/sim_check.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_tirx_helpers {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const std::string kDir = "tests/data/tirx/helpers";

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

// Where a statement's (row, col) lands for every lane and iteration: the
// statement as executed, whatever its expressions' spelling.
template <class Statement>
std::vector<std::pair<std::int64_t, std::int64_t>> elements(const Statement& st, std::int64_t iterations) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (int lane = 0; lane < 32; ++lane)
    for (std::int64_t s = 0; s < iterations; ++s) {
      const IndexEnv env{lane, 0, lane, s};
      out.emplace_back(st.row.eval(env), st.col.eval(env));
    }
  return out;
}

std::string error_of(const std::string& text) {
  try {
    (void)program_from(text);
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("helpers in index expressions: read as TVM runs them, its dump's staging the same, prove and sim alike",
          "[tirx][prove][sim]") {
  std::istringstream lines(text_of("oracle.jsonl"));
  std::string line;
  std::getline(lines, line);
  CHECK(parse_json(line, "oracle.jsonl")["tvm"] == "apache-tvm-tirx 0.1.0a4");
  int proved = 0, refuted = 0;
  while (std::getline(lines, line)) {
    const Json o = parse_json(line, "oracle.jsonl");
    const std::string name = o["name"];
    INFO(name);
    if (o.contains("stage") && o["stage"] == "decoration") continue;  // refused_*: TVM's NameError, below
    REQUIRE(o["accepted"].get<bool>());
    const std::string expected = name.rfind("ok_", 0) == 0 ? "holds" : "fails";
    const std::string program = text_of(name + ".py"), dump = text_of(name + ".lowered.py");
    for (const std::string& text : {program, dump}) {
      CHECK(prove_decision(text) == expected);
      CHECK(sim_decision(text) == expected);
    }
    // The helpers' expressions move the elements TVM's inlined ones do.
    const Program p = program_from(program), d = program_from(dump);
    REQUIRE(p.stages.size() == d.stages.size());
    REQUIRE(p.stores.size() == d.stores.size());
    for (std::size_t i = 0; i < p.stages.size(); ++i) CHECK(elements(p.stages[i], 8) == elements(d.stages[i], 8));
    for (std::size_t i = 0; i < p.stores.size(); ++i) CHECK(elements(p.stores[i], 4) == elements(d.stores[i], 4));
    (expected == "holds" ? proved : refuted) += 1;
  }
  CHECK(proved == 2);
  CHECK(refuted == 3);
  // A helper the kernel calls is read, not listed as skipped.
  const ReadProgram read = read_program_file(source_path(kDir + "/ok_helper_index.py"));
  for (const std::string& note : read.skipped) CHECK_THAT(note, !Catch::Contains("a_row"));
}

TEST_CASE("helpers: Python's scoping and what is not read, located", "[tirx]") {
  // TVM 0.1.0a4 raises NameError: the helper names the kernel's lane, not its parameter.
  CHECK_THAT(error_of(text_of("refused_helper_kernel_name.py")), Catch::Contains("17:12:"));
  CHECK_THAT(error_of(text_of("refused_helper_kernel_name.py")), Catch::Contains("unknown variable 'lane'"));
  const std::string ok = text_of("ok_helper_index.py");
  const std::string nested = text_of("ok_helper_nested.py");
  // A default replaced by an argument, and the call's arity.
  CHECK(prove_decision(replace_once(nested, "pair(lane, s)] = d_r[s]", "pair(lane, s, 2)] = d_r[s]")) == "holds");
  CHECK(prove_decision(replace_once(nested, "pair(lane, s)] = d_r[s]", "pair(lane, s, 3)] = d_r[s]")) == "fails");
  CHECK_THAT(error_of(replace_once(ok, "A[a_row(lane, s),", "A[a_row(lane),")),
             Catch::Contains("'a_row' needs its argument 's'"));
  CHECK_THAT(error_of(replace_once(ok, "A[a_row(lane, s),", "A[a_row(lane, s, 1),")),
             Catch::Contains("'a_row' takes 2 arguments, got 3"));
  CHECK_THAT(error_of(replace_once(ok, "A[a_row(lane, s),", "A[a_row(lane, s=s),")),
             Catch::Contains("keyword argument"));
  // A body mmacheck does not read: an error at its statement.
  CHECK_THAT(error_of(replace_once(ok, "    return lane // 4 + 8 * (s // 2 % 2)",
                                   "    if s > 3:\n        return 0\n    return lane // 4 + 8 * (s // 2 % 2)")),
             Catch::Contains("mmacheck reads a helper that assigns index expressions to names and returns one"));
  CHECK_THAT(error_of(replace_once(ok, "    return lane // 4 + 8 * (s // 2 % 2)", "    k = lane // 4")),
             Catch::Contains("'a_row' returns nothing (None)"));
  // A helper calling itself ends at a depth, located.
  CHECK_THAT(error_of(replace_once(ok, "    return lane // 4 + 8 * (s // 2 % 2)", "    return a_row(lane, s)")),
             Catch::Contains("helpers nested more than 16 deep"));
  // A helper defined after the kernel does not exist when TVM parses it.
  const std::string after = replace_once(ok, "def a_row(lane, s):", "def a_row_unused(lane, s):") +
                            "\n\ndef a_row(lane, s):\n    return lane // 4 + 8 * (s // 2 % 2)\n";
  CHECK_THAT(error_of(after), Catch::Contains("unknown variable 'a_row'"));
}

}  // namespace test_tirx_helpers
