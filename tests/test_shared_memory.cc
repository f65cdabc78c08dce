// Shared memory (docs/shared-memory.md): swizzles, the ldmatrix/stmatrix
// table, the parser's statements and located errors, the proofs on the
// issue's examples (with their counterexamples), bank-conflict counts and
// the CLI's --max-bank-conflicts.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/gemm/dispatch.h"
#include "core/gemm/ldmatrix.h"
#include "core/gemm/shared_layout.h"
#include "core/gemm/staging.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "sim/machine/warp_machine.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/random_inputs.h"
#include "tests/support.h"
#include "tests/test_hardening_support.h"
#include "tests/test_prove_support.h"

namespace test_shared_memory {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

std::string example(const std::string& name) { return read_file(source_path("examples/" + name)); }

ProofReport prove_example(const std::string& name) {
  const std::string text = example(name);
  const InstSet set = text.find("--inst-set extended") != std::string::npos ? InstSet::extended : InstSet::tvm;
  return prove_both(parse_program(text, name), set);
}

std::string parse_error(const std::string& text) {
  try {
    parse_program(text, "f.txt");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const std::string kShared =
    "A_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([16, 16], [16, 8])\n"
    "A_s = buffer((16, 16), \"float16\", \"shared\", S[(16, 16) : (16, 1)], swizzle=Swizzle(3, 3, 3), align=1024)\n"
    "A = buffer((16, 16), \"float16\", \"local\", A_FRAG)\n";

}  // namespace

TEST_CASE("swizzles: CuTe's Swizzle<B,M,S> and TIRx's SwizzleLayout", "[shared]") {
  const Swizzle s128{3, 3, 3};
  CHECK(s128.apply(64) == 72);  // row 1 of 64 f16: chunk 0 -> 1
  CHECK(s128.apply(7 * 64 + 8) == 7 * 64 + 8 * (1 ^ 7));
  CHECK(s128.apply(5) == 5);  // inside a chunk nothing moves
  CHECK(s128.period() == 512);
  // Every element of one period lands on its own offset.
  std::vector<bool> seen(512);
  for (int x = 0; x < 512; ++x) seen[s128.apply(x)] = true;
  CHECK(std::count(seen.begin(), seen.end(), true) == 512);
  // swizzle_inner=False XORs the low chunk bits into the high ones.
  const Swizzle outer{3, 3, 3, false};
  CHECK(outer.apply(8) == 8 + 64);
  CHECK(Swizzle{2, 3, 3, true, true}.str() == "SwizzleLayout(per_element=3, swizzle_len=2, atom_len=3)");
  // The four spellings give the same placement.
  const auto offsets = [](const std::string& decl) {
    const Program p = parse_program(decl, "f.txt");
    return shared_layout(p.buffers[0], std::nullopt).offset;
  };
  const auto cute =
      offsets("A_s = buffer((16, 16), \"float16\", \"shared\", S[(16, 16) : (16, 1)], swizzle=Swizzle(3, 3, 3))\n");
  CHECK(cute[16] == 16);  // A_s[1][0]: the first 128 bytes stay
  CHECK(cute[64] == 72);  // A_s[4][0]: second 128-byte row, chunk 1
  CHECK(offsets("A_s = buffer((16, 16), \"float16\", \"shared\", S[(16, 16) : (16, 1)], "
                "swizzle=T.SwizzleLayout(per_element=3, swizzle_len=3, atom_len=3))\n") == cute);
  CHECK(
      offsets("A_s = buffer((16, 16), \"float16\", \"shared\", "
              "T.ComposeLayout(T.SwizzleLayout(per_element=3, swizzle_len=3, atom_len=3), S[(16, 16) : (16, 1)]))\n") ==
      cute);
  CHECK(offsets("A_s = T.alloc_buffer((16, 16), \"float16\", scope=\"shared\", "
                "layout=T.ComposeLayout(3, 3, 3, T.TileLayout(S[(16, 16) : (16, 1)])))\n") == cute);
}

TEST_CASE("the ldmatrix/stmatrix table: rows, registers and .trans", "[shared]") {
  CHECK(matrix_copies().size() == 12);
  const MatrixCopy& x4 = matrix_copy(false, 4, false);
  CHECK(x4.ptx == "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  CHECK(x4.address_lanes() == 32);
  // Lane 5, register 2: row 1 of matrix 2 (lane 17's address), bytes 4..7.
  CHECK(matrix_copy_byte(x4, 5, 2, 0) == RowByte{17, 4});
  CHECK(matrix_copy_byte(x4, 5, 2, 3) == RowByte{17, 7});
  // .trans: low unit from row 2 (l % 4), high from the next row, unit l / 4.
  const MatrixCopy& t2 = matrix_copy(false, 2, true);
  CHECK(matrix_copy_byte(t2, 5, 1, 0) == RowByte{8 + 2, 2});
  CHECK(matrix_copy_byte(t2, 5, 1, 2) == RowByte{8 + 3, 2});
  CHECK(matrix_copy(true, 2, false).ptx == "stmatrix.sync.aligned.m8n8.x2.shared.b16");
  CHECK_THROWS_WITH(matrix_copy(false, 3, false), Catch::Contains("no .x3"));
}

TEST_CASE("shared statements are parsed, and bad ones refused at their token", "[shared][parser]") {
  const Program p = parse_program(
      kShared + "fill A_s = A_g\nldmatrix.sync.aligned.m8n8.x4.shared.b16 A[0] = A_s[lane % 16, 8 * (lane // 16)]\n",
      "f.txt");
  REQUIRE(p.copies.size() == 1);
  CHECK(p.copies[0].num == 4);
  CHECK(p.copies[0].label() == "ldmatrix.x4 A[0]");
  CHECK(p.fills.size() == 1);
  CHECK(p.buffers[0].align == 1024);
  CHECK(
      parse_error(kShared + "ldmatrix.x3 A[0] = A_s[lane, 0]\n") ==
      "f.txt:4:10: error: unknown ldmatrix qualifier '.x3' (known: .x1, .x2, .x4, .trans; .sync.aligned.m8n8.shared.b16 may be written)");
  CHECK(parse_error(kShared + "ldmatrix.trans A[0] = A_s[lane, 0]\n")
            .find("f.txt:4:16: error: ldmatrix needs its matrix count") == 0);
  CHECK(parse_error(kShared + "ldmatrix.x4 A[0] = A_s[lane + s, 0]\n") ==
        "f.txt:4:24: error: a row address depends on the lane only; ldmatrix moves whole registers (no 's')");
  CHECK(parse_error(kShared + "ldmatrix.x4 A_s[0] = A[lane, 0]\n")
            .find("f.txt:4:13: error: ldmatrix moves between shared memory and registers; 'A_s' is shared") == 0);
  CHECK(parse_error(kShared + "fill A = A_g\n").find("f.txt:4:6: error: fill needs a shared buffer") == 0);
  CHECK(parse_error(kShared + "fill A_s = A_g\nfill A_s = A_g\n")
            .find("f.txt:5:6: error: shared buffer 'A_s' already has a fill") == 0);
  CHECK(parse_error("A = buffer((16, 16), \"float16\", \"local\", swizzle=Swizzle(3, 3, 3))\n")
            .find("f.txt:1:50: error: a swizzle needs a shared buffer") == 0);
  CHECK(parse_error("A_s = buffer((16, 16), \"float16\", \"shared\", align=24)\n")
            .find("f.txt:1:51: error: align must be a power of two") == 0);
  CHECK(parse_error("A_s = buffer((16, 16), \"float32\", \"shared\")\nA = buffer((16, 16), \"float32\", \"local\")\n"
                    "ldmatrix.x4.trans A[0] = A_s[lane, 0]\n")
            .find("f.txt:3:1: error: ldmatrix.trans moves 16-bit units") == 0);
}

TEST_CASE("the 128-byte swizzle feeds A (x4) and B (x2, and x2.trans from K x N): proved, conflict-free",
          "[shared][prove]") {
  for (const char* name : {"smem_swizzle128.txt", "smem_swizzle128_trans.txt"}) {
    INFO(name);
    const ProofReport r = prove_example(name);
    CHECK(r.verdict == Verdict::proved);
    CHECK(result_of(r, "swizzle A_s") == CheckResult::proved);
    CHECK(result_of(r, "fill A_s") == CheckResult::proved);
    CHECK(result_of(r, "rows ldmatrix.x4 A[0]") == CheckResult::proved);
    CHECK(result_of(r, "ldmatrix A") == CheckResult::proved);
    CHECK(result_of(r, "ldmatrix B") == CheckResult::proved);
    REQUIRE(r.bank_conflicts.size() == 2);
    CHECK(r.bank_conflicts[0].wavefronts == 4);
    CHECK(r.bank_conflicts[1].wavefronts == 2);
    CHECK(r.extra_wavefronts() == 0);
  }
}

TEST_CASE("without the swizzle: proved, and every ldmatrix phase is 2-way conflicted", "[shared][banks]") {
  const ProofReport r = prove_example("smem_noswizzle.txt");
  CHECK(r.verdict == Verdict::proved);
  REQUIRE(r.bank_conflicts.size() == 2);
  const BankCount& a = r.bank_conflicts[0];
  CHECK(a.statement == "ldmatrix.x4 A[0]");
  CHECK(a.wavefronts == 8);
  CHECK(a.ideal == 4);
  REQUIRE(a.conflicts.size() == 4);
  // Rows 0 and 4 of matrix 0 are 128 bytes apart: bank group 0 twice.
  CHECK(a.conflicts[0].lanes == std::vector<int>{0, 4});
  CHECK(r.bank_conflicts[1].wavefronts == 4);
  CHECK(r.extra_wavefronts() == 6);
}

TEST_CASE("plain ld.shared: proved, with its per-instruction conflicts", "[shared][banks]") {
  const ProofReport r = prove_example("smem_ld_shared.txt");
  CHECK(r.verdict == Verdict::proved);
  CHECK(result_of(r, "ld.shared B") == CheckResult::proved);
  REQUIRE(r.bank_conflicts.size() == 2);
  CHECK(r.bank_conflicts[1].instructions == 4);
  CHECK(r.bank_conflicts[1].wavefronts == 8);
  CHECK(r.bank_conflicts[1].conflicts[0].lanes == std::vector<int>{0, 16});
}

TEST_CASE("a wrong ldmatrix lane address is refuted with the lane and the element", "[shared][prove]") {
  const ProofReport r = prove_example("smem_wrong_lane.txt");
  CHECK(r.verdict == Verdict::refuted);
  const Counterexample* cx = counterexample(r, "ldmatrix A");
  REQUIRE(cx);
  CHECK(cx->lane == 0);
  CHECK(cx->slot == 2);
  CHECK(cx->expected == Element{8, 0});
  CHECK(cx->actual == Element{0, 8});
  CHECK(cx->message ==
        "lane 0, slot 2: ldmatrix.x4 A[0] (register 1, the row lane 8 addresses, A_s[0][8]) delivers "
        "A_g[0][8] but A_FRAG places A[8][0] there");
  CHECK(cx->mismatches.size() == 128);
  CHECK(cx->address_lane == 8);  // lane 0 receives it; lane 8 supplied the row
  CHECK(result_of(r, "rows ldmatrix.x4 A[0]") == CheckResult::proved);
}

TEST_CASE("a writer and a reader that disagree on the swizzle are refuted", "[shared][prove]") {
  const ProofReport r = prove_example("smem_fill_mismatch.txt");
  CHECK(r.verdict == Verdict::refuted);
  const Counterexample* cx = counterexample(r, "fill A_s");
  REQUIRE(cx);
  // Rows 0..3 are the first 128 bytes, which the 128-byte swizzle leaves alone.
  CHECK(cx->expected == Element{4, 0});
  CHECK(cx->actual == Element{4, 8});
  CHECK(cx->message ==
        "fill A_s puts A_s[4][0] at offset 64 (no swizzle) but the reader looks for it at offset 72 "
        "(A_s's Swizzle(3, 3, 3)), where the fill put A_s[4][8]");
  CHECK(result_of(r, "ldmatrix A") == CheckResult::refuted);
  CHECK(result_of(r, "ldmatrix B") == CheckResult::proved);
}

TEST_CASE("stmatrix writes D where the drain reads it: proved", "[shared][prove]") {
  const ProofReport r = prove_example("smem_stmatrix_d.txt");
  CHECK(r.verdict == Verdict::proved);
  CHECK(result_of(r, "stmatrix D") == CheckResult::proved);
  CHECK(result_of(r, "drain D_s") == CheckResult::proved);
  CHECK(result_of(r, "rows stmatrix.x2 D[0]") == CheckResult::proved);
  // A wrong row address: the second matrix written over the first.
  const std::string bad = replace_once(example("smem_stmatrix_d.txt"), "D_s[lane % 16, 0]", "D_s[lane % 8, 0]");
  const ProofReport b = prove_both(parse_program(bad, "bad.txt"), InstSet::extended);
  const Counterexample* cx = counterexample(b, "stmatrix D");
  REQUIRE(cx);
  CHECK(cx->lane == 0);
  CHECK(cx->slot == 2);
  CHECK(cx->expected == Element{8, 0});
  CHECK(cx->actual == Element{0, 0});
}

TEST_CASE("ldmatrix.trans on fp8 is refuted with the element pair it keeps together", "[shared][prove]") {
  const ProofReport r = prove_example("smem_fp8_trans.txt");
  CHECK(r.verdict == Verdict::refuted);
  const Counterexample* cx = counterexample(r, "ldmatrix A");
  REQUIRE(cx);
  CHECK(cx->lane == 0);
  CHECK(cx->slot == 1);
  CHECK(cx->expected == Element{0, 1});
  CHECK(cx->actual == Element{1, 0});
  CHECK(cx->message.find("lane 0's register 0 gets (A_g[0][0], A_g[1][0], A_g[0][1], A_g[1][1]) where the mma needs "
                         "(A[0][0], A[0][1], A[0][2], A[0][3])") != std::string::npos);
  CHECK(cx->message.find(".trans moves 16-bit units") != std::string::npos);
}

TEST_CASE("the swizzle's bijection and alignment are proved or refuted", "[shared][prove]") {
  const std::string good = example("smem_swizzle128.txt");
  // Aligned to 16 bytes only: the 128-byte swizzle repeats every 1024.
  const ProofReport low = prove_both(parse_program(replace_once(good, "align=1024)\nB_s", "align=16)\nB_s"), "f.txt"));
  const Counterexample* cx = counterexample(low, "swizzle A_s");
  REQUIRE(cx);
  CHECK(cx->message.find("Swizzle(3, 3, 3) repeats every 1024 bytes but A_s is aligned to 16: placed at byte 16") == 0);
  // A layout that puts two elements at one offset is no bijection.
  const ProofReport flat =
      prove_both(parse_program(replace_once(good, "S[(16, 16) : (16, 1)], swizzle=Swizzle(3, 3, 3), align=1024)\nB_s",
                                            "S[(16, 16) : (8, 1)], swizzle=Swizzle(3, 3, 3), align=1024)\nB_s"),
                               "f.txt"));
  cx = counterexample(flat, "swizzle A_s");
  REQUIRE(cx);
  CHECK(cx->message.find("both land at offset") != std::string::npos);
  // Rows that are not 16-byte aligned.
  const ProofReport rows = prove_both(parse_program(
      replace_once(good, "A_s[lane % 16, 8 * (lane // 16)]", "A_s[lane % 16, 4 * (lane // 16)]"), "f.txt"));
  cx = counterexample(rows, "rows ldmatrix.x4 A[0]");
  REQUIRE(cx);
  // Lane 16 gives row 0 of matrix 2 (register 2); its first element goes to lane 0's slots 4, 5.
  CHECK(cx->address_lane == 16);
  CHECK(cx->lane == 0);
  CHECK(cx->slot == 4);
  CHECK(cx->message == "lane 16's row address A_s[0][4] is byte 8 of A_s: ldmatrix rows must be 16-byte aligned");
}

TEST_CASE("shared staging that cannot run is refused at its statement", "[shared][staging]") {
  const std::string good = example("smem_swizzle128.txt");
  const auto staging_error = [](const std::string& text) {
    try {
      const Program p = parse_program(text, "f.txt");
      build_staging(p, dispatch(p).nest);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(staging_error(replace_once(good, "fill A_s = A_g ", "# no fill"))
            .find("ldmatrix.x4 A[0] reads 'A_s' but nothing fills it") != std::string::npos);
  CHECK(staging_error(replace_once(good, "ldmatrix.x2 B[0]", "ldmatrix.x4 B[0]"))
            .find("moves slots 0..7 but 'B' has 4 per lane") != std::string::npos);
  CHECK(staging_error(replace_once(good, "fill B_s = B_g.T", "fill B_s = B_g"))
            .find("gives a 8 x 16 matrix but 'B' is 16 x 8") != std::string::npos);
}

TEST_CASE("prove prints the bank conflicts and --max-bank-conflicts fails on more", "[shared][cli]") {
  const RunResult text = run_mmacheck({"prove", source_path("examples/smem_noswizzle.txt")});
  CHECK(text.status == 0);
  CHECK(text.out.find("ldmatrix.x4 A[0] (A_s, line 24)") != std::string::npos);
  CHECK(text.out.find("8 wavefronts, ideal 4: 4 extra") != std::string::npos);
  CHECK(text.out.find("phase 0: 2-way in bank 0, lanes 0, 4") != std::string::npos);
  const RunResult strict =
      run_mmacheck({"prove", source_path("examples/smem_noswizzle.txt"), "--max-bank-conflicts", "0"});
  CHECK(strict.status == 1);
  CHECK(strict.out.find("bank conflicts: 6 extra wavefronts, more than --max-bank-conflicts 0") != std::string::npos);
  CHECK(run_mmacheck({"prove", source_path("examples/smem_noswizzle.txt"), "--max-bank-conflicts", "6"}).status == 0);
  CHECK(run_mmacheck({"prove", source_path("examples/smem_swizzle128.txt"), "--max-bank-conflicts", "0"}).status == 0);
  const RunResult json =
      run_mmacheck({"prove", source_path("examples/smem_noswizzle.txt"), "--json", "--max-bank-conflicts", "0"});
  CHECK(json.status == 1);
  const Json j = parse_json(json.out, "out");
  CHECK(j["extra_wavefronts"] == 6);
  CHECK(j["bank_conflicts_ok"] == false);
  CHECK(j["bank_conflicts"][0]["wavefronts"] == 8);
  CHECK(j["bank_conflicts"][0]["conflicts"][0]["lanes"] == Json::array({0, 4}));
}

TEST_CASE("the warp machine's byte-level shared memory agrees with the composed tables", "[shared][sim]") {
  for (const char* name :
       {"smem_swizzle128.txt", "smem_swizzle128_trans.txt", "smem_noswizzle.txt", "smem_ld_shared.txt",
        "smem_wrong_lane.txt", "smem_fill_mismatch.txt", "smem_stmatrix_d.txt", "smem_fp8_trans.txt"}) {
    INFO(name);
    const Program p = parse_program(example(name), name);
    const Plan plan = dispatch(p, InstSet::extended);
    REQUIRE(plan.ok);
    sim::WarpMachine m(p, plan.nest, sim::arch_params("sm_90"));
    REQUIRE(m.staging().shared_a);
    const Staging& st = m.staging();
    const auto spec = [](const SlotTable& t) { return sim::MatrixSpec{t.rows, t.cols, t.dtype, -1}; };
    for (int c = 0; c < 3; ++c) {
      const sim::GemmInputs in =
          sim::random_gemm_inputs(spec(st.a), spec(st.b), spec(st.c), sim::case_distribution(c), 7, c);
      m.load(in);
      // ldmatrix executed byte by byte gives the registers the composed table loads.
      sim::RegisterFile by_table(st.a.dtype, 32, st.a.slots);
      by_table.load(st.a, in.a.bits);
      for (int l = 0; l < 32; ++l)
        for (int r = 0; r < by_table.regs(); ++r) REQUIRE(m.a().reg(l, r) == by_table.reg(l, r));
      m.execute_nest();
      const std::vector<std::uint64_t> stepwise = m.store();
      CHECK(stepwise == m.run(in));
      // The stmatrix + drain path writes what D's composed store table writes.
      if (st.shared_d) CHECK(stepwise == m.d().store(st.d));
    }
  }
}

TEST_CASE("a swizzled slice of wider rows owns the swizzled image's extent: proved, and alloc= bounds it",
          "[shared][prove]") {
  // Issue 21: 16 x 16 f16 of 64-wide rows under Swizzle(3, 3, 3); row 15's first chunks land at 1016..1023.
  const std::string text = example("smem_slice64.txt");
  const Program p = parse_program(text, "smem_slice64.txt");
  const SharedLayout s = shared_layout(p.buffer("A_s", {}), std::nullopt);
  CHECK(s.alloc == 1024);
  CHECK(s.offset[s.flat(15, 0)] == 1016);
  const ProofReport r = prove_both(p);
  CHECK(r.verdict == Verdict::proved);
  CHECK(result_of(r, "swizzle A_s") == CheckResult::proved);
  // The warp machine computes the gemm through it.
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  // A declared allocation that the swizzled image overflows is refuted at the element.
  const std::string small = replace_once(text, "swizzle=Swizzle(3, 3, 3), align=1024)\nB_s",
                                         "swizzle=Swizzle(3, 3, 3), align=1024, alloc=976)\nB_s");
  const ProofReport b = prove_both(parse_program(small, "f.txt"));
  CHECK(b.verdict == Verdict::refuted);
  const Counterexample* cx = counterexample(b, "swizzle A_s");
  REQUIRE(cx);
  CHECK(cx->message ==
        "A_s[15][0] lands at offset 1016 after Swizzle(3, 3, 3) (offset 960 before it), outside the "
        "allocation of 976 elements");
  // alloc= large enough proves.
  CHECK(prove_both(parse_program(replace_once(small, "alloc=976", "alloc=1024"), "f.txt")).verdict == Verdict::proved);
  CHECK_THAT(parse_error(replace_once(small, "alloc=976", "alloc=0")), Catch::Contains("alloc must be from 1 to"));
}

TEST_CASE("CuTe's swizzle rules and a self-fill are located errors", "[shared][parser]") {
  const std::string good = example("smem_swizzle128.txt");
  // |S| >= B (cute/swizzle.hpp), for every spelling.
  for (const auto& [from, to] :
       {std::pair{"Swizzle(3, 3, 3), align=1024)\nB_s", "Swizzle(3, 3, 1), align=1024)\nB_s"},
        std::pair{"Swizzle(3, 3, 3), align=1024)\nB_s",
                  "SwizzleLayout(per_element=3, swizzle_len=3, atom_len=2), align=1024)\nB_s"}}) {
    const std::string e = parse_error(replace_once(good, from, to));
    CHECK_THAT(e, Catch::StartsWith("f.txt:14:"));
    CHECK_THAT(e, Catch::Contains("breaks CuTe's rule |S| >= B"));
  }
  CHECK(parse_error(replace_once(good, "Swizzle(3, 3, 3), align=1024)\nB_s", "Swizzle(2, 3, 2), align=1024)\nB_s"))
            .empty());
  // fill A_s = A_s: the right side is the shared buffer itself, not a global matrix.
  const std::string self = parse_error(replace_once(good, "fill A_s = A_g", "fill A_s = A_s"));
  CHECK_THAT(self, Catch::StartsWith("f.txt:23:"));
  CHECK_THAT(self, Catch::Contains("names the shared buffer on both sides"));
  // ... nor any other non-global buffer.
  CHECK_THAT(parse_error(replace_once(good, "fill A_s = A_g", "fill A_s = A")), Catch::Contains("'A' is local"));
}

// The (lane, address_lane) of `check`'s counterexample in `prove --json` of `path`.
static std::pair<Json, Json> json_lanes(const std::string& path, const std::string& check) {
  const RunResult run = run_mmacheck({"prove", path, "--json"});
  CHECK(run.status == 1);
  const Json report = parse_json(run.out, "out");
  for (const Json& cx : report["counterexamples"])
    if (cx["check"] == check) return {cx["lane"], cx["address_lane"]};
  return {nullptr, nullptr};
}

TEST_CASE("the JSON names the receiving lane as lane and the row's lane as address_lane, in both checks",
          "[shared][cli]") {
  CHECK(json_lanes(source_path("examples/smem_wrong_lane.txt"), "ldmatrix A") == std::pair<Json, Json>{0, 8});
  const ScratchDir dir;
  const std::string rows =
      dir.write("rows.txt", replace_once(example("smem_swizzle128.txt"), "A_s[lane % 16, 8 * (lane // 16)]",
                                         "A_s[lane % 16, 4 * (lane // 16)]"));
  CHECK(json_lanes(rows, "rows ldmatrix.x4 A[0]") == std::pair<Json, Json>{0, 16});
}

}  // namespace test_shared_memory
