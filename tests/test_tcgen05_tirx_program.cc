// TIRx's tcgen05.mma programs as TVM 0.1.0a4 lowers them
// (core/tcgen05/tcgen05_tirx.h; tests/data/tirx/tcgen05_*, made by
// scripts/tirx-oracle/tcgen05_programs.py): the three real dumps prove with
// the descriptors TIRx folded, each planted copy is refuted naming its field,
// and what the reader does not read is a located error (exit 2).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/base/error.h"
#include "core/tcgen05/tcgen05_check.h"
#include "core/tcgen05/tcgen05_tirx.h"
#include "tests/support.h"

namespace test_tcgen05_tirx_program {

using namespace mmacheck;
using mmacheck::test::read_file;
using mmacheck::test::run_mmacheck;
using mmacheck::test::source_path;

namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) { return source_path("tests/data/tirx/" + name); }

Tcgen05Report check(const std::string& name) {
  const std::string path = data(name);
  return check_tcgen05(read_tcgen05_tirx(read_file(path), path));
}

// The real dump with `from` replaced by `to` (once), written to a temporary file.
std::string planted(const std::string& from, const std::string& to,
                    const std::string& real = "tcgen05_f16_k_sw128.lowered.py") {
  std::string text = read_file(data(real));
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  const fs::path p = fs::temp_directory_path() / ("mmacheck_tcgen05_tirx_" + std::to_string(::getpid()) + ".py");
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST_CASE("tcgen05 TIRx: the lowered tcgen05.mma dumps prove with the descriptors TIRx encodes", "[tcgen05][tirx]") {
  struct Real {
    const char* file;
    std::uint32_t idesc;
    std::size_t operands;  // A and B at each K repeat
    std::uint64_t a0, b0;  // the descriptors of the first repeat
    const char* instruction;
  };
  const Real real[] = {
      {"tcgen05_f16_k_sw128.lowered.py", 0x08400490, 8, 0x4000404000010000, 0x4000404000010000,
       "m128n256k16 f32 += bf16 * bf16 (A K-major, B K-major)"},
      {"tcgen05_f16_mn_m64.lowered.py", 0x04108010, 4, 0x4000404000010000, 0x8000402000010000,
       "m64n64k16 f32 += f16 * f16 (A MN-major, B K-major)"},
      {"tcgen05_tf32_k_sw64.lowered.py", 0x08100910, 4, 0x8000402000010000, 0x8000402000010000,
       "m128n64k8 f32 += tf32 * tf32 (A K-major, B K-major)"},
  };
  for (const Real& r : real) {
    INFO(r.file);
    const Tcgen05Report rep = check(r.file);
    CHECK(rep.result == FrameVerdict::proved);
    CHECK(rep.instruction.find(r.instruction) != std::string::npos);
    CHECK(rep.idesc == r.idesc);
    REQUIRE(rep.operands.size() == r.operands);
    CHECK(rep.operands[0].descriptor.encode() == r.a0);
    CHECK(rep.operands[1].descriptor.encode() == r.b0);
    // Each K repeat starts 32 bytes on (K-major) or one 16 x 64 f16 block on (MN-major A).
    CHECK(rep.operands[2].descriptor.start == (r.operands == 4 && r.idesc == 0x04108010 ? 0x800 : 0x20));
    for (const Tcgen05OperandReport& o : rep.operands) CHECK(o.result == FrameVerdict::proved);
    REQUIRE(rep.tmem);
    CHECK(rep.tmem->result == FrameVerdict::proved);
    const auto run = run_mmacheck({"tcgen05", data(r.file)});
    INFO(run.out << run.err);
    CHECK(run.status == 0);
  }
}

TEST_CASE("tcgen05 TIRx: an f16 D proves with TIRx's TMEM layout, a column an element; packed is refuted",
          "[tcgen05][tirx]") {
  // TIRx's D layouts step TCol by 2 for a 16-bit D (its dispatch refuses 1).
  for (const char* f : {"tcgen05_f16_d16.lowered.py", "tcgen05_f16_d16_m64.lowered.py"}) {
    INFO(f);
    const Tcgen05Report r = check(f);
    CHECK(r.result == FrameVerdict::proved);
    CHECK(r.instruction.find("f16 += f16 * f16") != std::string::npos);
    REQUIRE(r.tmem);
    CHECK(r.tmem->result == FrameVerdict::proved);
    CHECK(r.tmem->message.find("each 16-bit element in its column's low half") != std::string::npos);
    CHECK(run_mmacheck({"tcgen05", data(f)}).status == 0);
  }
  // The same dump with D packed two to a column.
  const std::string path = planted("T.Iter(64, 2, \"TCol\")", "T.Iter(64, 1, \"TCol\")", "tcgen05_f16_d16.lowered.py");
  const Tcgen05Report r = check_tcgen05(read_tcgen05_tirx(read_file(path), path));
  REQUIRE(r.tmem);
  CHECK(r.tmem->result == FrameVerdict::refuted);
  CHECK(r.tmem->message.find("D[m=0][n=1]") != std::string::npos);
  CHECK(r.tmem->message.find("high 16 bits") != std::string::npos);
  const auto run = run_mmacheck({"tcgen05", path});
  CHECK(run.status == 1);
  fs::remove(path);
}

TEST_CASE("tcgen05 TIRx: a tf32 MN-major A (TIRx's 128B with 32B atomic) is unchecked, the rest proved",
          "[tcgen05][tirx]") {
  const Tcgen05Report r = check("tcgen05_tf32_mn_b32.lowered.py");
  CHECK(r.result == FrameVerdict::unchecked);
  CHECK(r.idesc_result == FrameVerdict::proved);
  REQUIRE(r.operands.size() == 2);
  CHECK(r.operands[0].descriptor.swizzle == Tcgen05Swizzle::b128_base32b);
  CHECK(r.operands[0].result == FrameVerdict::unchecked);
  CHECK(r.operands[0].message.find("128B_base32B") != std::string::npos);
  CHECK(r.operands[1].result == FrameVerdict::proved);
  REQUIRE(r.tmem);
  CHECK(r.tmem->result == FrameVerdict::proved);
  CHECK(run_mmacheck({"tcgen05", data("tcgen05_tf32_mn_b32.lowered.py")}).status == 1);
  CHECK(run_mmacheck({"tcgen05", "--allow-unchecked", data("tcgen05_tf32_mn_b32.lowered.py")}).status == 0);
}

TEST_CASE("tcgen05 TIRx: planted copies of the dump are refuted naming the field", "[tcgen05][tirx]") {
  SECTION("B's swizzle 128B -> 64B") {
    const Tcgen05Report r = check("tcgen05_bad_swizzle.lowered.py");
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.idesc_result == FrameVerdict::proved);
    for (const Tcgen05OperandReport& o : r.operands) {
      CHECK(o.result == (o.operand == 'B' ? FrameVerdict::refuted : FrameVerdict::proved));
      if (o.operand == 'B') CHECK(o.fixes.at(0).fields == std::vector<std::string>{"swizzle"});
    }
  }
  SECTION("A's LBO and SBO swapped: a 128B K-major atom reads SBO alone (LBO unused), so SBO is named") {
    const Tcgen05Report r = check("tcgen05_bad_lbo_sbo.lowered.py");
    CHECK(r.result == FrameVerdict::refuted);
    for (const Tcgen05OperandReport& o : r.operands) {
      CHECK(o.result == (o.operand == 'A' ? FrameVerdict::refuted : FrameVerdict::proved));
      if (o.operand == 'A') {
        CHECK(o.fixes.at(0).fields == std::vector<std::string>{"sbo"});
        CHECK(o.fixes.at(0).descriptor.sbo == 1024);
      }
    }
  }
  SECTION("transpose A set in the idesc: the K-major buffer read MN-major, fixed by the major-ness") {
    const Tcgen05Report r = check("tcgen05_bad_major.lowered.py");
    CHECK(r.result == FrameVerdict::refuted);
    for (const Tcgen05OperandReport& o : r.operands) {
      CHECK(o.result == (o.operand == 'A' ? FrameVerdict::refuted : FrameVerdict::proved));
      if (o.operand == 'A') {
        CHECK(o.fixes.at(0).fields == std::vector<std::string>{"major"});
        CHECK(o.fixes.at(0).major == Major::k);
        CHECK(o.message.find("transpose A = 0 in the instruction descriptor") != std::string::npos);
      }
    }
  }
  SECTION("N >> 3 in the idesc 16 for D's 256 columns") {
    const Tcgen05Report r = check("tcgen05_bad_n.lowered.py");
    CHECK(r.result == FrameVerdict::refuted);
    REQUIRE(r.idesc_differences.size() == 1);
    CHECK(r.idesc_differences[0].field->name == "N >> 3");
    CHECK(r.idesc_differences[0].got == 16);
    CHECK(r.idesc_differences[0].want == 32);
  }
  SECTION("D's TMEM layout: rows at lanes 2m") {
    const std::string path = planted("T.Iter(128, 1, \"TLane\")", "T.Iter(128, 2, \"TLane\")");
    // 128 x 2 lanes is outside TMEM's 128: refuted or bad input, never proved.
    const Tcgen05Report r = check_tcgen05(read_tcgen05_tirx(read_file(path), path));
    REQUIRE(r.tmem);
    CHECK(r.tmem->result == FrameVerdict::refuted);
    CHECK(r.tmem->message.find("D[m=1][n=0]") != std::string::npos);
    fs::remove(path);
  }
  for (const char* f : {"tcgen05_bad_swizzle.lowered.py", "tcgen05_bad_lbo_sbo.lowered.py",
                        "tcgen05_bad_major.lowered.py", "tcgen05_bad_n.lowered.py"}) {
    const auto run = run_mmacheck({"tcgen05", data(f)});
    INFO(f << "\n" << run.out << run.err);
    CHECK(run.status == 1);
    CHECK(run.out.find("refuted") != std::string::npos);
  }
}

TEST_CASE("tcgen05 TIRx: what the dump reader does not read is a located error", "[tcgen05][tirx]") {
  SECTION("the program before TileDispatch: no descriptors in it yet") {
    const auto run = run_mmacheck({"tcgen05", data("tcgen05_f16_k_sw128.py")});
    CHECK(run.status == 2);
    CHECK(run.err.find("tcgen05_f16_k_sw128.py:12:13: error: a TIRx program before TileDispatch") != std::string::npos);
  }
  struct Bad {
    const char* from;
    const char* to;
    const char* message;
  };
  const Bad bad[] = {
      {"T.uint32(0), T.uint32(0), T.uint32(0), T.uint32(0)", "T.uint32(1), T.uint32(0), T.uint32(0), T.uint32(0)",
       "a disable-output-lane mask other than 0 is not read"},
      {"\"kind::f16\"", "\"kind::mxf8f6f4\"", "is not read (kind::tf32, f16, f8f6f4, i8)"},
      {"for repeat_2 in T.unroll(0, 4):", "for repeat_2 in T.serial(0, 4):", "only 'for NAME in T.unroll"},
      {"T.Cast(\"uint64\"", "T.Cast(\"float32\"", "T.Cast to string 'float32' is not read"},
      {"T.address_of(sa[0, repeat_2, 0, 0])", "T.address_of(sa[0, repeat_2, 0, 0, 0])", "takes 4 indices"},
      {"T.address_of(sa[0, repeat_2, 0, 0])", "T.address_of(sa[0, repeat_2 + 4, 0, 0])", "outside sa's shape"},
      {"T.uint32(138413200)", "T.uint32(138413200 + repeat_9)", "'repeat_9' is no loop variable"},
      // A layout cut from its line must lie on it: over two lines inside the
      // brackets, or after a lone carriage return (a line end to the lexer,
      // not to the lines the layout is cut from: fuzz_families, an overflow).
      {"T.Iter(128, 1, \"TLane\"), T.Iter(256, 1, \"TCol\")]", "T.Iter(128, 1, \"TLane\"),\n T.Iter(256, 1, \"TCol\")]",
       "the layout does not end on its line"},
      {"scope=\"tmem\", layout=", "scope=\"tmem\",\r layout=", "the layout does not end on its line"},
      {"scope=\"tmem\"", "scope=\"local\"", "a shared or tmem buffer is read"},
      {"T.bfloat16, scope=\"shared\"", "T.float64, scope=\"shared\"", "has no operand format float64"},
      // Never a verdict from a wrapped number: a shape past 2^63 elements, a product past 128 bits.
      {"T.Tensor((1, 4, 128, 16), T.bfloat16", "T.Tensor((4294967296, 4294967296, 128, 16), T.bfloat16",
       "is not a tile (each extent positive, at most 2^32 elements)"},
      {"T.Tensor((1, 4, 128, 16), T.bfloat16", "T.Tensor((1, 0, 128, 16), T.bfloat16", "is not a tile"},
      {"T.uint64(65536) | T.uint64(1073758272)",
       "T.uint64(65536) + T.uint64(4611686018427387904) * T.uint64(1073741824) * (T.uint64(4611686018427387904) * "
       "T.uint64(4)) | T.uint64(1073758272)",
       "the value leaves 96 bits here"},
      {"T.uint64(65536) | T.uint64(1073758272)", "T.uint64(65536) | T.uint64(4611686018427387904) << T.uint64(63)",
       "the value leaves 96 bits here"},
      // A's descriptor as a constant: no buffer of its own, never B's.
      {"T.uint64(65536) | T.uint64(1073758272) << T.uint64(32) | T.Cast(\"uint64\", "
       "(T.cuda.cvta_generic_to_shared(T.address_of(sa[0, repeat_2, 0, 0])) - T.Cast(\"uint32\", (repeat_2 * 16 ^ 0) "
       "* 16 // 8) + T.Cast(\"uint32\", (repeat_2 * 16 ^ 0) * 16 // 8 ^ (repeat_2 * 16 ^ 0) * 16 // 8 // 8 & 112)) // "
       "T.uint32(16)) & T.uint64(16383)",
       "T.uint64(4611686018427453440)", "a shared descriptor's start is T.address_of a buffer's element; none here"},
  };
  for (const Bad& b : bad) {
    INFO(b.to);
    const std::string path = planted(b.from, b.to);
    try {
      read_tcgen05_tirx(read_file(path), path);
      FAIL("read without an error");
    } catch (const Error& e) {
      CHECK(e.loc().file == path);
      CHECK(e.loc().line > 0);
      CHECK(e.message().find(b.message) != std::string::npos);
    }
    const auto run = run_mmacheck({"tcgen05", path});
    CHECK(run.status == 2);
    fs::remove(path);
  }
  CHECK(is_tcgen05_tirx(read_file(data("tcgen05_f16_mn_m64.lowered.py"))));
  CHECK_FALSE(is_tcgen05_tirx(read_file(data("tirx_bf16.lowered.py"))));
}

}  // namespace test_tcgen05_tirx_program
