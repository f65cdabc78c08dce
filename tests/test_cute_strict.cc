// Issue 21 for CuTe: the readers are strict (what they do not understand is
// a located Error, never a verdict), bounded (nesting, size) and linear; the
// checkers refute each planted class of mistake; unchecked is not success.
#include <catch2/catch.hpp>

#include <ctime>
#include <fstream>

#include "core/base/error.h"
#include "core/cute/cute_traits.h"
#include "core/cute/cute_check.h"
#include "core/cute/cute_tiled_check.h"
#include "tests/support.h"

namespace test_cute_strict {

using namespace mmacheck;

namespace {

// A complete, correct m16n8k8 f16 atom in CUTLASS's form; `body_extra` goes
// at the end of its body.
std::string atom_text(const std::string& name = "SM80_16x8x8_F16F16F16F16_TN", const std::string& extra = "",
                      const std::string& base = "") {
  return "template <>\nstruct MMA_Traits<" + name + ">" + (base.empty() ? "" : " : MMA_Traits<" + base + ">") +
         "\n{\n" +
         (base.empty() ? "  using ValTypeD = half_t;\n  using ValTypeA = half_t;\n  using ValTypeB = half_t;\n"
                         "  using ValTypeC = half_t;\n  using Shape_MNK = Shape<_16,_8,_8>;\n"
                         "  using ThrID   = Layout<_32>;\n"
                         "  using ALayout = Layout<Shape <Shape < _4,_8>,Shape < _2,_2>>,\n"
                         "                         Stride<Stride<_32,_1>,Stride<_16,_8>>>;\n"
                         "  using BLayout = Layout<Shape <Shape < _4,_8>,_2>, Stride<Stride<_16,_1>,_8>>;\n"
                         "  using CLayout = Layout<Shape <Shape < _4,_8>,Shape < _2,_2>>,\n"
                         "                         Stride<Stride<_32,_1>,Stride<_16,_8>>>;\n"
                       : "") +
         extra + "};\n";
}

struct Failure {
  int line = 0, col = 0;
  std::string message;
};

Failure header_error(const std::string& text) {
  try {
    read_cute_header(text, "h.hpp");
  } catch (const Error& e) {
    return {e.loc().line, e.loc().col, e.message()};
  }
  return {0, 0, "no error"};
}

Failure list_error(const std::string& text, const Limits& limits = Limits()) {
  try {
    read_cute_atom_list(text, "l.txt", limits);
  } catch (const Error& e) {
    return {e.loc().line, e.loc().col, e.message()};
  }
  return {0, 0, "no error"};
}

CuteAtomReport check_one(const std::string& list) { return check_cute_atom(read_cute_atom_list(list, "l.txt").at(0)); }

const CuteOperandReport& operand(const CuteAtomReport& r, Operand op) {
  return r.operands.at(static_cast<std::size_t>(op));
}

constexpr const char* kGoodA = "((4,8),(2,2)):((32,1),(16,8))";
constexpr const char* kGoodB = "((4,8),2):((16,1),8)";
constexpr const char* kGoodC = "((4,8),(2,2)):((32,1),(16,8))";

std::string f16_atom(const std::string& a, const std::string& b = kGoodB, const std::string& c = kGoodC,
                     const std::string& extra = "") {
  return "SM80_16x8x8_F16F16F16F16_TN: A = " + a + ", B = " + b + ", C = " + c + extra + "\n";
}

}  // namespace

TEST_CASE("the correct atom of the tests proves (the plants below differ from it in one place)", "[cute][strict]") {
  const std::vector<CuteAtomTraits> atoms = read_cute_header(atom_text(), "h.hpp");
  REQUIRE(atoms.size() == 1);
  CHECK(check_cute_atom(atoms[0]).result == FrameVerdict::proved);
  CHECK(check_one(f16_atom(kGoodA)).result == FrameVerdict::proved);
}

TEST_CASE("a truncated header is a located syntax error, wherever it is cut", "[cute][strict]") {
  const std::string whole =
      atom_text() + atom_text("SM80_16x8x8_F32F16F16F32_TN", "  using ValTypeD = float;\n  using ValTypeC = float;\n",
                              "SM80_16x8x8_F16F16F16F16_TN");
  const std::string text = "namespace cute {\n" + whole + "}  // namespace cute\n";
  REQUIRE(read_cute_header(text, "h.hpp").size() == 2);
  // Every cut that leaves a bracket open or a declaration unfinished: never a verdict.
  int cuts = 0;
  for (std::size_t n = 20; n < text.rfind('}'); n += 7) {  // past the last '}' the text is whole
    const Failure f = header_error(text.substr(0, n));
    INFO("cut at " << n << ": " << f.message);
    CHECK(f.line > 0);
    CHECK(f.message != "no error");
    ++cuts;
  }
  CHECK(cuts > 50);
  // The case: cut inside BLayout.
  const std::size_t at = text.find("using BLayout") + 30;
  const Failure f = header_error(text.substr(0, at));
  CHECK(f.line == 13);
  CHECK(f.message.find("expected Shape<...> or an integer, got end of input") != std::string::npos);
}

TEST_CASE("Shape_MNK and extents are read strictly: negative, zero, huge, malformed", "[cute][strict]") {
  const std::string good = atom_text();
  const auto with_shape = [&](const std::string& shape) {
    std::string t = good;
    const std::size_t at = t.find("Shape<_16,_8,_8>");
    return t.replace(at, 16, shape);
  };
  CHECK(header_error(with_shape("Shape<_16,_8,Int<-8>>")).message.find("expected an integer in Int<...>, got '-'") !=
        std::string::npos);
  CHECK(header_error(with_shape("Shape<_16,_8,Int<9223372036854775807>>")).message.find("too large") !=
        std::string::npos);
  CHECK(header_error(with_shape("Shape<_16,_8,Int<99999999999999999999>>")).message.find("does not fit") !=
        std::string::npos);
  CHECK(header_error(with_shape("Shape<_16,_8,_0>")).message.find("at least 1") != std::string::npos);
  CHECK(header_error(with_shape("Shape<_16,_8 _8>")).message.find("expected '>'") != std::string::npos);
  CHECK(header_error(with_shape("Shape<_16,_8,_8>;;")).message.find("unexpected ';'") != std::string::npos);
  // Well-formed but not the name's shape: a verdict that fails, never proved.
  const std::vector<CuteAtomTraits> atoms = read_cute_header(with_shape("Shape<_16,_8,_16>"), "h.hpp");
  CHECK(check_cute_atom(atoms.at(0)).result == FrameVerdict::ill_formed);
}

TEST_CASE("self-inheritance, an unknown base, duplicates and missing members are errors", "[cute][strict]") {
  Failure f = header_error(atom_text("SM80_16x8x8_F16F16F16F16_TN", "", "SM80_16x8x8_F16F16F16F16_TN"));
  CHECK(f.message.find("inherits from itself") != std::string::npos);
  CHECK(f.line == 2);
  f = header_error(atom_text("SM80_16x8x8_F32F16F16F32_TN", "", "SM80_16x8x8_F16F16F16F16_TN"));
  CHECK(f.message.find("which this file does not specialize before it") != std::string::npos);
  // The base after the derived atom: C++ needs it complete first.
  f = header_error(
      atom_text("SM80_16x8x8_F32F16F16F32_TN", "  using ValTypeD = float;\n", "SM80_16x8x8_F16F16F16F16_TN") +
      atom_text());
  CHECK(f.message.find("does not specialize before it") != std::string::npos);

  std::string many;
  for (int i = 0; i < 5000; ++i) many += atom_text();
  f = header_error(many);
  CHECK(f.message.find("is specialized twice (first at 2:1)") != std::string::npos);
  CHECK(f.line == 2 + 15);  // the second copy

  f = header_error(atom_text("SM80_16x8x8_F16F16F16F16_TN", "  using ALayout = Layout<_32>;\n"));
  CHECK(f.message.find("member 'ALayout' given twice") != std::string::npos);

  std::string no_b = atom_text();
  no_b.erase(no_b.find("  using BLayout"), no_b.find("  using CLayout") - no_b.find("  using BLayout"));
  f = header_error(no_b);
  CHECK(f.message.find("gives no BLayout") != std::string::npos);
  CHECK(f.line == 2);

  f = header_error(atom_text("SM80_16x8x8_F16F16F16F16_TN", "  using ElementFlt = float;\n"));
  CHECK(f.message.find("unknown member 'ElementFlt'") != std::string::npos);
  f = header_error(atom_text("SM80_16x8x8_F16F16F16F16_TN", "  static constexpr int x = 1;\n"));
  CHECK(f.message.find("unexpected 'static'") != std::string::npos);
  std::string bad_type = atom_text();
  bad_type.replace(bad_type.find("ValTypeA = half_t"), 17, "ValTypeA = halff_t");
  f = header_error(bad_type);
  CHECK(f.message.find("unknown element type 'halff_t'") != std::string::npos);
  CHECK(f.line == 5);

  // Atom lists: the same atom twice.
  f = list_error(f16_atom(kGoodA) + f16_atom(kGoodA));
  CHECK(f.message.find("listed twice (first at 1:1)") != std::string::npos);
  CHECK(f.line == 2);
  f = list_error("SM80_16x8x8_F16F16F16F16_TN: A = 1, ALayout = 1, B = 1, C = 1\n");
  CHECK(f.message.find("given twice") != std::string::npos);
}

TEST_CASE("a NUL byte or a byte of no C++ token is reported where it is", "[cute][strict]") {
  std::string text = atom_text();
  text.insert(text.find("ThrID"), 1, '\0');
  Failure f = header_error(text);
  CHECK(f.message.find("NUL") != std::string::npos);
  CHECK(f.line == 9);
  CHECK(f.col == 9);
  CHECK(list_error(std::string("X: A = 1\n// c \0 d\n", 16)).message.find("NUL") != std::string::npos);
  f = list_error("X: A = 1 @ 2\n");
  CHECK(f.message.find("unexpected byte 0x40 '@'") != std::string::npos);
  CHECK(f.col == 10);
  CHECK(list_error("X: A = \x1b[2J\n").message.find("0x1b") != std::string::npos);
}

TEST_CASE("100k nested brackets are a located error at the depth limit, not a stack overflow", "[cute][strict]") {
  const int n = 100000;
  std::string shapes;
  for (int i = 0; i < n; ++i) shapes += "Shape<";
  Failure f = header_error("using X = Layout<" + shapes + "_1>;\n");
  CHECK(f.message.find("levels of nesting, over the limit of 64 (raise it with --max-depth)") != std::string::npos);
  CHECK(f.line == 1);
  std::string parens(n, '(');
  f = list_error("X: A = " + parens + "1\n");
  CHECK(f.message.find("--max-depth") != std::string::npos);
  f = header_error(atom_text("SM80_16x8x8_F16F16F16F16_TN", "").replace(atom_text().find("Shape<_16"), 0, shapes));
  CHECK(f.message.find("--max-depth") != std::string::npos);
  // The limit is the option's: raised, 100 levels read.
  Limits deep;
  deep.set(Resource::depth, 200);
  const std::string hundred = "X: A = " + std::string(100, '(') + "1" + std::string(100, ')') + ", B = 1, C = 1\n";
  CHECK(list_error(hundred).message.find("over the limit of 64") != std::string::npos);
  CHECK(list_error(hundred, deep).message == "no error");
}

// How fast is bench's business (docs/performance.md): here a quadratic
// reader would run past ctest's timeout, and every atom must still prove.
TEST_CASE("a 100k-atom header is read and every atom checked", "[cute][strict]") {
  std::string text;
  const auto build = [&](int atoms) {
    text.clear();
    for (int i = 0; i < atoms; ++i) {
      std::string a = atom_text();
      a.replace(a.find("SM80_"), 4, "SM" + std::to_string(1000 + i));  // distinct names, each a real instruction
      text += a;
    }
  };
  const int count = test::samples(100000, 10000);
  build(count);
  const std::vector<CuteAtomTraits> atoms = read_cute_header(text, "big.hpp");
  int proved = 0;
  for (const CuteAtomTraits& a : atoms) proved += check_cute_atom(a).result == FrameVerdict::proved;
  CHECK(atoms.size() == static_cast<std::size_t>(count));
  CHECK(proved == count);  // every one enumerated and compared with the frame
}

TEST_CASE("declared ValTypes are checked against the name's instruction", "[cute][strict]") {
  std::string text = atom_text();
  text.replace(text.find("ValTypeA = half_t"), 17, "ValTypeA = cutlass::bfloat16_t");
  const CuteAtomReport r = check_cute_atom(read_cute_header(text, "h.hpp").at(0));
  CHECK(r.result == FrameVerdict::ill_formed);
  CHECK(operand(r, Operand::A).message.find("ValTypeA is cutlass::bfloat16_t (BF16), the name's A is F16") !=
        std::string::npos);
  CHECK(operand(r, Operand::B).result == FrameVerdict::proved);
  // D and C are the accumulator's.
  const CuteAtomReport d = check_one(f16_atom(kGoodA, kGoodB, kGoodC, ", ValTypeD = float"));
  CHECK(operand(d, Operand::C).result == FrameVerdict::ill_formed);
  CHECK(check_one(f16_atom(kGoodA, kGoodB, kGoodC, ", ValTypeD = half_t, ValTypeA = cute::half_t")).result ==
        FrameVerdict::proved);
}

TEST_CASE("planted layout mistakes are refuted with a counterexample", "[cute][strict]") {
  // A wrong TV stride: thread mode (32,1) -> (16,1) puts t0's quad neighbour on row 0's k=2.
  CuteAtomReport r = check_one(f16_atom("((4,8),(2,2)):((16,1),(16,8))"));
  CHECK(operand(r, Operand::A).result == FrameVerdict::refuted);
  REQUIRE(operand(r, Operand::A).counterexample);
  CHECK(operand(r, Operand::A).counterexample->thread == 1);
  // Two threads onto one element: lanes 0..3 and 4..7 share rows (m stride 0).
  r = check_one(f16_atom(kGoodA, "((4,8),2):((16,0),8)"));
  CHECK(operand(r, Operand::B).result == FrameVerdict::refuted);
  CHECK(operand(r, Operand::B).message.find("not injective") != std::string::npos);
  // A bijection onto the tile, but not PTX's frame: values 0 and 1 swapped
  // (the register order), and the thread quad read transposed.
  r = check_one(f16_atom("((4,8),(2,2)):((32,1),(8,16))"));
  CHECK(operand(r, Operand::A).result == FrameVerdict::refuted);
  CHECK(operand(r, Operand::A).message.find("a bijection onto the 16x8 tile, but not PTX's") != std::string::npos);
  r = check_one(f16_atom(kGoodA, kGoodB, "((4,8),(2,2)):((32,1),(8,16))"));
  CHECK(operand(r, Operand::C).result == FrameVerdict::refuted);
  r = check_one(f16_atom("((8,4),(2,2)):((1,32),(16,8))"));
  CHECK(operand(r, Operand::A).result == FrameVerdict::refuted);
  // An ALayout of another instruction: m16n8k16's A under the m16n8k8 name.
  r = check_one(f16_atom("((4,8),(2,2,2)):((32,1),(16,8,128))"));
  CHECK(operand(r, Operand::A).result == FrameVerdict::refuted);
  CHECK(operand(r, Operand::A).message.find("value mode has 8 values, PTX gives each lane 4") != std::string::npos);
  // A ThrID of 32 threads that is not the 32 lanes: refuted, not unchecked.
  r = check_one(f16_atom(kGoodA, kGoodB, kGoodC, ", ThrID = (2,16):(0,1)"));
  CHECK(r.result == FrameVerdict::refuted);
  CHECK(operand(r, Operand::A).message.find("thread 1 shares lane 0") != std::string::npos);
}

TEST_CASE("a partial specialization over a parameter that may change layouts is unchecked; its body is not read",
          "[cute][strict]") {
  // class T is no layout-neutral parameter (GMMA::Major and GMMA::ScaleIn are: test_cute_gmma.cc).
  const std::string text =
      "template <int N>\nusing CLayout_64xN = Layout<Shape<Shape<_4,_8,_4>,Shape<_2,_2,Int<N/8>>>>;\n" + atom_text() +
      "template <class T, GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>\n"
      "struct MMA_Traits<SM90_64x8x16_F16F16F16_SS<T, tnspA, tnspB, scaleA, scaleB>>\n{\n"
      "  using ValTypeD = half_t;\n  using ALayout = GMMA::ABLayout< 64, 16>;\n  static constexpr int x = 1;\n};\n";
  const std::vector<CuteAtomTraits> atoms = read_cute_header(text, "h.hpp");
  REQUIRE(atoms.size() == 2);
  CHECK(atoms[1].templated);
  const CuteAtomReport r = check_cute_atom(atoms[1]);
  CHECK(r.result == FrameVerdict::unchecked);
  CHECK(operand(r, Operand::A).message.find("templated atom") != std::string::npos);
}

TEST_CASE("a TiledMMA past the limits is the limit's error; planted tiling mistakes are refuted", "[cute][strict]") {
  const std::string atom =
      "SM80_16x8x16_F32F16F16F32_TN: A = ((4,8),(2,2,2)):((32,1),(16,8,128)), "
      "B = ((4,8),(2,2)):((16,1),(8,64)), C = ((4,8),(2,2)):((32,1),(16,8))\n";
  const std::vector<CuteAtomTraits> huge =
      read_cute_atom_list(atom +
                              "tiled SM80_16x8x16_F32F16F16F32_TN: AtomLayout = (2,2,1), "
                              "Permutation = (1048576, _, _)\n",
                          "l.txt");
  try {
    check_cute_tiled(huge.at(1));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.message().find("over the limit") != std::string::npos);
    CHECK(e.loc().line == 2);
  }
  // Two warps on the same C rows: warp M stride 0 in the tiled C layout.
  const std::vector<CuteAtomTraits> dup = read_cute_atom_list(
      "tiled SM80_16x8x16_F32F16F16F32_TN:\n"
      "    ThrLayoutVMNK = (32,2,1,1):(1,32,0,0),\n"
      "    Tile = (32,8,16),\n"
      "    A = ((4,8,2),((2,2,2),(1,1))):((64,1,16),((32,8,256),(0,0))),\n"
      "    B = ((4,8,2),((2,2),(1,1))):((16,1,0),((8,64),(0,0))),\n"
      "    C = ((4,8,2),((2,2),(1,1))):((64,1,0),((32,8),(0,0)))\n",
      "l.txt");
  const CuteAtomReport r = check_cute_tiled(dup.at(0));
  CHECK(r.result == FrameVerdict::refuted);
  CHECK(operand(r, Operand::C).result == FrameVerdict::refuted);
  // The same with warp M stride 16 proves (the plant is that one stride).
  const std::vector<CuteAtomTraits> good = read_cute_atom_list(
      "tiled SM80_16x8x16_F32F16F16F32_TN:\n"
      "    ThrLayoutVMNK = (32,2,1,1):(1,32,0,0),\n"
      "    Tile = (32,8,16),\n"
      "    A = ((4,8,2),((2,2,2),(1,1))):((64,1,16),((32,8,256),(0,0))),\n"
      "    B = ((4,8,2),((2,2),(1,1))):((16,1,0),((8,64),(0,0))),\n"
      "    C = ((4,8,2),((2,2),(1,1))):((64,1,16),((32,8),(0,0)))\n",
      "l.txt");
  CHECK(check_cute_tiled(good.at(0)).result == FrameVerdict::proved);
}

TEST_CASE("cute exits 1 on unchecked unless --allow-unchecked; the summary says why", "[cli][cute][strict]") {
  const std::string path = "cute_strict_typo.txt";
  {
    std::ofstream out(path);
    out << "SM80_16x8x8_F16F16F16F16_TM: A = " << kGoodA << ", B = " << kGoodB << ", C = " << kGoodC << "\n";
  }
  const test::RunResult strict = test::run_mmacheck({"cute", path});
  const test::RunResult allowed = test::run_mmacheck({"cute", path, "--allow-unchecked"});
  const test::RunResult json = test::run_mmacheck({"cute", path, "--json"});
  std::remove(path.c_str());
  CHECK(strict.status == 1);
  CHECK(strict.out.find("1 atoms: 0 proved, 0 refuted, 0 ill_formed, 1 unchecked") != std::string::npos);
  CHECK(strict.out.find("1 unchecked (exit 1: unchecked is not success; --allow-unchecked accepts it):\n"
                        "  1 x no mma.sync instruction: layout TM") != std::string::npos);
  CHECK(allowed.status == 0);
  CHECK(json.status == 1);
  CHECK(json.out.find("\"unchecked\":[{\"reason\":\"no mma.sync instruction: layout TM: mma.sync of this kind is "
                      ".row.col (TN) only\",\"count\":1}]") != std::string::npos);
  // The flag is in the help of the verb the alias names.
  CHECK(test::run_mmacheck({"cute", "--help"}).out.find("'mmacheck prove --help'") != std::string::npos);
  CHECK(test::run_mmacheck({"prove", "--help"}).out.find("--allow-unchecked") != std::string::npos);
}

TEST_CASE("cute: a truncated header and a deep one exit 2 with FILE:LINE:COL", "[cli][cute][strict]") {
  const std::string path = "cute_strict_cut.hpp";
  {
    std::ofstream out(path);
    const std::string t = atom_text();
    out << t.substr(0, t.find("using BLayout") + 30);
  }
  const test::RunResult cut = test::run_mmacheck({"cute", path});
  {
    std::ofstream out(path);
    out << "template <> struct MMA_Traits<X> { using ALayout = " << std::string(100000, '(') << "\n";
  }
  const test::RunResult deep = test::run_mmacheck({"cute", path});
  const test::RunResult raised = test::run_mmacheck({"cute", path, "--max-depth", "100"});
  std::remove(path.c_str());
  CHECK(cut.status == 2);
  CHECK(cut.err.find("cute_strict_cut.hpp:12:") != std::string::npos);
  CHECK(cut.out.empty());
  CHECK(deep.status == 2);
  CHECK(deep.err.find("cute_strict_cut.hpp:1:") != std::string::npos);
  CHECK(deep.err.find("over the limit of 64") != std::string::npos);
  CHECK(raised.err.find("over the limit of 100") != std::string::npos);
}

TEST_CASE("layout --by-lane --lane outside the warp is bad input, exit 2", "[cli][strict]") {
  const std::string expr = "S[(8, 4) : (4 @ laneid, 1 @ laneid)]";
  for (const char* lane : {"-1", "32", "100"}) {
    const test::RunResult r = test::run_mmacheck({"layout", expr, "--shape", "8,4", "--by-lane", "--lane", lane});
    INFO(lane << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find("is not a lane of the warp (0 to 31)") != std::string::npos);
    CHECK(r.out.empty());
  }
  const test::RunResult ok = test::run_mmacheck({"layout", expr, "--shape", "8,4", "--by-lane", "--lane", "3"});
  CHECK(ok.status == 0);
}

}  // namespace test_cute_strict
