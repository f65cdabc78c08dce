// The CuTe DSL's print output read as printed (core/cute/cute_dsl_print.h):
// tests/data/cute/dsl_print.txt is what nvidia-cutlass-dsl 4.8.1 prints for
// its warp MMA ops, atoms and TiledMMAs (scripts/cute-oracle/dsl_print.py).
// Every atom and TiledMMA is read, named as CUTLASS names its atom, and
// proved — but the one TiledMMA whose N "permutation" is none, refuted as
// from the CuTe notation; the layouts equal the atom list made from the same
// DSL (dsl_atoms.txt, dsl_tiled.txt).  Planted mistakes are refuted or
// ill-formed; what the reader does not understand is a located error.
#include <catch2/catch.hpp>

#include <regex>

#include "core/base/error.h"
#include "core/cute/cute_check.h"
#include "core/cute/cute_dsl_print.h"
#include "core/cute/cute_tiled_check.h"
#include "tests/support.h"

namespace test_cute_dsl_print {

using namespace mmacheck;

namespace {

std::string corpus() { return test::read_file(test::source_path("tests/data/cute/dsl_print.txt")); }

CuteAtomReport check(const CuteAtomTraits& a) { return a.tiled ? check_cute_tiled(a) : check_cute_atom(a); }

// The corpus with its first `from` replaced by `to`.
std::string planted(const std::string& from, const std::string& to) {
  std::string text = corpus();
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
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

TEST_CASE("every atom and TiledMMA the CuTe DSL prints is read and proved", "[cute][dsl]") {
  const std::string text = corpus();
  REQUIRE(is_cute_dsl_print(text));
  const std::vector<CuteAtomTraits> atoms = read_cute_file(text, "dsl_print.txt");
  // The generator's comment before each print names the atom (CUTLASS's name for it).
  std::vector<std::string> named;
  const std::regex comment(R"(# (?:make_tiled_mma\()?(SM\d+_\w+?_TN))");
  for (std::sregex_iterator it(text.begin(), text.end(), comment), end; it != end; ++it) named.push_back((*it)[1]);
  REQUIRE(atoms.size() == 17);
  REQUIRE(named.size() == atoms.size());
  int plain = 0, tiled = 0, proved = 0;
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    CAPTURE(i, atoms[i].name);
    CHECK(atoms[i].name == named[i]);
    const CuteAtomReport r = check(atoms[i]);
    (atoms[i].tiled ? tiled : plain)++;
    const bool not_a_permutation =
        atoms[i].tiled && atoms[i].permutation[1] && atoms[i].permutation[1]->str() == "(8,4):(1,16)";
    if (not_a_permutation) {
      CHECK(r.result == FrameVerdict::refuted);
      CHECK_THAT(r.operands[2].message, Catch::Contains("outside the tile"));
    } else {
      INFO(r.operands[0].message << " | " << r.operands[1].message << " | " << r.operands[2].message);
      CHECK(r.result == FrameVerdict::proved);
      proved += r.result == FrameVerdict::proved;
    }
  }
  CHECK(plain == 10);
  CHECK(tiled == 7);
  CHECK(proved == 16);

  // The same layouts as the atom list made from the same DSL.
  const std::string list_path = test::source_path("tests/data/cute/dsl_atoms.txt");
  for (const CuteAtomTraits& listed : read_cute_atom_list(test::read_file(list_path), list_path)) {
    const auto it = std::find_if(atoms.begin(), atoms.end(),
                                 [&](const CuteAtomTraits& a) { return !a.tiled && a.name == listed.name; });
    REQUIRE(it != atoms.end());
    CHECK(it->a.layout->str() == listed.a.layout->str());
    CHECK(it->b.layout->str() == listed.b.layout->str());
    CHECK(it->c.layout->str() == listed.c.layout->str());
    CHECK(it->shape_mnk->str() == listed.shape_mnk->str());
  }
  // Each TiledMMA's atom layout and permutation, read off its print, are the
  // CuTe notation dsl_tiled.txt gives for it.
  const std::string tiled_path = test::source_path("tests/data/cute/dsl_tiled.txt");
  std::vector<const CuteAtomTraits*> printed_tiled;
  for (const CuteAtomTraits& a : atoms)
    if (a.tiled) printed_tiled.push_back(&a);
  std::size_t n = 0;
  const std::vector<CuteAtomTraits> listed = read_cute_atom_list(test::read_file(tiled_path), tiled_path);
  for (const CuteAtomTraits& l : listed) {
    if (!l.tiled || !l.atom_layout) continue;
    REQUIRE(n < printed_tiled.size());
    const CuteAtomTraits& p = *printed_tiled[n++];
    CHECK(p.name == l.name);
    // The same map (a unit mode's stride is free: 0 in the print, compact in the notation).
    CHECK(p.atom_layout->shape == l.atom_layout->shape);
    CHECK(p.atom_layout->indices() == l.atom_layout->indices());
    for (std::size_t m = 0; m < 3; ++m)
      CHECK((p.permutation[m] ? p.permutation[m]->str() : "_") == (l.permutation[m] ? l.permutation[m]->str() : "_"));
  }
  CHECK(n == printed_tiled.size());
}

TEST_CASE("planted mistakes in the DSL's print are refuted or ill-formed", "[cute][dsl]") {
  const auto first = [](const std::string& text) {
    const std::vector<CuteAtomTraits> atoms = read_cute_file(text, "p.txt");
    REQUIRE(!atoms.empty());
    return check(atoms.front());
  };
  // B's value stride 8 -> 4 in the first atom (m16n8k8 f16): two values on one element.
  const CuteAtomReport b = first(planted("TV Layout B: ((4,8),2):((16,1),8)", "TV Layout B: ((4,8),2):((16,1),4)"));
  CHECK(b.result == FrameVerdict::refuted);
  CHECK(b.operands[1].result == FrameVerdict::refuted);
  // Lanes swapped in C's thread mode.
  CHECK(first(planted("TV Layout C: ((4,8),(2,2)):((32,1),(16,8))", "TV Layout C: ((4,8),(2,2)):((1,4),(16,8))"))
            .result == FrameVerdict::refuted);
  // The atom's Shape MNK disagrees with its op's instruction shape.
  const CuteAtomReport shape = first(planted("Shape MNK:   (16,8,8)", "Shape MNK:   (16,8,16)"));
  CHECK(shape.result == FrameVerdict::ill_formed);
  // An op of tf32 in front of the f16 atom: the frames differ, A is refuted.
  const CuteAtomReport tf32 = first(planted("A/B data type         = Float16", "A/B data type         = TFloat32"));
  CHECK(tf32.result != FrameVerdict::proved);
  // A planted permutation that is none in a TiledMMA.
  std::vector<CuteAtomTraits> t =
      read_cute_file(planted("Permutation MNK: (_,_,_)", "Permutation MNK: (_,(8,4):(1,16),_)"), "p.txt");
  const auto tiled = std::find_if(t.begin(), t.end(), [](const CuteAtomTraits& a) { return a.tiled; });
  REQUIRE(tiled != t.end());
  CHECK(check(*tiled).result == FrameVerdict::refuted);
}

TEST_CASE("the DSL print reader is strict: located errors", "[cute][dsl]") {
  const std::string atom =
      "MMA Atom\n  ThrID:       32:1\n  Shape MNK:   (16,8,8)\n"
      "  TV Layout A: ((4,8),(2,2)):((32,1),(16,8))\n  TV Layout B: ((4,8),2):((16,1),8)\n"
      "  TV Layout C: ((4,8),(2,2)):((32,1),(16,8))\n";
  const std::string op =
      "warp-level F16/BF16 MMA Operation\n  A/B data type         = Float16\n"
      "  Accumulator data type = Float32\n  Instruction shape MNK = (16, 8, 8)\n";
  CHECK(read_cute_file(op + atom, "ok.txt").front().name == "SM80_16x8x8_F32F16F16F32_TN");
  CHECK_THAT(error_of(atom), Catch::StartsWith("p.txt:1:1: ") && Catch::Contains("no op printed before it"));
  CHECK_THAT(error_of(op + atom + "garbage\n"),
             Catch::StartsWith("p.txt:11:1: ") && Catch::Contains("unexpected line"));
  std::string bad_key = op + atom;
  bad_key.replace(bad_key.find("ThrID"), 5, "ThrIX");
  CHECK_THAT(error_of(bad_key), Catch::StartsWith("p.txt:6:3: ") && Catch::Contains("unknown key 'ThrIX'"));
  std::string bad_type = op;
  bad_type.replace(bad_type.find("Float32"), 7, "Float33");
  CHECK_THAT(error_of(bad_type + atom), Catch::StartsWith("p.txt:3:27: ") && Catch::Contains("unknown element type"));
  std::string bad_layout = op + atom;
  bad_layout.replace(bad_layout.find("(16,8))\n  TV Layout B"), 7, "(16,8)]");
  CHECK_THAT(error_of(bad_layout), Catch::StartsWith("p.txt:8:"));
  std::string missing = op + atom;
  missing.erase(missing.find("  TV Layout C"));
  CHECK_THAT(error_of(missing), Catch::Contains("gives no 'TV Layout C'"));
  CHECK_THAT(error_of("warp-level INT8 MMA Operation\n  A/B data type = Int8\n"), Catch::Contains("unknown op"));
  CHECK_THAT(error_of(op + "Tiled MMA\n  Thr Layout VMNK: (32,2,2,1):(1,32,64,0)\n  Permutation MNK: (_,_,_)\n"),
             Catch::Contains("followed by its 'MMA Atom' block"));
  CHECK_THAT(error_of(op + "Tiled MMA\n  Thr Layout VMNK: (32,2,2,1):(1,16,64,0)\n  Permutation MNK: (_,_,_)\n" + atom),
             Catch::Contains("no whole number of the atom's 32 threads"));
  // The issue's atom list form: Shape_MNK as CuTe prints it is read.
  CHECK(read_cute_atom_list("SM80_16x8x8_F32F16F16F32_TN: A = ((4,8),(2,2)):((32,1),(16,8)), "
                            "B = ((4,8),2):((16,1),8), C = ((4,8),(2,2)):((32,1),(16,8)), Shape_MNK = (16,8,8)",
                            "l.txt")
            .front()
            .shape_mnk->flatten() == std::vector<std::int64_t>{16, 8, 8});
}

}  // namespace test_cute_dsl_print
