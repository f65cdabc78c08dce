// TiledMMAs as warp tilings (core/cute/cute_tiled_check.h): the CuTe DSL's
// tiled TV layouts (tests/data/cute/dsl_tiled.txt) proved, with atom layouts
// and M, N, K permutations; a size-32 "permutation" that is none refuted;
// planted mistakes refuted; K split over warps unchecked.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/cute/cute_atom_name.h"
#include "core/cute/cute_traits.h"
#include "core/cute/cute_tiled_check.h"
#include "tests/support.h"

namespace test_cute_tiled {

using namespace mmacheck;

namespace {
const char* kTiled =
    "tiled SM80_16x8x16_F32F16F16F32_TN: ThrLayoutVMNK = VMNK, Tile = (32,16,16),\n"
    "  A = ((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0))),\n"
    "  B = ((4,8,2,2),((2,2),(1,1))):((32,1,0,8),((16,128),(0,0))),\n"
    "  C = ((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))\n";

CuteAtomReport check(std::string text, const std::string& from = "", const std::string& to = "") {
  if (!from.empty()) text.replace(text.find(from), from.size(), to);
  const std::vector<CuteAtomTraits> atoms = read_cute_atom_list(text, "t.txt");
  REQUIRE(atoms.size() == 1);
  REQUIRE(atoms[0].tiled);
  return check_cute_tiled(atoms[0]);
}

std::string with_vmnk(const std::string& vmnk) {
  std::string text = kTiled;
  text.replace(text.find("VMNK,"), 4, vmnk);
  return text;
}
}  // namespace

TEST_CASE("the CuTe DSL's TiledMMAs prove as warp tilings; a non-permutation is refuted", "[cute]") {
  const std::string path = test::source_path("tests/data/cute/dsl_tiled.txt");
  const std::vector<CuteAtomTraits> atoms = read_cute_atom_list(test::read_file(path), path);
  std::vector<const CuteAtomTraits*> printed, notation;
  for (const CuteAtomTraits& a : atoms)
    if (a.tiled) (a.atom_layout ? notation : printed).push_back(&a);
  REQUIRE(printed.size() == 7);
  REQUIRE(notation.size() == 7);
  for (std::size_t i = 0; i < printed.size(); ++i) {
    INFO("TiledMMA #" << i);
    const CuteAtomReport from_print = check_cute_tiled(*printed[i]);
    const CuteAtomReport from_notation = check_cute_tiled(*notation[i]);
    const FrameVerdict want = i + 1 < printed.size() ? FrameVerdict::proved : FrameVerdict::refuted;
    CHECK(from_print.result == want);
    CHECK(from_notation.result == want);
    if (want != FrameVerdict::proved) continue;
    // Built from (atom, atom layout, permutation), the tables are the DSL's, point for point.
    const CuteAtomName inst = *decode_atom_name(printed[i]->name);
    TiledTables a, b;
    REQUIRE(tiled_tables(*printed[i], inst, a).empty());
    REQUIRE(tiled_tables(*notation[i], inst, b).empty());
    CHECK(a.tile == b.tile);
    CHECK(a.thread_of == b.thread_of);
    for (std::size_t op = 0; op < 3; ++op) {
      CHECK(a.ops[op].rest0 == b.ops[op].rest0);
      CHECK(a.ops[op].rest1 == b.ops[op].rest1);
      CHECK(a.ops[op].table == b.ops[op].table);
    }
  }
  const CuteAtomReport bad = check_cute_tiled(*printed.back());
  CHECK(bad.operands[2].result == FrameVerdict::refuted);
  REQUIRE(bad.operands[2].counterexample);
  CHECK_FALSE(bad.operands[2].counterexample->in_tile);
}

TEST_CASE("a TiledMMA in CuTe notation needs its atom, and its tile whole atoms", "[cute]") {
  const std::string atom =
      "SM80_16x8x8_F16F16F16F16_TN: A = ((4,8),(2,2)):((32,1),(16,8)), B = ((4,8),2):((16,1),8),"
      " C = ((4,8),(2,2)):((32,1),(16,8))\n";
  CHECK_THROWS_AS(read_cute_atom_list("tiled SM80_16x8x8_F16F16F16F16_TN: AtomLayout = (2,2,1)\n", "t"), Error);
  const std::vector<CuteAtomTraits> ok = read_cute_atom_list(
      atom + "tiled SM80_16x8x8_F16F16F16F16_TN: AtomLayout = (2,1,1), Permutation = (_, 16, _)\n", "t");
  CHECK(check_cute_tiled(ok[1]).result == FrameVerdict::proved);
  const std::vector<CuteAtomTraits> ragged = read_cute_atom_list(
      atom + "tiled SM80_16x8x8_F16F16F16F16_TN: AtomLayout = (2,1,1), Permutation = (48, _, _)\n", "t");
  const CuteAtomReport r = check_cute_tiled(ragged[1]);
  CHECK(r.result == FrameVerdict::ill_formed);
  CHECK(r.operands[0].message.find("not whole atoms x warps") != std::string::npos);
}

TEST_CASE("a planted mistake in a TiledMMA is refuted, K over warps is unchecked", "[cute]") {
  const std::string good = with_vmnk("(32,2,2,1):(1,32,64,0)");
  CHECK(check(good).result == FrameVerdict::proved);
  // B following warp m instead of warp n: warp (0,1)'s B columns are not its
  // C columns; the disagreement shows at C (B's columns are read first).
  const CuteAtomReport b = check(good, "(32,1,0,8)", "(32,1,8,0)");
  CHECK(b.operands[0].result == FrameVerdict::proved);
  CHECK(b.operands[2].result == FrameVerdict::refuted);
  CHECK(b.operands[2].message.find("warp (0,1) rep (0,0,0): thread 64 value 0 holds (m=0, n=8)") != std::string::npos);
  CHECK(b.result == FrameVerdict::refuted);
  // C's rows 8 apart swapped with its columns: disagrees with A's rows.
  const CuteAtomReport c = check(good, "((32,8),(0,0))", "((8,32),(0,0))");
  CHECK(c.operands[2].result == FrameVerdict::refuted);
  REQUIRE(c.operands[2].counterexample);
  CHECK(c.operands[2].message.find("the instance's other values put") != std::string::npos);
  // Two warps along K.
  CHECK(check(with_vmnk("(32,2,1,2):(1,32,0,64)"), "(32,16,16)", "(32,16,32)").result == FrameVerdict::unchecked);
  // Not a bijection onto the threads.
  CHECK(check(with_vmnk("(32,2,2,1):(1,32,32,0)")).result == FrameVerdict::ill_formed);
}

TEST_CASE("a TiledMMA table whose stride has fewer modes than its shape is ill-formed, not a crash", "[cute]") {
  // Found by fuzz_cute: the table's value mode was taken before congruence
  // was checked, and the missing stride mode threw std::out_of_range.
  const std::string text =
      "tiled SM80_16x8x16_F32F16F16F32_TN:\n"
      "    ThrLayoutVMNK = (32,2,2,1):(1,32,64,0),\n"
      "    Tile = (32,16,16),\n"
      "    A = ((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0)),\n"
      "    B = ((4,8,2,2),((2,2),(1,1))):((32,1,0,8),((16,128),(0,0))),\n"
      "    C = ((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))\n";
  std::vector<CuteAtomTraits> atoms;
  try {
    atoms = read_cute_atom_list(text, "t.txt");
  } catch (const Error&) {
    SUCCEED("the reader refuses it with a location");
    return;
  }
  REQUIRE(atoms.size() == 1);
  const CuteAtomReport r = check_cute_tiled(atoms[0], Limits{});
  CHECK(r.result != FrameVerdict::proved);
}

}  // namespace test_cute_tiled
