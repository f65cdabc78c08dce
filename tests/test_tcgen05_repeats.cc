// A TIRx tcgen05 dump's K loop, whole (issue 33): which K block each
// unrolled repeat's descriptors point at is read back from the descriptors,
// never from the T.address_of under test, and the repeats must pair A's and
// B's same block, cover every block once and add into one D.  The planted
// dumps (tests/data/tirx/tcgen05_planted/, each one's first lines say what
// was edited in which recorded dump) go through the command line: the wrong
// ones exit 1 naming the repeat, the operand and the block read and needed,
// the right ones exit 0.  Negate A/B and saturate (idesc bits 13, 14, 3) are
// the program's statement: the program before lowering beside a dump
// (NAME.py) when there is one, else the idesc's bits.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/program/lexer.h"
#include "core/tcgen05/tcgen05_check.h"
#include "core/tcgen05/tcgen05_tirx.h"
#include "core/tcgen05/tirx_lowered_expr.h"
#include "tests/support.h"

namespace test_tcgen05_repeats {

using namespace mmacheck;
using mmacheck::test::read_file;
using mmacheck::test::run_mmacheck;
using mmacheck::test::source_path;

namespace {

std::string planted(const std::string& name) {
  return source_path("tests/data/tirx/tcgen05_planted/" + name + ".lowered.py");
}
std::string recorded(const std::string& name) { return source_path("tests/data/tirx/" + name + ".lowered.py"); }

Tcgen05Report check(const std::string& path) { return check_tcgen05(read_tcgen05_tirx(read_file(path), path)); }

bool has(const std::vector<std::string>& messages, const std::string& part) {
  for (const std::string& m : messages)
    if (m.find(part) != std::string::npos) return true;
  return false;
}

// The blocks each step read, A's then B's.
std::vector<int> blocks(const Tcgen05Case& c, bool a) {
  std::vector<int> out;
  for (const Tcgen05Step& s : c.k_loop->steps) out.push_back(a ? s.a_block : s.b_block);
  return out;
}

bool condition(const std::string& text, std::int64_t repeat) {
  TokenCursor in(tokenize(text, "cond"));
  LoweredNames names;
  names.loop_vars["repeat_2"] = repeat;
  return evaluate_lowered_condition(in, names);
}

}  // namespace

TEST_CASE("tcgen05 repeats: the recorded dumps' K loops prove, each block read once in order",
          "[tcgen05][tirx][repeats]") {
  struct Real {
    const char* name;
    int k_blocks;
  };
  for (const Real r : {Real{"tcgen05_f16_k_sw128", 4}, Real{"tcgen05_f16_mn_m64", 2}, Real{"tcgen05_tf32_k_sw64", 2},
                       Real{"tcgen05_tf32_mn_b32", 1}, Real{"tcgen05_neg_a", 4}, Real{"tcgen05_i8_sat_d", 2}}) {
    INFO(r.name);
    const std::string path = recorded(r.name);
    const Tcgen05Case c = read_tcgen05_tirx(read_file(path), path);
    REQUIRE(c.k_loop);
    CHECK(c.k_loop->k_blocks == r.k_blocks);
    std::vector<int> in_order;
    for (int i = 0; i < r.k_blocks; ++i) in_order.push_back(i);
    CHECK(blocks(c, true) == in_order);
    CHECK(blocks(c, false) == in_order);
    // TIRx's accumulate flag: the first repeat from zero, the rest adding.
    for (std::size_t i = 0; i < c.k_loop->steps.size(); ++i) CHECK(c.k_loop->steps[i].accumulate == (i != 0));
    REQUIRE(c.k_loop->declared_accumulate);  // every recorded dump has its program beside it
    CHECK(*c.k_loop->declared_accumulate == false);
    const Tcgen05Report rep = check_tcgen05(c);
    CHECK(rep.k_loop_result == FrameVerdict::proved);
    CHECK(rep.computation.find("D = ") == 0);
  }
}

TEST_CASE("tcgen05 repeats: the K block is the descriptor's, not the address expression's",
          "[tcgen05][tirx][repeats]") {
  SECTION("A frozen at K block 0 (issue 33: it proved)") {
    const std::string path = planted("tcgen05_a_frozen");
    const Tcgen05Case c = read_tcgen05_tirx(read_file(path), path);
    CHECK(blocks(c, true) == std::vector<int>{0, 0, 0, 0});
    CHECK(blocks(c, false) == std::vector<int>{0, 1, 2, 3});
    // B covers every block once, so it says what A needs.
    CHECK(tcgen05_needed_blocks(*c.k_loop) == std::vector<int>{0, 1, 2, 3});
    const Tcgen05Report r = check_tcgen05(c);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.k_loop_result == FrameVerdict::refuted);
    CHECK(has(r.k_loop_messages, "line 17, repeat_2=1: A reads K block 0, needs K block 1 (of 4)"));
    CHECK(has(r.k_loop_messages, "line 17, repeat_2=3: A reads K block 0, needs K block 3 (of 4)"));
    CHECK(has(r.k_loop_messages, "A's repeats read K blocks 0, 0, 0, 0 (of 4): K block 0 4 times, K block 1 never"));
    CHECK_FALSE(has(r.k_loop_messages, ": B reads"));
    // The element check reads the needed block too: A at repeat 1 is read at block 0's start.
    REQUIRE(r.operands.size() == 8);
    CHECK(r.operands[2].name == "A (line 17, repeat_2=1, K block 1)");
    CHECK(r.operands[2].result == FrameVerdict::refuted);
    CHECK(r.operands[2].fixes.at(0).fields == std::vector<std::string>{"start"});
    CHECK(r.operands[2].fixes.at(0).descriptor.start == 0x20);
    CHECK(r.operands[3].result == FrameVerdict::proved);
  }
  SECTION("B reversed alone") {
    const Tcgen05Report r = check(planted("tcgen05_b_reversed"));
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(
        has(r.k_loop_messages, "line 17, repeat_2=0: B reads K block 3, needs K block 0 (of 4) (the K block A reads"));
    CHECK(has(r.k_loop_messages, "line 17, repeat_2=2: B reads K block 1, needs K block 2 (of 4)"));
    CHECK_FALSE(has(r.k_loop_messages, ": A reads"));
  }
  SECTION("A and B both reversed: the same sum in another order proves") {
    const std::string path = planted("tcgen05_ab_reversed");
    const Tcgen05Case c = read_tcgen05_tirx(read_file(path), path);
    CHECK(blocks(c, true) == std::vector<int>{3, 2, 1, 0});
    CHECK(blocks(c, false) == std::vector<int>{3, 2, 1, 0});
    const Tcgen05Report r = check_tcgen05(c);
    CHECK(r.result == FrameVerdict::proved);
    CHECK(has(r.k_loop_messages, "in the order 3, 2, 1, 0, a permutation"));
    // Each repeat's operands are checked against the block it pairs, element by element.
    CHECK(r.operands[0].name == "A (line 17, repeat_2=0, K block 3)");
    for (const Tcgen05OperandReport& o : r.operands) CHECK(o.result == FrameVerdict::proved);
  }
  SECTION("a skipped K block") {
    const Tcgen05Report r = check(planted("tcgen05_skipped_block"));
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(has(r.k_loop_messages, "line 17, repeat_2=2: A reads K block 3, needs K block 2 (of 4)"));
    CHECK(has(r.k_loop_messages, "A's repeats read K blocks 0, 1, 3 (of 4): K block 2 never"));
  }
  SECTION("a doubled K block") {
    const Tcgen05Report r = check(planted("tcgen05_doubled_block"));
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(has(r.k_loop_messages, "line 17, repeat_2=3: B reads K block 0, needs K block 3 (of 4)"));
    CHECK(has(r.k_loop_messages, "K block 0 twice, K block 3 never"));
  }
  SECTION("a later repeat that overwrites D") {
    const Tcgen05Report r = check(planted("tcgen05_overwrite"));
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(has(r.k_loop_messages, "line 17, repeat_2=2: enable-input-D is false: D is overwritten"));
  }
}

TEST_CASE("tcgen05 repeats: the needed blocks", "[tcgen05][repeats]") {
  const auto loop = [](const std::vector<int>& a, const std::vector<int>& b, int k) {
    Tcgen05KLoop l;
    l.k_blocks = k;
    for (std::size_t i = 0; i < a.size(); ++i) {
      Tcgen05Step s;
      s.name = "r" + std::to_string(i);
      s.a_block = a[i];
      s.b_block = b[i];
      l.steps.push_back(s);
    }
    return l;
  };
  CHECK(tcgen05_needed_blocks(loop({2, 0, 1}, {0, 0, 0}, 3)) == std::vector<int>{2, 0, 1});  // A covers
  CHECK(tcgen05_needed_blocks(loop({0, 0, 0}, {1, 2, 0}, 3)) == std::vector<int>{1, 2, 0});  // B covers
  CHECK(tcgen05_needed_blocks(loop({0, 0, 0, 0}, {1, 1, 1, 1}, 3)) == std::vector<int>{0, 1, 2, -1});
  Tcgen05Report r;
  Tcgen05Case c;
  c.k_loop = loop({0, 1, 2}, {0, 1, 2}, 3);
  check_tcgen05_k_loop(c, r);
  CHECK(r.k_loop_result == FrameVerdict::proved);
  c.k_loop->steps[1].b_block = -1;  // B's start at no block's first element
  r = {};
  check_tcgen05_k_loop(c, r);
  CHECK(r.k_loop_result == FrameVerdict::refuted);
  CHECK(has(r.k_loop_messages, "B's descriptor starts at no K block's first element"));
  c.k_loop = loop({0, 1, 2}, {0, 1, 2}, 3);
  c.k_loop->declared_accumulate = true;  // the program asks accum=True, the first repeat starts from zero
  c.k_loop->steps[0].accumulate = false;
  r = {};
  check_tcgen05_k_loop(c, r);
  CHECK(has(r.k_loop_messages, "enable-input-D is false but the program"));
}

TEST_CASE("tcgen05 repeats: negate and saturate are the program's, refuted where the idesc disagrees",
          "[tcgen05][tirx][repeats]") {
  SECTION("TIRx's neg_a=True program proves: D = (-A) * B (it was refuted with 'needs 0')") {
    const Tcgen05Report r = check(recorded("tcgen05_neg_a"));
    CHECK(r.result == FrameVerdict::proved);
    CHECK(r.idesc == 0x08402490);
    CHECK(r.instruction.find("f32 += -bf16 * bf16") != std::string::npos);
    CHECK(r.computation.find("D = (-A) * B over 4 K blocks") == 0);
    CHECK(r.computation.find("tcgen05_neg_a.py:12") != std::string::npos);
  }
  SECTION("TIRx's sat_d=True s8 program proves, saturating") {
    const Tcgen05Report r = check(recorded("tcgen05_i8_sat_d"));
    CHECK(r.result == FrameVerdict::proved);
    CHECK((r.idesc >> 3 & 1) == 1);
    CHECK(r.computation.find("saturating") != std::string::npos);
  }
  SECTION("negate A in the idesc with no program beside it: the idesc states it") {
    const Tcgen05Report r = check(planted("tcgen05_neg_a_idesc"));
    CHECK(r.result == FrameVerdict::proved);
    CHECK(r.computation.find("D = (-A) * B") == 0);
    CHECK(r.computation.find("as stated by the idesc") != std::string::npos);
  }
  SECTION("neg_a=True asked, bit 13 clear") {
    const Tcgen05Report r = check(planted("tcgen05_neg_a_bit_clear"));
    CHECK(r.result == FrameVerdict::refuted);
    REQUIRE(r.idesc_differences.size() == 1);
    CHECK(r.idesc_differences[0].message ==
          "instruction descriptor negate A (bit 13) is 0 (not negated) but the instruction needs 1 (negated)");
  }
  SECTION("bit 13 set, the program not asking neg_a") {
    const Tcgen05Report r = check(planted("tcgen05_neg_a_unasked"));
    CHECK(r.result == FrameVerdict::refuted);
    REQUIRE(r.idesc_differences.size() == 1);
    CHECK(r.idesc_differences[0].field->name == "negate A");
  }
  SECTION("sat_d=True asked, bit 3 clear") {
    const Tcgen05Report r = check(planted("tcgen05_sat_d_bit_clear"));
    CHECK(r.result == FrameVerdict::refuted);
    REQUIRE(r.idesc_differences.size() == 1);
    CHECK(r.idesc_differences[0].field->name == "saturate");
  }
}

TEST_CASE("tcgen05 repeats: through the command line, wrong ones exit 1, right ones 0", "[tcgen05][tirx][repeats]") {
  struct File {
    const char* name;
    int status;
    const char* says;
  };
  const File files[] = {
      {"tcgen05_a_frozen", 1, "line 17, repeat_2=1: A reads K block 0, needs K block 1 (of 4)"},
      {"tcgen05_b_reversed", 1, "line 17, repeat_2=0: B reads K block 3, needs K block 0 (of 4)"},
      {"tcgen05_ab_reversed", 0, "in the order 3, 2, 1, 0, a permutation"},
      {"tcgen05_skipped_block", 1, "K block 2 never"},
      {"tcgen05_doubled_block", 1, "K block 0 twice, K block 3 never"},
      {"tcgen05_overwrite", 1, "repeat_2=2: enable-input-D is false"},
      {"tcgen05_neg_a_idesc", 0, "D = (-A) * B over 4 K blocks"},
      {"tcgen05_neg_a_bit_clear", 1, "negate A (bit 13) is 0 (not negated) but the instruction needs 1"},
      {"tcgen05_neg_a_unasked", 1, "negate A (bit 13) is 1 (negated) but the instruction needs 0"},
      {"tcgen05_sat_d_bit_clear", 1, "saturate (bit 3) is 0 (not saturating) but the instruction needs 1"},
  };
  for (const File& f : files) {
    INFO(f.name);
    const auto run = run_mmacheck({"tcgen05", planted(f.name)});
    INFO(run.out << run.err);
    CHECK(run.status == f.status);
    CHECK(run.out.find(f.says) != std::string::npos);
  }
  for (const char* name : {"tcgen05_neg_a", "tcgen05_i8_sat_d"}) {
    INFO(name);
    const auto run = run_mmacheck({"tcgen05", recorded(name)});
    CHECK(run.status == 0);
    CHECK(run.out.find("K loop proved") != std::string::npos);
  }
  const auto json = run_mmacheck({"tcgen05", "--json", planted("tcgen05_a_frozen")});
  CHECK(json.status == 1);
  CHECK(json.out.find("\"k_loop\"") != std::string::npos);
}

TEST_CASE("tcgen05 repeats: the enable-input-D condition", "[tcgen05][repeats]") {
  CHECK_FALSE(condition("T.Or(repeat_2 != 0, T.bool(False))", 0));
  CHECK(condition("T.Or(repeat_2 != 0, T.bool(False))", 1));
  CHECK(condition("T.Or(repeat_2 != 0, T.bool(True))", 0));
  CHECK(condition("T.And((repeat_2 + 1) * 2 >= 4, T.Not(False))", 1));
  CHECK_FALSE(condition("(repeat_2 == 0)", 1));
  CHECK_THROWS_AS(condition("repeat_2 + 1", 0), Error);
  CHECK_THROWS_AS(condition("T.Or(x != 0, True)", 0), Error);
}

}  // namespace test_tcgen05_repeats
