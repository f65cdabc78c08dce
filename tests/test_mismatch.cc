// Complete mismatch sets of refuted checks and their one-line summaries;
// the smaller findings of the same trial (source buffers named, staging
// outside its buffer, timeouts, checks that need no solving, unchecked
// staging).
#include <catch2/catch.hpp>

#include <set>

#include "core/base/json.h"
#include "core/program/read/read_program.h"
#include "tests/support.h"
#include "tests/test_diagnosis_support.h"
#include "tests/test_prove_support.h"

namespace test_mismatch {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const Counterexample& only_refuted(const ProofReport& r, const std::string& check) {
  REQUIRE(r.verdict == Verdict::refuted);
  const Counterexample* cx = counterexample(r, check);
  REQUIRE(cx != nullptr);
  return *cx;
}

// Every listed mismatch is true of the program, and every point not listed is right.
void require_complete(const Program& p, const Counterexample& cx) {
  std::set<std::pair<int, std::int64_t>> listed;
  for (const Mismatch& m : cx.mismatches) {
    Counterexample one = cx;
    one.lane = m.lane;
    one.slot = m.slot;
    one.warp = m.warp;
    one.expected = m.expected;
    one.actual = m.actual;
    INFO("lane " << m.lane << ", slot " << m.slot);
    CHECK(counterexample_true(p, one));
    listed.emplace(m.lane, m.slot);
  }
  const std::int64_t per_lane = cx.points / 32;
  for (int lane = 0; lane < 32; ++lane)
    for (std::int64_t slot = 0; slot < per_lane; ++slot) {
      if (listed.count({lane, slot})) continue;
      Counterexample one = cx;
      one.lane = lane;
      one.slot = slot;
      one.expected.reset();  // (a chained `= std::nullopt` trips GCC 12's -Wmaybe-uninitialized)
      one.actual.reset();
      // Not listed: what the statement moves is what the layout keeps there.
      for (const StageStmt& s : p.stages)
        if (cx.check == CheckId{CheckKind::stage, s.buffer}) {
          const IndexEnv env{lane, 0, lane, slot};
          const OperandPlace whole(p, OperandRef{s.buffer, std::nullopt, {}}, false);
          CHECK(layout_holds(p, whole, 0, lane, slot) == Element{s.row.eval(env), s.col.eval(env)});
        }
    }
  CHECK(cx.mismatches.front().lane == cx.lane);
  CHECK(cx.mismatches.front().slot == cx.slot);
}

}  // namespace

TEST_CASE("the seed's erratum: all 128 wrong pairs and the swap named", "[mismatch]") {
  const Program p = load_program(source_path("examples/seed.txt"));
  const ProofReport r = prove_both(p);
  const Counterexample& cx = only_refuted(r, "stage A");
  CHECK(cx.mismatches.size() == 128);
  CHECK(cx.points == 256);
  require_complete(p, cx);
  CHECK(cx.summary ==
        "128 of 256 (lane, slot) pairs wrong — slots 2..5 of every lane; slot 2 holds what the layout puts in slot 4 "
        "(kHi and rM swapped)");
  // The JSON carries the full list in the check's counterexample object.
  const RunResult run = run_mmacheck({"prove", source_path("examples/seed.txt"), "--json"});
  const Json j = Json::parse(run.out);
  const Json& c = j["counterexamples"][0];
  REQUIRE(c["mismatches"].size() == 128);
  CHECK(c["mismatches"][0].dump() == R"({"lane":0,"slot":2,"expected":[8,0],"actual":[0,8]})");
  CHECK(c["summary"] == cx.summary);
  // The text shows the summary and the first few.
  const RunResult text = run_mmacheck({"prove", source_path("examples/seed.txt")});
  CHECK(text.out.find(
            "    128 of 256 (lane, slot) pairs wrong — slots 2..5 of every lane; slot 2 holds what the "
            "layout puts in slot 4 (kHi and rM swapped)\n    lane 0, slot 3: A_g[0][9] where A[8][1] belongs\n") !=
        std::string::npos);
  CHECK(text.out.find("... (128 in all; --json lists every one)") != std::string::npos);
}

TEST_CASE("staging typos: the cause recognised, every mismatch true", "[mismatch]") {
  struct Typo {
    const char* from;
    const char* to;
    const char* check;
    const char* cause;
  };
  const Typo typos[] = {
      {"stage A[s] = A_g[lane // 4", "stage A[s] = A_g[lane % 4", "stage A",
       "a wrong modulus: the row index has (lane % 4) where the layout needs (lane // 4)"},
      {"8 * (s // 4)]", "4 * (s // 4)]", "stage A", "a wrong stride: the column index is off by -4 * (s // 4)"},
      {"stage A[s] = A_g[lane // 4 + 8 * ((s // 2) % 2)", "stage A[s] = A_g[lane // 4 + 8 * ((s // 2) % 2) + 1",
       "stage A", "an offset: every slot is off by (1, 0)"},
      {"2 * (lane % 4) + s % 2]\n", "2 * (lane % 4) + s // 2]\n", "store D",
       "a wrong modulus: the column index has (s // 2) where the layout needs (s % 2)"},
      {"stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2)",
       "stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s % 2)", "stage B",
       "a wrong modulus: the row index has 8 * (s % 2) where the layout needs 8 * (s // 2)"},
  };
  for (const Typo& t : typos) {
    INFO(t.to);
    const Program p = program_from(replace_once(kSeedCorrected, t.from, t.to));
    const ProofReport r = prove_both(p);
    REQUIRE(r.counterexamples.size() == 2);  // the piece's, then the program run's
    const Counterexample& cx = only_refuted(r, t.check);
    CHECK(counterexample_true(p, cx));
    if (cx.check.kind == CheckKind::stage) require_complete(p, cx);
    INFO(cx.summary);
    CHECK(cx.summary.find(t.cause) != std::string::npos);
  }
}

TEST_CASE("stage/store counterexamples name the source buffer, and say when it is left", "[mismatch]") {
  const Program seed = load_program(source_path("examples/seed.txt"));
  const ProofReport seed_report = prove(seed, {});
  CHECK(only_refuted(seed_report, "stage A").message ==
        "lane 0, slot 2: stage A loads A_g[0][8] but A_FRAG places A[8][0]");
  const Program out = program_from(
      replace_once(kSeedCorrected, "s % 2 + 8 * (s // 2), lane // 4]", "s % 2 + 16 * (s // 2), lane // 4]"));
  const ProofReport report = prove_both(out);
  const Counterexample& cx = only_refuted(report, "stage B");
  CHECK(cx.message == "lane 0, slot 2: stage B reads B_g[16][0], outside B_g's 16 x 8");
  CHECK(cx.summary.find("a wrong stride: the row index is off by 8 * (s // 2)") != std::string::npos);
}

TEST_CASE("an expired timeout says so; a check needing no solving says so", "[mismatch]") {
  const Program p = load_program(source_path("examples/seed_corrected.txt"));
  ProveOptions none;
  none.timeout_ms = 0;
  const ProofReport r = prove(p, none);
  CHECK(r.verdict == Verdict::unknown);
  CHECK(r.checks[0].note == "timed out after 0 ms");
  const ProofReport ok = prove(p, {});
  REQUIRE(ok.checks[3].check.name() == "D frame");
  CHECK_FALSE(ok.checks[3].solved);  // C is D: the C frame's query, answered already
  CHECK(ok.checks[3].note == "no solving needed: the same query as an earlier check");
  const RunResult text = run_mmacheck({"prove", source_path("examples/seed_corrected.txt")});
  CHECK(text.out.find("  D frame         proved   (no solving needed: the same query as an earlier check)\n") !=
        std::string::npos);
  const RunResult expired = run_mmacheck({"prove", source_path("examples/seed_corrected.txt"), "--timeout-ms", "0"});
  CHECK(expired.out.find("(timed out after 0 ms)") != std::string::npos);
}

TEST_CASE("a file without stage or store says its staging was not checked", "[mismatch]") {
  const ProofReport r = prove(load_program(source_path("examples/region.txt")), {});
  CHECK(r.verdict == Verdict::proved);
  CHECK(r.notes == std::vector<std::string>{
                       "staging not checked: the program does not stage its registers (no stage/store statements, no "
                       "TVMScript staging loops)"});
  CHECK(prove(load_program(source_path("examples/seed_corrected.txt")), {}).notes.empty());
  const RunResult text = run_mmacheck({"prove", source_path("examples/region.txt")});
  CHECK(text.out.find("note: staging not checked: the program does not stage its registers") != std::string::npos);
}

TEST_CASE("a refuted frame lists every wrong register slot and names the shift", "[mismatch]") {
  // Dispatched as written (TVM keeps the memory offset in its register view),
  // so the prover, not the dispatch, sees the + 1.
  const Program p = program_from(replace_once(kSeedCorrected, "A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8])",
                                              "A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8]) + 1"));
  const ProofReport r = prove_both(p);
  const Counterexample& cx = only_refuted(r, "A frame");
  CHECK(cx.mismatches.size() == 256);
  for (const Mismatch& m : cx.mismatches) {
    Counterexample one = cx;
    one.lane = m.lane, one.slot = m.slot, one.expected = m.expected, one.actual = m.actual;
    CHECK(counterexample_true(p, one));
  }
  CHECK(cx.summary ==
        "256 of 256 (lane, slot) pairs wrong — slots 0..7 of every lane; slot 1 holds what the frame puts "
        "in slot 0 (every wrong slot is off by -1)");
  REQUIRE(cx.fix.has_value());
  CHECK(*cx.fix == "A_FRAG = S[(2, 8, 2, 4, 2) : (2, 4 @ laneid, 4, 1 @ laneid, 1)]");
  CHECK(cx.fix_reason == "the offset + 1 was not meant");
}

}  // namespace test_mismatch
