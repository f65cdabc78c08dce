// The CuTe DSL's print of its sm_90 warpgroup (wgmma) ops, atoms and
// TiledMMAs, read as printed (core/cute/cute_dsl_print.h):
// tests/data/cute/dsl_print_warpgroup.txt is what nvidia-cutlass-dsl 4.8.1
// prints (scripts/cute-oracle/dsl_print.py --warpgroup).  Every atom is named
// as CUTLASS's GMMA atom and checked against the wgmma wing's frames (C and a
// register A proved, shared-memory operands unchecked by design: docs/
// layouts-cute-triton.md); its layouts equal the atom list made from the same
// DSL (dsl_warpgroup.txt); a TiledMMA's atom is checked and its tiling
// reported unchecked.  Planted mistakes are refuted; what the reader does not
// understand is a located error.
#include <catch2/catch.hpp>

#include <map>
#include <regex>

#include "core/base/error.h"
#include "core/cute/cute_check.h"
#include "core/cute/cute_dsl_print.h"
#include "core/cute/cute_tiled_check.h"
#include "tests/support.h"

namespace test_cute_dsl_warpgroup {

using namespace mmacheck;

namespace {

std::string corpus() { return test::read_file(test::source_path("tests/data/cute/dsl_print_warpgroup.txt")); }

CuteAtomReport check(const CuteAtomTraits& a) { return a.tiled ? check_cute_tiled(a) : check_cute_atom(a); }

std::string planted(const std::string& from, const std::string& to) {
  std::string text = corpus();
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

FrameVerdict operand(const CuteAtomReport& r, Operand op) {
  for (const CuteOperandReport& o : r.operands)
    if (o.operand == op) return o.result;
  FAIL("no operand");
  return FrameVerdict::ill_formed;
}

std::string error_of(const std::string& text) {
  try {
    (void)read_cute_file(text, "p.txt");
  } catch (const Error& e) {
    return e.loc().str() + ": " + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("every warpgroup atom and TiledMMA the CuTe DSL prints is read and checked against wgmma's frames",
          "[cute][dsl][wgmma]") {
  const std::string text = corpus();
  REQUIRE(is_cute_dsl_print(text));
  const std::vector<CuteAtomTraits> atoms = read_cute_file(text, "dsl_print_warpgroup.txt");
  // The generator's comment before each print names the atom (CUTLASS's name for it).
  std::vector<std::string> named;
  const std::regex comment(R"(# (?:make_tiled_mma\()?(SM90_\w+?_(?:SS|RS)(?:_TN)?)\b)");
  for (std::sregex_iterator it(text.begin(), text.end(), comment), end; it != end; ++it) named.push_back((*it)[1]);
  REQUIRE(atoms.size() == 10);
  REQUIRE(named.size() == atoms.size());
  // The atom lists dsl_atoms.py --warpgroup wrote from the same DSL: the same layouts.
  std::map<std::string, CuteAtomTraits> listed;
  for (CuteAtomTraits& a :
       read_cute_file(test::read_file(test::source_path("tests/data/cute/dsl_warpgroup.txt")), "dsl_warpgroup.txt"))
    listed.emplace(a.name, std::move(a));
  int plain = 0, tiled = 0;
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    const CuteAtomTraits& a = atoms[i];
    CAPTURE(i, a.name);
    CHECK(a.name == named[i]);
    REQUIRE(listed.count(a.name));
    const CuteAtomTraits& l = listed.at(a.name);
    CHECK(a.a.layout->str() == l.a.layout->str());
    CHECK(a.b.layout->str() == l.b.layout->str());
    CHECK(a.c.layout->str() == l.c.layout->str());
    const CuteAtomReport r = check(a);
    REQUIRE(r.instruction);
    CHECK(r.instruction->rfind("wgmma.mma_async.sync.aligned.m64n", 0) == 0);
    // Every GMMA atom is unchecked as a whole (B sits in shared memory behind a descriptor).
    CHECK(r.result == FrameVerdict::unchecked);
    const bool rs = a.name.find("_RS") != std::string::npos;
    if (a.tiled) {
      ++tiled;
      for (const CuteOperandReport& o : r.operands) {
        CHECK(o.result == FrameVerdict::unchecked);
        CHECK(o.message.find("tiling of wgmma atoms") != std::string::npos);
      }
      CHECK(r.operands[2].message.find("the atom's layout is proved") != std::string::npos);
    } else {
      ++plain;
      CHECK(operand(r, Operand::C) == FrameVerdict::proved);
      CHECK(operand(r, Operand::A) == (rs ? FrameVerdict::proved : FrameVerdict::unchecked));
      CHECK(operand(r, Operand::B) == FrameVerdict::unchecked);
    }
  }
  CHECK(plain == 6);
  CHECK(tiled == 4);
}

TEST_CASE("planted mistakes in the DSL's warpgroup print are refuted", "[cute][dsl][wgmma]") {
  const auto nth = [](const std::string& text, std::size_t i) {
    const std::vector<CuteAtomTraits> atoms = read_cute_file(text, "p.txt");
    REQUIRE(atoms.size() > i);
    return check(atoms[i]);
  };
  // C of the RS m64n128k16 atom (the 2nd): its value strides (64,8) exchanged.
  const std::string c_from = "TV Layout C: ((4,8,4),(2,2,16)):((128,1,16),(64,8,512))";
  const std::string c_to = "TV Layout C: ((4,8,4),(2,2,16)):((128,1,16),(8,64,512))";
  const CuteAtomReport c = nth(planted(c_from, c_to), 1);
  CHECK(c.result == FrameVerdict::refuted);
  CHECK(operand(c, Operand::C) == FrameVerdict::refuted);
  // The register A of the same atom: lanes' strides exchanged.
  const CuteAtomReport a = nth(planted("TV Layout A: ((4,8,4),(2,2,2)):((128,1,16),(64,8,512))",
                                       "TV Layout A: ((4,8,4),(2,2,2)):((1,4,16),(64,8,512))"),
                               1);
  CHECK(operand(a, Operand::A) == FrameVerdict::refuted);
  // A shared-memory B whose threads do not each see the whole tile.
  const CuteAtomReport b =
      nth(planted("TV Layout B: (128,(8,16)):(0,(1,8))", "TV Layout B: (128,(8,16)):(1,(0,8))"), 0);
  CHECK(operand(b, Operand::B) == FrameVerdict::refuted);
  // In a TiledMMA's atom (the 7th entry: tiled RS m64n128k16): a refutation stands through the tiling.
  std::string text = corpus();
  const std::size_t tiled_at = text.find("Tiled MMA");
  REQUIRE(tiled_at != std::string::npos);
  // (the TiledMMA's atom block aligns its values further right: the layout alone is replaced)
  const std::string c_value = "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))";
  const std::size_t c_at = text.find(c_value, tiled_at);
  REQUIRE(c_at != std::string::npos);
  text.replace(c_at, c_value.size(), "((4,8,4),(2,2,16)):((128,1,16),(8,64,512))");
  const CuteAtomReport t = nth(text, 6);
  CHECK(t.atom == "tiled SM90_64x128x16_F32F16F16_RS");
  CHECK(t.result == FrameVerdict::refuted);
  // The op's instruction shape against the atom's Shape MNK.
  CHECK(nth(planted("Instruction shape MNK = (64, 8, 16)", "Instruction shape MNK = (64, 16, 16)"), 0).result ==
        FrameVerdict::ill_formed);
}

TEST_CASE("the DSL's warpgroup op print is read strictly: located errors", "[cute][dsl][wgmma]") {
  const std::string op =
      "warpgroup F8 MMA Operation\n"
      "  A data type           = Float8E4M3FN\n"
      "  B data type           = Float8E5M2\n"
      "  Accumulator data type = Float32\n"
      "  A source location     = OperandSource.SMEM\n"
      "  A major mode          = OperandMajorMode.K\n"
      "  B major mode          = OperandMajorMode.K\n"
      "  Instruction shape MNK = (64, 64, 32)\n";
  const std::string atom =
      "MMA Atom\n  ThrID:           128:1\n  Shape MNK:       (64,64,32)\n"
      "  TV Layout A:     (128,(64,32)):(0,(1,64))\n  TV Layout B:     (128,(64,32)):(0,(1,64))\n"
      "  TV Layout C:     ((4,8,4),(2,2,8)):((128,1,16),(64,8,512))\n";
  CHECK(read_cute_file(op + atom, "ok.txt").front().name == "SM90_64x64x32_F32E4M3E5M2_SS_TN");
  std::string mn = op;
  mn.replace(mn.find("OperandMajorMode.K\n  Instruction"), 18, "OperandMajorMode.MN");
  CHECK_THAT(error_of(mn + atom), Catch::StartsWith("p.txt:7:27: ") && Catch::Contains("only f16/bf16 wgmma"));
  std::string source = op;
  source.replace(source.find("OperandSource.SMEM"), 18, "OperandSource.TMEM");
  CHECK_THAT(error_of(source + atom), Catch::StartsWith("p.txt:5:27: ") && Catch::Contains("unknown A source"));
  std::string ab = op;
  ab.replace(ab.find("  A data type"), 13, "  A/B data type");
  CHECK_THAT(error_of(ab + atom), Catch::Contains("unknown key 'A/B data type'"));
  CHECK_THAT(error_of(op + "Tiled MMA\n  Thr Layout VMNK: (128,2,1,1):(1,64,0,0)\n  Permutation MNK: (_,_,_)\n" + atom),
             Catch::Contains("no whole number of the atom's 128 threads"));
  CHECK_THAT(error_of(op + "Tiled MMA\n  Thr Layout VMNK: (32,2,1,1):(1,32,0,0)\n  Permutation MNK: (_,_,_)\n" + atom),
             Catch::Contains("expected Thr Layout VMNK (T,M,N,K)"));
}

}  // namespace test_cute_dsl_warpgroup
