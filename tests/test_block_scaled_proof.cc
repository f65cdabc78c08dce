// Proving where a program places sm_120 block-scaled mma's scale factors
// (core/scales/scale_check.h, `mmacheck scales`): the examples prove, each
// planted mistake (wrong thread-id, wrong byte-id, A and B swapped) is
// refuted at the lane and byte it gets wrong, and bad input is a located
// error.
#include <catch2/catch.hpp>

#include <string>

#include "core/base/error.h"
#include "core/scales/scale_reader.h"
#include "tests/support.h"

namespace test_block_scaled_proof {

using namespace mmacheck;

namespace {

std::vector<ScaleCase> read_example(const std::string& name) {
  const std::string path = test::source_path("examples/scales/" + name);
  return read_scale_file(test::read_file(path), path);
}

ScaleReport check(const ScaleCase& c, Operand op) {
  const std::optional<ScalePlacement>& p = op == Operand::A ? c.a : c.b;
  REQUIRE(p.has_value());
  return check_scales(*c.inst, *p);
}

const std::string kInstr =
    "instr mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0\n";

// The Error `text` raises, as "LINE:COL: message".
std::string error_of(const std::string& text) {
  try {
    read_scale_file(text, "s.txt");
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.message();
  }
  return "no error";
}

}  // namespace

TEST_CASE("the scale-placement examples prove", "[block_scaled][scales]") {
  for (const char* name : {"mxf4nvf4_4x.txt", "mxf8f6f4_1x.txt"}) {
    INFO(name);
    const std::vector<ScaleCase> cases = read_example(name);
    REQUIRE(cases.size() == 1);
    for (const Operand op : {Operand::A, Operand::B}) {
      const ScaleReport r = check(cases[0], op);
      INFO(r.message);
      CHECK(r.result == FrameVerdict::proved);
      CHECK(r.message.find("is read exactly once") != std::string::npos);
    }
  }
}

TEST_CASE("a wrong thread-id is refuted at the lane it reads", "[block_scaled][scales]") {
  const ScaleCase c = read_example("wrong_thread.txt")[0];
  const ScaleReport r = check(c, Operand::A);
  CHECK(r.result == FrameVerdict::refuted);
  REQUIRE(r.witness);
  CHECK(r.witness->lane == 2);  // thread-id-a 1: lanes 2 and 3 of each quad
  CHECK(r.witness->byte == 0);
  CHECK(r.witness->want == ScaleRead{0, 0});
  CHECK(r.witness->index == 16);
  CHECK(r.message ==
        "scale-a-data (byte-id-a 0, thread-id-a 1): lane 2, byte 0: the instruction reads A's scale factor for row 0, "
        "K-block 0 there; the program put row 16, K-block 0 (not a scale factor of A)");
  CHECK(check(c, Operand::B).result == FrameVerdict::proved);
}

TEST_CASE("a wrong byte-id is refuted at the byte it reads", "[block_scaled][scales]") {
  const ScaleCase c = read_example("wrong_byte.txt")[0];
  const ScaleReport r = check(c, Operand::A);
  CHECK(r.result == FrameVerdict::refuted);
  REQUIRE(r.witness);
  CHECK(r.witness->lane == 0);
  CHECK(r.witness->byte == 2);  // byte-id 2: bytes 2 and 3 are K-blocks 0 and 1
  CHECK(r.witness->want == ScaleRead{0, 0});
  CHECK(r.witness->block == 2);
  CHECK(r.message.find("lane 0, byte 2: the instruction reads A's scale factor for row 0, K-block 0 there; the "
                       "program put row 0, K-block 2 (not a scale factor of A)") != std::string::npos);
}

TEST_CASE("A's and B's scale words swapped are refuted", "[block_scaled][scales]") {
  const ScaleCase c = read_example("swapped.txt")[0];
  const ScaleReport r = check(c, Operand::A);
  CHECK(r.result == FrameVerdict::refuted);
  REQUIRE(r.witness);
  CHECK(r.witness->lane == 1);  // lane 1 holds row 8; B's placement gives it column 0
  CHECK(r.witness->want == ScaleRead{8, 0});
  CHECK(r.witness->index == 0);
}

TEST_CASE("every selector of every block-scaled instruction proves its own placement", "[block_scaled][scales]") {
  // The placement a program derives from the frame's formulas, per selector:
  // proved for the selector it was written for, refuted for every other.
  int proved = 0, refuted = 0;
  for (const MmaInst& inst : block_scale_instructions()) {
    if (inst.kind == "mxf8f6f4" && inst.a != inst.b) continue;  // the same frames for every type pair
    for (const int byte_id : valid_byte_ids(inst.scale_vec))
      for (int tid = 0; tid < 2; ++tid) {
        // Rows only in lanes 4g + 2 tid + {0, 1}: elsewhere an impossible row.
        const std::string text = "instr " + inst.ptx() + "\nselect a byte=" + std::to_string(byte_id) +
                                 " thread=" + std::to_string(tid) +
                                 "\nplace a row=lane // 4 + 8 * (lane % 2) + 100 * " + "(((lane // 2) % 2) - " +
                                 std::to_string(tid) + "), block=byte - " + std::to_string(byte_id) + "\n";
        const ScaleCase c = read_scale_file(text, "gen.txt")[0];
        const ScaleReport r = check_scales(inst, *c.a);
        INFO(r.message);
        CHECK(r.result == FrameVerdict::proved);
        proved += r.result == FrameVerdict::proved;
        // The same words read with the other thread-id.
        ScalePlacement other = *c.a;
        other.sel.thread_id = 1 - tid;
        refuted += check_scales(inst, other).result == FrameVerdict::refuted;
      }
  }
  CHECK(proved == refuted);
  CHECK(proved > 0);
}

TEST_CASE("bad scale-placement files are located errors", "[block_scaled][scales]") {
  CHECK(error_of("") == "1:0: no 'instr' line");
  CHECK(error_of("instr mma.sync.aligned.bogus\n") == "1:7: unknown instruction 'mma.sync.aligned.bogus'");
  CHECK(error_of("instr mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n") ==
        "1:7: 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is not block-scaled (it takes no scale factors)");
  CHECK(error_of("place a row=lane, block=byte\n") == "1:1: 'place' before any 'instr' line");
  CHECK(error_of(kInstr + "select a byte=0 thread=2\n") == "2:10: thread-id-a 2 is not 0..1");
  CHECK(error_of(kInstr + "select b byte=1 thread=0\n") == "2:10: byte-id-b 1 is not valid for scale_vec::2X (0, 2)");
  CHECK(error_of(kInstr + "place c row=lane, block=byte\n") == "2:7: expected 'a' or 'b', got 'c'");
  CHECK(error_of(kInstr + "place b row=lane, block=byte\n") == "2:9: expected 'col=' for operand B, got 'row'");
  CHECK(error_of(kInstr + "place a row=warp, block=byte\n").rfind("2:13: ", 0) == 0);
  CHECK(error_of(kInstr + "place a row=lane, block=byte\nplace a row=lane, block=byte\n") ==
        "3:1: a second 'place' for operand A");
  CHECK(error_of(kInstr + "frobnicate\n") == "2:1: unknown statement 'frobnicate' (expected instr, select or place)");
  // A division by zero at some lane is the expression's own error, at its operator.
  const std::vector<ScaleCase> c = read_scale_file(kInstr + "place a row=lane // (lane % 4), block=byte\n", "z.txt");
  CHECK_THROWS_AS(check_scales(*c[0].inst, *c[0].a), Error);
}

TEST_CASE("mmacheck scales exits by the verdicts", "[block_scaled][scales][cli]") {
  const test::RunResult ok = test::run_mmacheck({"scales", test::source_path("examples/scales/mxf4nvf4_4x.txt")});
  CHECK(ok.status == 0);
  CHECK(ok.out.find("2 operands: 2 proved, 0 refuted, 0 unchecked") != std::string::npos);
  const test::RunResult bad = test::run_mmacheck({"scales", test::source_path("examples/scales/wrong_thread.txt")});
  CHECK(bad.status == 1);
  CHECK(bad.out.find("refuted    A  scale-a-data (byte-id-a 0, thread-id-a 1): lane 2, byte 0") != std::string::npos);
  const std::string missing = test::source_path("tests/data/scales_missing_b.txt");
  const test::RunResult half = test::run_mmacheck({"scales", missing});
  CHECK(half.status == 1);  // B has no place line: unchecked is not success
  CHECK(half.out.find("unchecked  B  no 'place b' line") != std::string::npos);
  CHECK(test::run_mmacheck({"scales", missing, "--allow-unchecked"}).status == 0);
  const test::RunResult error = test::run_mmacheck({"scales", test::source_path("tests/data/scales_bad_selector.txt")});
  CHECK(error.status == 2);
  CHECK(error.err.find("scales_bad_selector.txt:3:10: error: thread-id-b 4 is not 0..3") != std::string::npos);
}

}  // namespace test_block_scaled_proof
