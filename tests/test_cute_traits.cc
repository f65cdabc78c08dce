// Reading CuTe atoms (core/cute/cute_traits.h) from a trait header written
// for the test in CUTLASS's form (tests/data/cute/mma_traits_mini.hpp) and
// from atom lists.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/cute/cute_atom_name.h"
#include "core/cute/cute_traits.h"
#include "tests/support.h"

namespace test_cute_traits {

using namespace mmacheck;

namespace {
const CuteAtomTraits& by_name(const std::vector<CuteAtomTraits>& atoms, const std::string& name) {
  for (const CuteAtomTraits& a : atoms)
    if (a.name == name) return a;
  FAIL("no atom " << name);
  throw 0;
}
}  // namespace

TEST_CASE("a trait header gives every specialization with aliases and inheritance resolved", "[cute]") {
  const std::string path = test::source_path("tests/data/cute/mma_traits_mini.hpp");
  const std::vector<CuteAtomTraits> atoms = read_cute_file(test::read_file(path), path);
  REQUIRE(atoms.size() == 7);
  CHECK(atoms[0].name == "SM80_16x8x8_F16F16F16F16_TN");
  CHECK(atoms[0].loc.line > 1);

  const CuteAtomTraits& f16 = atoms[0];
  REQUIRE(f16.a.layout);
  CHECK(f16.a.written == "Mini_16x8_Row");
  CHECK(f16.a.layout->str() == "((4,8),(2,2)):((32,1),(16,8))");
  CHECK(f16.b.layout->str() == "((4,8),2):((16,1),8)");
  CHECK(f16.thr_id.layout->str() == "32:1");
  REQUIRE(f16.shape_mnk);
  CHECK(f16.shape_mnk->str() == "(16,8,8)");

  const CuteAtomTraits& derived = by_name(atoms, "SM80_16x8x8_F32F16F16F32_TN");
  CHECK(derived.base == "SM80_16x8x8_F16F16F16F16_TN");
  REQUIRE(derived.b.layout);
  CHECK(derived.b.layout->str() == f16.b.layout->str());

  const CuteAtomTraits& sat = by_name(atoms, "SM80_16x8x32_S32U4U4S32_TN_SATURATE");
  REQUIRE(sat.b.layout);
  CHECK(sat.b.layout->str() == "((4,8),(8)):((32,1),(8))");

  // An alias of the included sm80 header comes from the built-in table.
  const CuteAtomTraits& s8 = by_name(atoms, "SM80_8x8x16_S32S8S8S32_TN");
  REQUIRE(s8.c.layout);
  CHECK(s8.c.layout->str() == "((4,8),2):((16,1),8)");

  const CuteAtomTraits& b1 = by_name(atoms, "SM80_16x8x128_S32U1U1S32_TN_XORPOPC");
  REQUIRE(b1.a.layout);
  CHECK_FALSE(b1.a.layout->congruent());
  REQUIRE(b1.val_types[1]);
  CHECK(b1.val_types[1]->token == "U1");
  CHECK(b1.val_types[1]->written == "cute::uint1b_t");
  CHECK(sat.val_types[1]->token == "U4");   // its own, over the base's int4b_t
  CHECK(sat.val_types[0]->token == "S32");  // the base's
}

TEST_CASE("without the #include, a header's unknown alias is an error at its use", "[cute]") {
  const std::string text =
      "template <> struct MMA_Traits<SM80_8x8x16_S32S8S8S32_TN> {\n"
      "  using ThrID = Layout<_32>;\n  using CLayout = SM80_8x8_Row;\n};\n";
  try {
    read_cute_header(text, "h.hpp");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.loc().line == 3);
    CHECK(e.loc().col == 19);
    CHECK(e.message().find("'SM80_8x8_Row' is not a layout this file defines") != std::string::npos);
  }
}

TEST_CASE("an atom list reads entries over several lines, with aliases and defaults", "[cute]") {
  const std::string text =
      "# comment\n"
      "using Row = ((4,8),(2,2)):((32,1),(16,8));\n"
      "SM80_16x8x8_F16F16F16F16_TN: A = Row,\n"
      "   B = Layout<Shape<Shape<_4,_8>,_2>, Stride<Stride<_16,_1>,_8>>, C = SM80_16x8_Row\n"
      "SM80_16x8x4_F32TF32TF32F32_TN: A = ((4,8),2):((16,1),8), B = ((4,8),1):((8,1),0), C = Row,\n"
      "   ThrID = 32:1, Shape_MNK = Shape<_16,_8,_4>\n";
  const std::vector<CuteAtomTraits> atoms = read_cute_file(text, "l.txt");
  REQUIRE(atoms.size() == 2);
  CHECK(atoms[0].a.layout->str() == "((4,8),(2,2)):((32,1),(16,8))");
  CHECK(atoms[0].c.layout->str() == "((4,8),(2,2)):((32,1),(16,8))");
  CHECK(atoms[0].thr_id.layout->str() == "32:1");
  CHECK(atoms[1].shape_mnk->str() == "(16,8,4)");
  CHECK(atoms[1].loc.line == 5);
}

TEST_CASE("a malformed atom list is an Error at the fault", "[cute]") {
  const auto error_at = [](const std::string& text) {
    try {
      read_cute_atom_list(text, "l.txt");
    } catch (const Error& e) {
      return std::make_pair(e.loc().line, std::string(e.what()));
    }
    return std::make_pair(0, std::string());
  };
  CHECK(error_at("X: A = (4,8):(1,4\n").first == 2);
  CHECK(error_at("X: A = Nope, B = 1, C = 1\n").second.find("'Nope'") != std::string::npos);
  CHECK(error_at("X: Q = 1\n").second.find("unknown key 'Q'") != std::string::npos);
  CHECK(error_at("X: A = 1, B = 1\n").second.find("gives no A, B or C") != std::string::npos);
  CHECK(error_at("X A = 1\n").second.find("expected ':'") != std::string::npos);
  CHECK(error_at("X: A = 1 /* open\n").second.find("unterminated") != std::string::npos);
}

TEST_CASE("an atom's name names its instruction", "[cute]") {
  const auto ptx = [](std::string_view n) {
    const std::optional<CuteAtomName> d = decode_atom_name(n);
    return d ? d->ptx : std::string("-");
  };
  CHECK(ptx("SM80_16x8x32_S32S4S4S32_TN") == "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32");
  CHECK(ptx("SM80_16x8x32_S32U4S4S32_TN_SATURATE") == "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32");
  CHECK(ptx("SM80_16x8x256_S32U1U1S32_TN_XORPOPC") == "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc");
  CHECK(ptx("SM80_16x8x8_F32BF16BF16F32_TN") == "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32");
  CHECK(ptx("SM90_16x8x16_F64F64F64F64_TN") == "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64");
  CHECK(ptx("SM89_16x8x32_F16E4M3E5M2F16_TN") == "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16");
  const std::optional<CuteAtomName> c64 = decode_atom_name("SM80_8x8x4_GC64C64C64GC64_TN");
  REQUIRE(c64);
  CHECK(c64->ptx == "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  CHECK_FALSE(c64->note.empty());
  const std::optional<CuteAtomName> s4 = decode_atom_name("SM80_8x8x32_S32S4U4S32_TN");
  REQUIRE(s4);
  CHECK((s4->a_bits == 4 && s4->b_bits == 4 && s4->c_bits == 32 && s4->shape == "m8n8k32"));
  // A shape too large for any instruction (fuzz_cute: it used to overflow int while read).
  CHECK(ptx("SM80_16777777777x8x8_F32F16F16F32_TN") == "-");
  CHECK(ptx("SM80_16x99999999999999999999x8_F32F16F16F32_TN") == "-");
  std::string why;
  CHECK_FALSE(decode_atom_name("SM70_8x8x4_F32F16F16F32_NT", &why));
  CHECK(why.find("layout NT") != std::string::npos);
  CHECK_FALSE(decode_atom_name("SM80_16x8x8_F32Q16F16F32_TN", &why));
  CHECK(why.find("unknown element type") != std::string::npos);
  CHECK_FALSE(decode_atom_name("SM80_16x8x8_F32F16F16F32_TN_FAST", &why));
  CHECK_FALSE(decode_atom_name("Mini_Tag", &why));
  CHECK_FALSE(decode_atom_name("SM90_64x8x16_F16F16F16_SS<tnspA,tnspB,scaleA,scaleB>", &why));
  CHECK(why.find("templated atom") != std::string::npos);
  CHECK_FALSE(decode_atom_name("SM90_64x8x16_F32F16F16F32_RS", &why));
  CHECK(why.find("wgmma") != std::string::npos);
}

}  // namespace test_cute_traits
