// Released-TIRx kernels that stage A and B through shared memory with TVM's
// ldmatrix pattern (tests/data/tirx/ldmatrix/, written for apache-tvm-tirx
// 0.1.0a4 and run through it by scripts/tirx-oracle/gen.py: oracle.jsonl and
// the dumps).  mmacheck reaches TVM's decision (its refusals in its words),
// proves the ok_* kernels and refutes the planted bad_* ones at the statement,
// program and dump alike, and sim agrees with prove on every file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "core/base/json.h"
#include "core/gemm/dispatch.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "sim/check/sim_check.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_tirx_ldmatrix {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const std::string kDir = "tests/data/tirx/ldmatrix";

std::vector<Json> oracle(const std::string& dir = kDir) {
  std::istringstream in(read_file(source_path(dir + "/oracle.jsonl")));
  std::vector<Json> out;
  std::string line;
  for (bool first = true; std::getline(in, line); first = false)
    if (!first && !line.empty()) out.push_back(parse_json(line, "oracle.jsonl"));
  return out;
}

std::string text_of(const std::string& file, const std::string& dir = kDir) {
  return read_file(source_path(dir + "/" + file));
}

// A command's decision: an error (exit 2), dispatch_failed, or whether the
// gemm holds (prove: proved; sim: every element of 16 cases right).
std::string prove_decision(const std::string& text) {
  try {
    const ProofReport r = prove(program_from(text), ProveOptions{});
    return r.verdict == Verdict::dispatch_failed ? "dispatch_failed" : r.verdict == Verdict::proved ? "holds" : "fails";
  } catch (const Error&) {
    return "error";
  }
}

std::string sim_decision(const std::string& text) {
  try {
    const Program p = program_from(text);
    const Plan plan = dispatch(p);
    if (!plan.ok) return "dispatch_failed";
    sim::SimCheck check(p, plan.nest, sim::arch_params("sm_90"));
    std::size_t wrong = 0;
    for (int i = 0; i < 16; ++i) wrong += check.failures(check.random_case(i, 7)).size();
    return wrong == 0 ? "holds" : "fails";
  } catch (const Error&) {
    return "error";
  }
}

// Every counterexample's check and message, one a line.
std::string refutations(const std::string& file, const std::string& dir = kDir) {
  const ProofReport r = prove(program_from(text_of(file, dir)), ProveOptions{});
  std::string all;
  for (const Counterexample& c : r.counterexamples) all += c.check.name() + ": " + c.message + "\n";
  return all;
}

std::string error_of(const std::string& text, const std::string& name = "k.py") {
  try {
    (void)parse_program(text, name);
  } catch (const Error& e) {
    return e.loc().str() + ": " + e.what();
  }
  return "";
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("ldmatrix kernels: TVM's decision, ok_* proved, bad_* refuted, program and dump alike, sim agreeing",
          "[tirx][ldmatrix][prove][sim]") {
  int accepted = 0, refused = 0, proved = 0, refuted = 0;
  for (const Json& e : oracle()) {
    const std::string name = e["name"];
    INFO(name);
    const Program program = load_program(source_path(kDir + "/" + name + ".py"));
    const Plan plan = dispatch(program);
    REQUIRE(plan.ok == e["accepted"].get<bool>());
    if (!plan.ok) {
      ++refused;
      // TVM's message, less the analyzer's ": cannot prove <expr>" (mmacheck names the word and lane instead).
      std::string tvm = e["message"];
      if (const std::size_t cut = tvm.find(": cannot prove"); cut != std::string::npos) tvm.resize(cut);
      REQUIRE(plan.reasons.size() == 1);
      CHECK_THAT(plan.reasons[0], Catch::StartsWith("declined — " + tvm));
      CHECK(sim_decision(text_of(name + ".py")) == "dispatch_failed");
      // mod.script()'s print of it, the same.
      const Plan printed = dispatch(load_program(source_path(kDir + "/" + name + ".script.py")));
      CHECK(printed.reasons == plan.reasons);
      continue;
    }
    ++accepted;
    CHECK(plan.nest.mma_count() == e["mma_count"].get<int>());
    for (const std::string& file : {name + ".py", name + ".script.py", name + ".lowered.py"}) {
      INFO(file);
      const std::string text = text_of(file);
      const std::string p = prove_decision(text);
      // ldmatrix.x4 into B's two registers writes past them: a located error, in prove and sim alike.
      const std::string want = name.starts_with("ok_") ? "holds" : name == "bad_x4_for_x2" ? "error" : "fails";
      CHECK(p == want);
      CHECK(sim_decision(text) == p);
      proved += p == "holds";
      refuted += p == "fails";
    }
  }
  CHECK(accepted == 14);
  CHECK(refused == 7);
  CHECK(proved == 12);   // 4 kernels, their prints and dumps
  CHECK(refuted == 27);  // 9 planted mistakes, their prints and dumps
}

TEST_CASE("ldmatrix kernels: each planted mistake is refuted at the statement that makes it",
          "[tirx][ldmatrix][prove]") {
  for (const std::string suffix : {".py", ".script.py", ".lowered.py"}) {
    INFO(suffix);
    // The copy stores A transposed: the ldmatrix delivers A[1][0] where A's image places a[0][1].
    CHECK_THAT(refutations("bad_copy_transposed" + suffix),
               Catch::Contains("ldmatrix a: lane 0, slot 1: ldmatrix.x4 a[0]") && Catch::Contains("delivers A[1][0]"));
    // Matrices 1 and 2 exchanged in A's shared view: lane 8's row address is the K half's.
    CHECK_THAT(refutations("bad_row_address" + suffix),
               Catch::Contains("the row lane 8 addresses, A_s[0][8]) delivers A[0][8]"));
    CHECK_THAT(refutations("bad_missing_trans" + suffix),
               Catch::Contains("ldmatrix b: lane 0, slot 1: ldmatrix.x2 b[0]") && Catch::Contains("delivers B[1][0]"));
    CHECK_THAT(refutations("bad_x2_for_x4" + suffix),
               Catch::Contains("ldmatrix a: lane 0, slot 4: no statement delivers nothing"));
    CHECK_THAT(refutations("bad_b_from_a" + suffix), Catch::Contains("its products pair A with itself"));
    CHECK_THAT(refutations("bad_ldmatrix_before_copy" + suffix),
               Catch::Contains("fill A_s = A (line ") && Catch::Contains("runs after ldmatrix.x4 a[0]"));
    CHECK_THAT(refutations("bad_no_sync" + suffix),
               Catch::Contains("no barrier after it) runs after ldmatrix.x4 a[0]"));
    // Two threads write A_s's row 0 different elements of A: it holds nothing known.
    CHECK_THAT(refutations("bad_race" + suffix),
               Catch::Contains("ldmatrix a: lane 0, slot 0: ldmatrix.x4 a[0]") && Catch::Contains("delivers nothing"));
    // Two K tiles, the second ldmatrix of A reading the first tile again: A's words 4.. hold K tile 0.
    CHECK_THAT(refutations("bad_k_tile_twice" + suffix),
               Catch::Contains("ldmatrix a: lane 0, slot 8: ldmatrix.x4 a[8]") && Catch::Contains("delivers A[0][0]"));
  }
  // A view of four registers over B's two: the x4 writes past B's registers, an error at the apply.
  try {
    (void)prove(load_program(source_path(kDir + "/bad_x4_for_x2.py")), ProveOptions{});
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.loc().line == 40);
    CHECK_THAT(e.what(), Catch::Contains("ldmatrix.x4 b[0] moves slots 0..7 but 'b' has 4 per lane"));
  }
}

TEST_CASE("a dump's T.ptx.ldmatrix and copy loops read as the program's apply and copies", "[tirx][ldmatrix]") {
  for (const std::string name : {"ok_ldmatrix", "ok_ldmatrix_trans", "bad_row_address", "bad_race"}) {
    INFO(name);
    const Program source = load_program(source_path(kDir + "/" + name + ".py"));
    const Program lowered = load_program(source_path(kDir + "/" + name + ".lowered.py"));
    const Program printed = load_program(source_path(kDir + "/" + name + ".script.py"));
    REQUIRE(printed.copies.size() == 2);
    CHECK(printed.copies[0].lane_elements == source.copies[0].lane_elements);
    CHECK(printed.release->matrix_copies.size() == 2);
    REQUIRE(source.copies.size() == 2);
    REQUIRE(lowered.copies.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      CHECK(lowered.copies[i].label() == source.copies[i].label());
      CHECK(lowered.copies[i].shared == source.copies[i].shared);
      CHECK(lowered.copies[i].lane_elements == source.copies[i].lane_elements);
    }
    REQUIRE(lowered.fills.size() == 2);
    REQUIRE(source.fills.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) CHECK(lowered.fills[i].sources == source.fills[i].sources);
    CHECK(source.release->matrix_copies.size() == 2);
    CHECK(lowered.release->matrix_copies.empty());  // a dump is not re-checked
  }
  // A's x4: lane l's row address is A_s[l % 16][8 (l / 16)]: rows 8 (i % 2).., k 8 (i / 2)...
  const Program ok = load_program(source_path(kDir + "/ok_ldmatrix.py"));
  for (int lane = 0; lane < 32; ++lane)
    CHECK(ok.copies[0].lane_elements[lane] == std::pair<std::int64_t, std::int64_t>{lane % 16, 8 * (lane / 16)});
  CHECK(ok.copies[0].label() == "ldmatrix.x4 a[0]");
  CHECK(ok.copies[1].label() == "ldmatrix.x2 b[0]");
  CHECK(load_program(source_path(kDir + "/ok_ldmatrix_trans.py")).copies[1].label() == "ldmatrix.x2.trans b[0]");
}

TEST_CASE("ldmatrix kernels mmacheck does not read are located errors naming what", "[tirx][ldmatrix]") {
  const std::string ok = text_of("ok_ldmatrix.py");
  const auto error = [&](const std::string& from, const std::string& to) {
    return error_of(replace_once(ok, from, to));
  };
  CHECK_THAT(
      error("\"ldmatrix.sync.aligned.m8n8.x4.shared.b16\"", "\"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8\""),
      Catch::Contains("k.py:") && Catch::Contains("mmacheck reads ldmatrix.sync.aligned.m8n8.{x1,x2,x4}"));
  CHECK_THAT(error("= A[2 * i + lane // 16, lane % 16]", "= D[2 * i + lane // 16, lane % 8]"),
             Catch::Contains("the copy into 'A_s' (float16) reads 'D' (float32)"));
  CHECK_THAT(error("= A[2 * i + lane // 16, lane % 16]", "= A[2 * i + lane // 16 + 1, lane % 16]"),
             Catch::Contains("thread 16, i = 7 reads A[16][0], outside its (16, 16)"));
  CHECK_THAT(error("A_s[2 * i + lane // 16, lane % 16] =", "A_s[2 * i + lane // 16, lane % 16 + 16] ="),
             Catch::Contains("writes A_s[0][16], outside its (16, 16)"));
  CHECK_THAT(error("= A[2 * i", "= a_ld[2 * i"), Catch::Contains("'a_ld' is not a tensor parameter"));
  CHECK_THAT(error("A_s = T.alloc_shared((16, 16), \"float16\")", "A_s = T.alloc_shared((16, 16), \"float16\", 16)"),
             Catch::Contains("mmacheck reads row-major shared tensors"));
  // Two warps each running the one-warp kernel (copies by lane, the same addresses): D computed twice, the
  // same values stored twice, as the staging loops' path reads it (every warp's tile replicated).
  CHECK(prove_decision(replace_once(ok, "block=[32]", "block=[64]")) == "holds");
  CHECK_THAT(error("B_ROWS = TileLayout(S[(2, 8, 4) : (4, 8, 1)])", "B_ROWS = TileLayout(S[(8, 4) : (8, 1)])"),
             Catch::Contains("'B_w': its layout has 32 elements but its shape (2, 8, 4) has 64"));
  // A second copy into A_s after its barrier, and a barrier inside a loop.
  CHECK_THAT(error("        T.cuda.cta_sync()\n",
                   "        T.cuda.cta_sync()\n        for i in T.serial(8):\n"
                   "            A_s[2 * i + lane // 16, lane % 16] = A[2 * i + lane // 16, lane % 16]\n"),
             Catch::Contains("a second copy into 'A_s'"));
  CHECK_THAT(error("        T.cuda.cta_sync()\n", "        for j in T.serial(1):\n            T.cuda.cta_sync()\n"),
             Catch::Contains("a barrier sits in the device entry, outside any loop"));
  const std::string dump = text_of("ok_ldmatrix.lowered.py");
  CHECK_THAT(error_of(replace_once(dump, "\"x4\", \"\"", "\"x2\", \"\"")),
             Catch::Contains("passes 2 registers, got 4"));
  CHECK_THAT(error_of(replace_once(dump, "tile_dst[0], tile_dst[1], tile_dst[2], tile_dst[3]",
                                   "tile_dst[0], tile_dst[2], tile_dst[1], tile_dst[3]")),
             Catch::Contains("mmacheck reads an ldmatrix into consecutive words of its image"));
}

TEST_CASE("ldmatrix in blocks of several warps, each from its own region: TVM's decision, proved and refuted alike",
          "[tirx][ldmatrix][prove][sim]") {
  // tests/data/tirx/ldmatrix_warps (scripts/tirx-oracle/ldmatrix_warps.py, then gen.py): each warp runs the
  // pattern on its slice of the shared tensor, `A_w[warp:warp + 1, :, :, :]`.
  const std::string dir = "tests/data/tirx/ldmatrix_warps";
  int accepted = 0, refused = 0, proved = 0, refuted = 0;
  for (const Json& e : oracle(dir)) {
    const std::string name = e["name"];
    INFO(name);
    const Program program = load_program(source_path(dir + "/" + name + ".py"));
    const Plan plan = dispatch(program);
    REQUIRE(plan.ok == e["accepted"].get<bool>());
    if (!plan.ok) {
      ++refused;
      std::string tvm = e["message"];
      if (const std::size_t cut = tvm.find(": cannot prove"); cut != std::string::npos) tvm.resize(cut);
      REQUIRE(plan.reasons.size() == 1);
      CHECK_THAT(plan.reasons[0], Catch::StartsWith("declined — " + tvm));
      CHECK(sim_decision(text_of(name + ".py", dir)) == "dispatch_failed");
      CHECK(dispatch(load_program(source_path(dir + "/" + name + ".script.py"))).reasons == plan.reasons);
      continue;
    }
    ++accepted;
    CHECK(plan.nest.mma_count() == e["mma_count"].get<int>());
    for (const std::string& file : {name + ".py", name + ".script.py", name + ".lowered.py"}) {
      INFO(file);
      const std::string text = text_of(file, dir);
      const std::string p = prove_decision(text);
      CHECK(p == (name.starts_with("ok_") ? "holds" : "fails"));
      CHECK(sim_decision(text) == p);
      proved += p == "holds";
      refuted += p == "fails";
    }
  }
  CHECK(accepted == 9);
  CHECK(refused == 1);
  CHECK(proved == 9);    // 3 kernels, their prints and dumps
  CHECK(refuted == 18);  // 6 planted mistakes, their prints and dumps
  // The CTA's gemm is checked, every warp's registers: a planted mistake in warp 1 is named there.
  CHECK_THAT(refutations("bad_region_fixed.py", dir), Catch::Contains("warp 1"));
  // A region whose extent differs by warp, an ldmatrix in a repeat loop of two iterations: located errors.
  CHECK_THAT(error_of(replace_once(text_of("ok_m_split.py", dir), "A_w[warp:warp + 1,", "A_w[warp:2 * warp + 1,")),
             Catch::Contains("the region's extent is 1 in warp 0 but 2 in warp 1"));
  CHECK_THAT(error_of(replace_once(text_of("ok_m_split.lowered.py", dir),
                                   "for repeat_0 in T.unroll(0, 1):", "for repeat_0 in T.unroll(0, 2):")),
             Catch::Contains("(or in loops of one iteration)"));
  // __syncwarp orders one warp: in a block of several it is a located error, not a barrier.
  CHECK_THAT(error_of(replace_once(text_of("ok_m_split.py", dir), "T.cuda.cta_sync()", "T.cuda.warp_sync()")),
             Catch::Contains("T.cuda.warp_sync() orders one warp"));
}

}  // namespace test_tirx_ldmatrix
