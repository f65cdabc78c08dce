// CuTe's warpgroup atoms (core/cute/cute_gmma_check.h): GMMA (sm_90 wgmma)
// atoms read from a trait header in the form of CUTLASS's
// mma_traits_sm90_gmma.hpp (tests/data/cute/gmma_traits_mini.hpp), UMMA
// (sm_100 tcgen05) atoms from an atom list, and the planted mistakes of
// gmma_traits_planted.hpp and umma_planted.txt refuted with the thread,
// value and element.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/cute/cute_check.h"
#include "core/cute/cute_gmma_name.h"
#include "core/cute/cute_traits.h"
#include "tests/support.h"

namespace test_cute_gmma {

using namespace mmacheck;

namespace {

std::vector<CuteAtomTraits> read_data(const std::string& name) {
  const std::string path = test::source_path("tests/data/cute/" + name);
  return read_cute_file(test::read_file(path), path);
}

const CuteAtomTraits& by_name(const std::vector<CuteAtomTraits>& atoms, const std::string& name) {
  for (const CuteAtomTraits& a : atoms)
    if (a.name == name) return a;
  FAIL("no atom " << name);
  throw 0;
}

const CuteOperandReport& operand(const CuteAtomReport& r, Operand op) {
  for (const CuteOperandReport& o : r.operands)
    if (o.operand == op) return o;
  FAIL("no operand");
  throw 0;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("GMMA names decode to their wgmma instruction, A's source and frame", "[cute][gmma]") {
  const std::optional<CuteAtomName> ss = decode_gmma_name("SM90_64x128x16_F32F16F16_SS");
  REQUIRE(ss);
  CHECK(ss->ptx == "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16");
  CHECK(ss->a_source == "shared memory");
  CHECK(ss->frame_shape == "m64nNk16");
  CHECK((ss->m == 64 && ss->n == 128 && ss->k == 16 && ss->a_bits == 16 && ss->c_bits == 32));
  const std::optional<CuteAtomName> s8 = decode_atom_name("SM90_64x24x32_S32S8U8_RS_TN_SATURATE");
  REQUIRE(s8);
  CHECK(s8->family == CuteMmaFamily::wgmma);
  CHECK(s8->ptx == "wgmma.mma_async.sync.aligned.m64n24k32.satfinite.s32.s8.u8");
  CHECK(s8->a_source == "registers");
  CHECK(s8->types == std::array<std::string, 4>{"S32", "S8", "U8", "S32"});
  CHECK(decode_gmma_name("SM90_64x8x8_F32TF32TF32_SS_TN")->ptx == "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32");

  std::string why;
  CHECK_FALSE(decode_gmma_name("SM90_64x40x32_S32S8S8_SS_TN", &why));  // integer N: 8, 16, 24, 32, 48, ...
  CHECK(has(why, "N = 40 is no wgmma shape"));
  CHECK_FALSE(decode_gmma_name("SM90_64x8x8_F32TF32TF32_SS", &why));
  CHECK(has(why, "ends in _TN"));
  CHECK_FALSE(decode_gmma_name("SM90_64x8x16_F16F16F16_SS_TN", &why));
  CHECK(has(why, "no _TN"));
  CHECK_FALSE(decode_gmma_name("SM90_64x8x32_F32F16F16_SS", &why));
  CHECK(has(why, "is m64nNk16"));
  CHECK_FALSE(decode_gmma_name("SM90_64x8x16_F32BF16F16_SS", &why));
  CHECK(has(why, "no wgmma combination"));
  CHECK_FALSE(decode_gmma_name("SM90_64x8x32_F32E4M3E4M3_SS_TN_SATURATE", &why));
  CHECK(has(why, "integer wgmma only"));
}

TEST_CASE("UMMA names decode to their tcgen05.mma kind and CTA group", "[cute][gmma]") {
  const std::optional<CuteAtomName> f16 = decode_umma_name("SM100_MMA_F16BF16_2x1SM_SS");
  REQUIRE(f16);
  CHECK(f16->ptx == "tcgen05.mma.cta_group::2.kind::f16");
  CHECK((f16->cta_group == 2 && f16->k == 16 && f16->a_source == "shared memory"));
  CHECK(decode_umma_name("SM100_MMA_TF32_TS")->a_source == "tensor memory");
  std::string why;
  CHECK_FALSE(decode_umma_name("SM100_MMA_MXF4_SS", &why));
  CHECK(has(why, "not in mmacheck's table"));
}

TEST_CASE("a GMMA trait header: the layout-neutral template parameters resolved, alias templates instantiated",
          "[cute][gmma]") {
  const std::vector<CuteAtomTraits> atoms = read_data("gmma_traits_mini.hpp");
  REQUIRE(atoms.size() == 8);
  const CuteAtomTraits& ss = atoms[0];
  CHECK(ss.name == "SM90_64x8x16_F16F16F16_SS");
  CHECK_FALSE(ss.templated);
  CHECK(ss.resolved == std::vector<std::string>{"GMMA::Major tnspA", "GMMA::Major tnspB", "GMMA::ScaleIn scaleA",
                                                "GMMA::ScaleIn scaleB"});
  CHECK(ss.c.written == "GMMA::CLayout_64x8");
  CHECK(ss.c.layout->str() == "((4,8,4),(2,2,1)):((128,1,16),(64,8,512))");
  CHECK(ss.a.written == "GMMA::ABLayout<64,16>");
  CHECK(ss.a.layout->str() == "(128,(64,16)):(0,(1,64))");
  REQUIRE(ss.frg_types.size() == 2);
  CHECK(ss.frg_types[0].written == "GMMA::smem_desc<tnspA>");
  CHECK(by_name(atoms, "SM90_64x64x8_F32TF32TF32_RS_TN").resolved.size() == 2);
  CHECK(by_name(atoms, "SM90_64x24x32_S32S8U8_SS_TN_SATURATE").c.layout->str() ==
        "((4,8,4),(2,2,3)):((128,1,16),(64,8,512))");
  CHECK(atoms.back().templated);  // UMMA: element types and M, N
}

TEST_CASE("every GMMA atom of the excerpt: C and RS A proved, smem operands unchecked for the descriptor",
          "[cute][gmma]") {
  int atoms = 0, rs = 0;
  for (const CuteAtomTraits& atom : read_data("gmma_traits_mini.hpp")) {
    const CuteAtomReport r = check_cute_atom(atom);
    INFO(atom.name << ": " << operand(r, Operand::A).message << " | " << operand(r, Operand::C).message);
    if (atom.templated) {
      CHECK(r.result == FrameVerdict::unchecked);
      CHECK(has(operand(r, Operand::C).message, "UMMA (tcgen05.mma) traits are templated on the element types"));
      continue;
    }
    ++atoms;
    REQUIRE(r.instruction);
    CHECK(r.instruction->rfind("wgmma.mma_async.sync.aligned.m64n", 0) == 0);
    CHECK(operand(r, Operand::C).result == FrameVerdict::proved);
    CHECK(has(operand(r, Operand::C).message, "equals the wgmma frame: 128 threads x"));
    const bool registers = atom.name.find("_RS") != std::string::npos;
    rs += registers;
    CHECK(operand(r, Operand::A).result == (registers ? FrameVerdict::proved : FrameVerdict::unchecked));
    CHECK(operand(r, Operand::B).result == FrameVerdict::unchecked);
    CHECK(has(operand(r, Operand::B).message, "shared memory through a descriptor"));
    CHECK(has(operand(r, Operand::B).message, "checked: each thread holds the whole tile once, in (n, k) order"));
    CHECK(r.result == FrameVerdict::unchecked);  // B is in shared memory: never proved
  }
  CHECK(atoms == 7);
  CHECK(rs == 4);
}

TEST_CASE("planted GMMA mistakes are refuted or ill-formed, naming the thread, value and element", "[cute][gmma]") {
  const std::vector<CuteAtomTraits> atoms = read_data("gmma_traits_planted.hpp");
  REQUIRE(atoms.size() == 8);
  for (const CuteAtomTraits& atom : atoms) {
    const FrameVerdict v = check_cute_atom(atom).result;
    INFO(atom.name);
    CHECK((v == FrameVerdict::refuted || v == FrameVerdict::ill_formed));
  }
  const auto check = [&](const std::string& name, Operand op) {
    return operand(check_cute_atom(by_name(atoms, name)), op);
  };
  // C with two value strides swapped.
  CuteOperandReport o = check("SM90_64x8x16_F16F16F16_RS", Operand::C);
  CHECK(o.result == FrameVerdict::refuted);
  CHECK(has(o.message, "thread 0 value 1 holds (m=8, n=0), PTX puts (m=0, n=1) there"));
  REQUIRE(o.counterexample);
  CHECK((o.counterexample->thread == 0 && o.counterexample->value == 1));
  CHECK(check("SM90_64x8x16_F16F16F16_RS", Operand::A).result == FrameVerdict::proved);
  // RS A one K row off.
  o = check("SM90_64x16x16_F32F16F16_RS", Operand::A);
  CHECK(o.result == FrameVerdict::refuted);
  CHECK(has(o.message, "thread 0 value 4 holds (m=0, k=9), PTX puts (m=0, k=8) there"));
  // Shape_MNK against the name.
  o = check("SM90_64x8x16_F32F16F16_SS", Operand::C);
  CHECK(o.result == FrameVerdict::ill_formed);
  CHECK(has(o.message, "Shape_MNK (64,16,16) is not the name's 64x8x16"));
  // The wrong N.
  o = check("SM90_64x128x16_F32F16F16_SS", Operand::C);
  CHECK(o.result == FrameVerdict::refuted);
  CHECK(has(o.message, "value mode has 32 values, PTX gives each thread 64"));
  // SS B of another N.
  o = check("SM90_64x64x16_F16F16F16_SS", Operand::B);
  CHECK(o.result == FrameVerdict::refuted);
  CHECK(has(o.message, "CuTe partitions the shared-memory tile by BLayout"));
  CHECK(has(o.message, "value mode has 512 values, the tile order gives each thread 1024"));
  // SS A with a thread stride.
  o = check("SM90_64x32x16_F16F16F16_SS", Operand::A);
  CHECK(o.result == FrameVerdict::refuted);
  CHECK(has(o.message, "thread 1 value 0 holds (m=1, k=0), the tile order puts (m=0, k=0) there"));
  // One warp.
  o = check("SM90_64x16x16_F16F16F16_RS", Operand::C);
  CHECK(o.result == FrameVerdict::refuted);
  CHECK(has(o.message, "ThrID 32:1 is not 128 threads, the warpgroup"));
  // FrgTypeA against RS.
  o = check("SM90_64x24x16_F16F16F16_RS", Operand::A);
  CHECK(o.result == FrameVerdict::ill_formed);
  CHECK(has(o.message, "the name's RS reads A from registers"));
}

TEST_CASE("UMMA atoms of an atom list: the CTA split checked, every operand unchecked for TMEM or descriptors",
          "[cute][gmma]") {
  const std::vector<CuteAtomTraits> atoms = read_data("umma_atoms.txt");
  REQUIRE(atoms.size() == 4);
  for (const CuteAtomTraits& atom : atoms) {
    const CuteAtomReport r = check_cute_atom(atom);
    INFO(atom.name << ": " << operand(r, Operand::C).message);
    REQUIRE(r.instruction);
    CHECK(r.instruction->rfind("tcgen05.mma.cta_group::", 0) == 0);
    for (const CuteOperandReport& o : r.operands) CHECK(o.result == FrameVerdict::unchecked);
    CHECK(has(operand(r, Operand::C).message, "D in tensor memory"));
    CHECK(has(operand(r, Operand::C).message, "checked: "));
  }
  const CuteAtomReport pair = check_cute_atom(by_name(atoms, "SM100_MMA_F16BF16_2x1SM_SS"));
  CHECK(*pair.instruction == "tcgen05.mma.cta_group::2.kind::f16 m256n128k16 (A from shared memory)");
  CHECK(has(operand(pair, Operand::C).message, "each row's CTA is the one tcgen05's data path writes it in"));
  CHECK(has(operand(pair, Operand::C).message, "each CTA of the pair holds its half of m once, in (m, n) order"));
  CHECK(has(operand(check_cute_atom(by_name(atoms, "SM100_MMA_TF32_TS")), Operand::A).message, "A in tensor memory"));
}

TEST_CASE("planted UMMA mistakes are refuted or ill-formed", "[cute][gmma]") {
  const std::vector<CuteAtomTraits> atoms = read_data("umma_planted.txt");
  REQUIRE(atoms.size() == 4);
  CuteOperandReport o = operand(check_cute_atom(atoms[0]), Operand::C);
  CHECK(o.result == FrameVerdict::refuted);
  CHECK(has(o.message, "thread 1 value 0 holds (m=64, n=0), the tile order puts (m=128, n=0) there"));
  o = operand(check_cute_atom(atoms[1]), Operand::C);
  CHECK(o.result == FrameVerdict::refuted);
  CHECK(has(o.message, "thread 0 value 1 holds (m=64, n=0), the tile order puts (m=1, n=0) there"));
  const CuteAtomReport k = check_cute_atom(atoms[2]);
  CHECK(k.result == FrameVerdict::ill_formed);
  CHECK(has(operand(k, Operand::C).message, "K is 16, the kind's is 8"));
  const CuteAtomReport one = check_cute_atom(atoms[3]);
  CHECK(one.result == FrameVerdict::refuted);
  CHECK(has(operand(one, Operand::A).message, "ThrID 1:0 is not 2 threads, the CTA pair"));
}

TEST_CASE("alias templates: a wrong argument count or Int<...> expression is a located error", "[cute][gmma]") {
  const std::string head = "template <int N>\nusing CL = Layout<Shape<_128,Int<N/8>>, Stride<_0,_1>>;\n";
  const auto error = [&](const std::string& use) {
    try {
      read_cute_header(head + "template <>\nstruct MMA_Traits<X> {\n  using CLayout = " + use + ";\n};\n", "h.hpp");
    } catch (const Error& e) {
      return std::to_string(e.loc().line) + ": " + e.message();
    }
    return std::string("no error");
  };
  CHECK(has(error("CL<8, 16>"), "5: CL takes 1 arguments, given 2 (defined at 2:7)"));
  CHECK(has(error("CL<N>"), "5: expected an integer argument of CL<...>, got 'N'"));
  CHECK(has(error("GMMA::CL<0>"), "a shape's extent must be at least 1"));
  const std::string bad = "template <int N>\nusing CL = Layout<Shape<_128,Int<N/0>>>;\n";
  try {
    read_cute_header(bad + "template <>\nstruct MMA_Traits<X> {\n  using CLayout = CL<8>;\n};\n", "h.hpp");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(has(e.message(), "division by zero in Int<...>"));
  }
}

TEST_CASE("cute: GMMA excerpts exit 1 unchecked (0 with --allow-unchecked), planted mistakes exit 1 refuted",
          "[cli][cute][gmma]") {
  const test::RunResult mini = test::run_mmacheck({"cute", test::source_path("tests/data/cute/gmma_traits_mini.hpp")});
  CHECK(mini.status == 1);
  CHECK(has(mini.out, "8 atoms: 0 proved, 0 refuted, 0 ill_formed, 8 unchecked"));
  CHECK(has(mini.out, "SM90_64x128x16_F32F16F16_SS"));
  const test::RunResult allowed =
      test::run_mmacheck({"cute", test::source_path("tests/data/cute/gmma_traits_mini.hpp"), "--allow-unchecked"});
  CHECK(allowed.status == 0);
  const test::RunResult planted =
      test::run_mmacheck({"cute", test::source_path("tests/data/cute/gmma_traits_planted.hpp")});
  CHECK(planted.status == 1);
  CHECK(has(planted.out, "8 atoms: 0 proved, 6 refuted, 2 ill_formed, 0 unchecked"));
  const test::RunResult umma = test::run_mmacheck({"cute", test::source_path("tests/data/cute/umma_planted.txt")});
  CHECK(umma.status == 1);
  CHECK(has(umma.out, "4 atoms: 0 proved, 3 refuted, 1 ill_formed, 0 unchecked"));
}

TEST_CASE("the _ext companion header reads the main GMMA header's definitions; another file does not", "[cute][gmma]") {
  const std::string text =
      "namespace SM90::GMMA { using CLayout_64x24 = CLayout_64xN<24>; }\n"
      "template <GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>\n"
      "struct MMA_Traits<SM90_64x24x8_F32TF32TF32_RS_TN<scaleA, scaleB>> {\n"
      "  using ValTypeD = float;\n  using ValTypeA = tfloat32_t;\n  using ValTypeB = tfloat32_t;\n"
      "  using ValTypeC = float;\n  using Shape_MNK = Shape<_64,_24,_8>;\n  using ThrID = Layout<_128>;\n"
      "  using ALayout = GMMA::ALayout_64x8;\n  using BLayout = GMMA::ABLayout< 24, 8>;\n"
      "  using CLayout = GMMA::CLayout_64x24;\n  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;\n};\n";
  const std::vector<CuteAtomTraits> atoms = read_cute_header(text, "include/cute/atom/mma_traits_sm90_gmma_ext.hpp");
  REQUIRE(atoms.size() == 1);
  const CuteAtomReport r = check_cute_atom(atoms[0]);
  CHECK(operand(r, Operand::A).result == FrameVerdict::proved);
  CHECK(operand(r, Operand::C).result == FrameVerdict::proved);
  CHECK(read_cute_header("#include <cute/atom/mma_traits_sm90_gmma.hpp>\n" + text, "mine.hpp").size() == 1);
  try {
    read_cute_header(text, "mine.hpp");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.loc().line == 10);  // line 1's alias of an unknown name is no layout alias: skipped
    CHECK(has(e.message(), "'ALayout_64x8' is not a layout this file defines"));
  }
}

TEST_CASE("the CuTe DSL's warpgroup and tcgen05 atoms (as it prints them) get the same verdicts", "[cute][gmma]") {
  // scripts/cute-oracle/dsl_atoms.py --warpgroup / --tcgen05 (nvidia-cutlass-dsl 4.8.1)
  int rs = 0;
  for (const CuteAtomTraits& atom : read_data("dsl_warpgroup.txt")) {
    const CuteAtomReport r = check_cute_atom(atom);
    INFO(atom.name);
    const bool registers = atom.name.find("_RS") != std::string::npos;
    rs += registers;
    CHECK(operand(r, Operand::C).result == FrameVerdict::proved);
    CHECK(operand(r, Operand::A).result == (registers ? FrameVerdict::proved : FrameVerdict::unchecked));
    CHECK(operand(r, Operand::B).result == FrameVerdict::unchecked);
  }
  CHECK(rs == 3);
  const std::vector<CuteAtomTraits> umma = read_data("dsl_tcgen05.txt");
  CHECK(umma.size() == 5);
  for (const CuteAtomTraits& atom : umma) {
    INFO(atom.name);
    for (const CuteOperandReport& o : check_cute_atom(atom).operands) CHECK(o.result == FrameVerdict::unchecked);
  }
}

}  // namespace test_cute_gmma
