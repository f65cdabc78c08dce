// CuTe atoms against the PTX frames (core/cute/cute_check.h): CUTLASS's
// two shipped bugs refuted before their fixes and proved after, the CuTe
// DSL's own atoms proved, planted mistakes refuted, and every other verdict.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/cute/cute_traits.h"
#include "core/cute/cute_check.h"
#include "tests/support.h"

namespace test_cute_check {

using namespace mmacheck;

namespace {
std::vector<CuteAtomReport> check_file(const std::string& rel) {
  const std::string path = test::source_path(rel);
  std::vector<CuteAtomReport> out;
  for (const CuteAtomTraits& atom : read_cute_file(test::read_file(path), path)) out.push_back(check_cute_atom(atom));
  return out;
}

std::vector<CuteAtomReport> check_text(const std::string& text) {
  std::vector<CuteAtomReport> out;
  for (const CuteAtomTraits& atom : read_cute_atom_list(text, "t.txt")) out.push_back(check_cute_atom(atom));
  return out;
}

const CuteOperandReport& operand(const CuteAtomReport& r, Operand op) {
  return r.operands.at(static_cast<std::size_t>(op));
}
}  // namespace

TEST_CASE("PR #3140: the int4 m16n8k32 BLayout with stride 32 is refuted, with 64 proved", "[cute]") {
  const std::vector<CuteAtomReport> before = check_file("tests/data/cute/pr3140_before.txt");
  REQUIRE(before.size() == 1);
  CHECK(before[0].instruction == "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32");
  CHECK(before[0].result == FrameVerdict::refuted);
  CHECK(operand(before[0], Operand::A).result == FrameVerdict::proved);
  CHECK(operand(before[0], Operand::C).result == FrameVerdict::proved);
  const CuteOperandReport& b = operand(before[0], Operand::B);
  CHECK(b.result == FrameVerdict::refuted);
  REQUIRE(b.counterexample);
  // Thread 1 (t0 = 1): index 32 = n 0 + 8 * k 4; PTX: row 8 t + i = 8, col g = 0.
  CHECK(b.counterexample->thread == 1);
  CHECK(b.counterexample->value == 0);
  CHECK(b.counterexample->coordinate == std::array<std::int64_t, 2>{0, 4});
  CHECK(b.counterexample->ptx == std::array<std::int64_t, 2>{0, 8});
  CHECK(describe(*b.counterexample) == "thread 1 value 0 holds (n=0, k=4), PTX puts (n=0, k=8) there");
  CHECK(b.message.find("not injective: 160 of 256 elements reached") != std::string::npos);

  const std::vector<CuteAtomReport> after = check_file("tests/data/cute/pr3140_after.txt");
  REQUIRE(after.size() == 1);
  CHECK(after[0].result == FrameVerdict::proved);
  for (const CuteOperandReport& o : after[0].operands) CHECK_FALSE(o.counterexample);
}

TEST_CASE("PR #1856: the binary m16n8k256 layouts are refuted before and proved after", "[cute]") {
  const std::vector<CuteAtomReport> before = check_file("tests/data/cute/pr1856_before.txt");
  REQUIRE(before.size() == 1);
  CHECK(before[0].instruction == "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc");
  const CuteOperandReport& a = operand(before[0], Operand::A);
  const CuteOperandReport& b = operand(before[0], Operand::B);
  CHECK(a.result == FrameVerdict::refuted);
  CHECK(a.message.find("not injective") != std::string::npos);
  CHECK(b.result == FrameVerdict::refuted);
  CHECK(b.message.find("a bijection onto the 8x256 tile, but not PTX's") != std::string::npos);
  REQUIRE(b.counterexample);
  CHECK(operand(before[0], Operand::C).result == FrameVerdict::proved);

  const std::vector<CuteAtomReport> after = check_file("tests/data/cute/pr1856_after.txt");
  REQUIRE(after.size() == 1);
  CHECK(after[0].result == FrameVerdict::proved);
}

TEST_CASE("every atom the CuTe DSL builds proves (tests/data/cute/dsl_atoms.txt)", "[cute]") {
  const std::vector<CuteAtomReport> reports = check_file("tests/data/cute/dsl_atoms.txt");
  REQUIRE(reports.size() >= 10);
  for (const CuteAtomReport& r : reports) {
    INFO(r.atom);
    CHECK(r.instruction.has_value());
    CHECK(r.result == FrameVerdict::proved);
  }
}

TEST_CASE("a planted swap of two strides is refuted at the first differing thread", "[cute]") {
  // m16n8k16 A with the value strides 16 and 8 swapped: rows and K exchange roles.
  const std::vector<CuteAtomReport> r = check_text(
      "SM80_16x8x16_F32F16F16F32_TN: A = ((4,8),(2,2,2)):((32,1),(8,16,128)),"
      " B = ((4,8),(2,2)):((16,1),(8,64)), C = ((4,8),(2,2)):((32,1),(16,8))\n");
  REQUIRE(r.size() == 1);
  const CuteOperandReport& a = operand(r[0], Operand::A);
  CHECK(a.result == FrameVerdict::refuted);
  REQUIRE(a.counterexample);
  CHECK(a.counterexample->thread == 0);
  CHECK(a.counterexample->value == 1);
  CHECK(a.counterexample->coordinate == std::array<std::int64_t, 2>{8, 0});
  CHECK(a.counterexample->ptx == std::array<std::int64_t, 2>{0, 1});
  CHECK(a.message.find("a bijection onto the 16x16 tile, but not PTX's") != std::string::npos);
  CHECK(operand(r[0], Operand::B).result == FrameVerdict::proved);
}

TEST_CASE("wrong sizes, indices outside the tile and ThrID are reported", "[cute]") {
  std::vector<CuteAtomReport> r = check_text(
      "SM80_16x8x8_F32F16F16F32_TN: A = ((4,8),(2,2)):((32,1),(16,8)), B = ((4,8),(2,2)):((16,1),(8,64)),"
      " C = ((4,8),(2,2)):((32,1),(16,9))\n"
      "SM80_16x8x8_F16F16F16F16_TN: ThrID = (4,8):(8,1), A = ((4,8),(2,2)):((32,1),(16,8)),"
      " B = ((4,8),2):((16,1),8), C = ((4,8),(2,2)):((32,1),(16,8))\n");
  r.push_back(check_text("SM80_16x8x8_F16F16F16F16_TN: ThrID = (4,4):(1,4), A = 1, B = 1, C = 1\n").at(0));
  REQUIRE(r.size() == 3);
  const CuteOperandReport& b = operand(r[0], Operand::B);
  CHECK(b.result == FrameVerdict::refuted);
  CHECK(b.message.find("value mode has 4 values, PTX gives each lane 2") != std::string::npos);
  const CuteOperandReport& c = operand(r[0], Operand::C);
  CHECK(c.result == FrameVerdict::refuted);
  CHECK(c.message.find("outside the 16x8 tile") != std::string::npos);
  // A ThrID that permutes the lanes: thread t is lane ThrID(t), so the same
  // layouts now put thread 1's values in lane 8.
  CHECK(r[1].result == FrameVerdict::refuted);
  REQUIRE(operand(r[1], Operand::A).counterexample);
  CHECK(operand(r[1], Operand::A).counterexample->lane == 8);
  CHECK(r[2].result == FrameVerdict::unchecked);
  CHECK(operand(r[2], Operand::A).message.find("has 16 threads") != std::string::npos);
  // Too large to enumerate: the sizes alone refute it, at once.
  const std::vector<CuteAtomReport> big = check_text(
      "SM80_16x8x8_F16F16F16F16_TN: A = ((100000,100000),(2,2)):((1,1),(1,1)), B = ((4,8),2):((16,1),8),"
      " C = ((4,8),(2,2)):((32,1),(16,8))\n");
  CHECK(operand(big[0], Operand::A).result == FrameVerdict::refuted);
  CHECK(operand(big[0], Operand::A).message.find("10000000000 threads") != std::string::npos);
}

// CUTLASS 3.0 to 3.3 spelled the members ElementDVal..ElementCVal and
// ElementAFrg..ElementCFrg (3.4 renamed them ValTypeD.., FrgTypeA..): a
// header in the old spelling reads as the new one does.
std::string old_spelling(std::string text) {
  const std::pair<std::string, std::string> renames[] = {{"ValTypeD", "ElementDVal"}, {"ValTypeA", "ElementAVal"},
                                                         {"ValTypeB", "ElementBVal"}, {"ValTypeC", "ElementCVal"},
                                                         {"FrgTypeA", "ElementAFrg"}, {"FrgTypeB", "ElementBFrg"},
                                                         {"FrgTypeC", "ElementCFrg"}};
  for (const auto& [now, then] : renames)
    for (std::size_t at = text.find(now); at != std::string::npos; at = text.find(now, at + then.size()))
      text.replace(at, now.size(), then);
  return text;
}

TEST_CASE("trait headers of CUTLASS 3.0-3.3 (ElementDVal, ElementAFrg) read as 3.4's", "[cute]") {
  for (const char* rel : {"tests/data/cute/mma_traits_mini.hpp", "tests/data/cute/gmma_traits_mini.hpp",
                          "tests/data/cute/gmma_traits_planted.hpp"}) {
    INFO(rel);
    const std::string path = test::source_path(rel);
    const std::string now = test::read_file(path), then = old_spelling(now);
    REQUIRE(then != now);
    REQUIRE(then.find("ElementDVal") != std::string::npos);
    const std::vector<CuteAtomTraits> a = read_cute_file(now, path), b = read_cute_file(then, path);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      const CuteAtomReport ra = check_cute_atom(a[i]), rb = check_cute_atom(b[i]);
      CHECK(ra.atom == rb.atom);
      CHECK(ra.result == rb.result);
      CHECK(ra.instruction == rb.instruction);
      for (std::size_t k = 0; k < 4; ++k) {
        REQUIRE(a[i].val_types[k].has_value() == b[i].val_types[k].has_value());
        if (a[i].val_types[k]) CHECK(a[i].val_types[k]->token == b[i].val_types[k]->token);
      }
      CHECK(a[i].frg_types.size() == b[i].frg_types.size());
    }
  }
  // One member in both spellings is given twice.
  CHECK_THROWS_WITH(read_cute_file("template <> struct MMA_Traits<SM80_16x8x8_F16F16F16F16_TN> {\n"
                                   "  using ValTypeD = half_t;\n  using ElementDVal = half_t;\n};\n",
                                   "t.hpp"),
                    Catch::Contains("t.hpp:3:") && Catch::Contains("'ElementDVal' given twice") &&
                        Catch::Contains("(as ValTypeD)"));
}

TEST_CASE("the mini header: congruence, unknown instructions, inheritance", "[cute]") {
  const std::vector<CuteAtomReport> r = check_file("tests/data/cute/mma_traits_mini.hpp");
  REQUIRE(r.size() == 7);
  CHECK(r[0].result == FrameVerdict::proved);
  CHECK(r[1].result == FrameVerdict::proved);
  CHECK(r[2].result == FrameVerdict::refuted);  // stride 32
  CHECK(r[3].result == FrameVerdict::refuted);  // inherits it
  CHECK(r[3].instruction == "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.u4.s32");
  CHECK(r[4].result == FrameVerdict::proved);  // alias of the included header
  CHECK(r[5].result == FrameVerdict::ill_formed);
  const CuteOperandReport& a = operand(r[5], Operand::A);
  CHECK(a.result == FrameVerdict::ill_formed);
  CHECK(a.message.find("not congruent") != std::string::npos);
  CHECK(a.message.find("read with its strides in order it would prove") != std::string::npos);
  CHECK(operand(r[5], Operand::B).result == FrameVerdict::proved);
  CHECK(operand(r[5], Operand::C).result == FrameVerdict::proved);
  CHECK(r[6].result == FrameVerdict::unchecked);
  CHECK_FALSE(r[6].instruction);
}

TEST_CASE("an operand whose frame is not in the table is unchecked, the others still judged", "[cute]") {
  // m16n8k32 with f64 elements exists in no table.
  const std::vector<CuteAtomReport> r =
      check_text("SM80_16x8x32_F64F64F64F64_TN: A = 1, B = 1, C = ((4,8),(2,2)):((32,1),(16,8))\n");
  REQUIRE(r.size() == 1);
  CHECK(operand(r[0], Operand::A).result == FrameVerdict::unchecked);
  CHECK(operand(r[0], Operand::A).message.find("no PTX frame for m16n8k32 A with 64-bit") != std::string::npos);
  CHECK(operand(r[0], Operand::C).result == FrameVerdict::unchecked);
  CHECK(r[0].result == FrameVerdict::unchecked);
}

TEST_CASE("Shape_MNK must be the shape the name gives", "[cute]") {
  const std::vector<CuteAtomReport> r = check_text(
      "SM80_16x8x8_F16F16F16F16_TN: Shape_MNK = Shape<_16,_8,_16>, A = ((4,8),(2,2)):((32,1),(16,8)),"
      " B = ((4,8),2):((16,1),8), C = ((4,8),(2,2)):((32,1),(16,8))\n");
  REQUIRE(r.size() == 1);
  CHECK(r[0].result == FrameVerdict::ill_formed);
  CHECK(operand(r[0], Operand::A).message.find("Shape_MNK (16,8,16)") != std::string::npos);
}

}  // namespace test_cute_check

namespace test_cute_check {

// scripts/cute-oracle/cutlass_releases.sh ran `mmacheck prove` on the trait
// headers of every CUTLASS release since 3.0 (read from a CUTLASS clone, not
// kept); tests/data/cute/cutlass_releases.tsv records what it answered.  Every
// header must have been read (exit 0 or 1, never an error), and every atom
// that did not prove must be one of what is known of these releases: the
// layouts CUTLASS fixed (3.2.1's SM75 16x8x8, PR #1856's b1 16x8x256, PR
// #3140's int4 16x8x32), the b1 16x8x128 layouts CuTe itself cannot build
// (shape and stride not congruent), and what the trait alone cannot decide
// (dp4a, Volta's quad-pair mma, wgmma's operands through descriptors).
TEST_CASE("every CUTLASS release since 3.0: its own trait headers read, refutations only where CUTLASS had a bug",
          "[cute][oracle]") {
  const std::string text = test::read_file(test::source_path("tests/data/cute/cutlass_releases.tsv"));
  std::map<std::string, std::set<std::string>> headers;  // release -> headers read
  std::map<std::string, std::set<std::string>> refuted;  // atom -> releases
  std::size_t lines = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::istringstream cells(line);
    for (std::string c; std::getline(cells, c, '\t');) f.push_back(c);
    REQUIRE(f.size() >= 4);
    INFO(line);
    ++lines;
    if (f[2] == "0" || f[2] == "1") {  // a header: read, with its verdicts
      headers[f[0]].insert(f[1]);
      continue;
    }
    CHECK(f[2].rfind("SM", 0) == 0);  // an atom that did not prove (an unread header has "error" here)
    const std::string& atom = f[2];
    const std::string& verdict = f[3];
    if (verdict == "refuted") {
      refuted[atom].insert(f[0]);
      const bool known = atom == "SM75_16x8x8_F32F16F16F32_TN" || atom == "SM80_16x8x256_S32U1U1S32_TN_XORPOPC" ||
                         (atom.rfind("SM80_16x8x32_S32", 0) == 0 && atom.find('4') != std::string::npos);
      CHECK(known);
    } else if (verdict == "ill_formed") {
      CHECK(atom.rfind("SM80_16x8x128_S32U1U1S32_TN_", 0) == 0);
      CHECK_THAT(line, Catch::Contains("not congruent"));
    } else {
      REQUIRE(verdict == "unchecked");
      CHECK((atom.rfind("SM61_DP", 0) == 0 || atom.rfind("SM70_8x8x4_", 0) == 0 ||
             (atom.rfind("SM90_64x", 0) == 0 && line.find("through a descriptor") != std::string::npos)));
    }
  }
  CHECK(lines > 1000);
  CHECK(headers.size() >= 40);  // v3.0.0 .. v4.4.1
  for (const auto& [release, read] : headers) {
    INFO(release);
    for (const char* h : {"sm61", "sm70", "sm75", "sm80", "sm90", "sm90_gmma"}) CHECK(read.count(h) == 1);
  }
  // The fixes, by release: 3.2.1 fixed SM75's 16x8x8, 3.6.0 the b1 16x8x256
  // (PR #1856); PR #3140 (int4 16x8x32) came after 4.4.1.
  CHECK(refuted["SM75_16x8x8_F32F16F16F32_TN"] == std::set<std::string>{"v3.0.0", "v3.1.0", "v3.2.0"});
  CHECK(refuted["SM80_16x8x256_S32U1U1S32_TN_XORPOPC"].size() == 10);
  CHECK(refuted["SM80_16x8x256_S32U1U1S32_TN_XORPOPC"].count("v3.5.1") == 1);
  CHECK(refuted["SM80_16x8x256_S32U1U1S32_TN_XORPOPC"].count("v3.6.0") == 0);
  CHECK(refuted["SM80_16x8x32_S32S4S4S32_TN"].count("v4.4.1") == 1);
}

}  // namespace test_cute_check
