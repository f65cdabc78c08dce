// `mmacheck sparse` (core/sparse/sparse_check.h, core/sparse/sparse_reader.h):
// the ISA's own layout proves for every row and selector; each planted
// mistake (wrong selector, a row's metadata in the wrong thread, a chunk's
// indices not distinct or out of order, a chunk written twice) is refuted
// naming the lane, the e bits, and the A element it misreads; bad input is a
// located error.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>

#include "core/sparse/sparse_reader.h"
#include "tests/support.h"

namespace test_mma_sp_prove {

using namespace mmacheck;

namespace {

SparseReport check_text(const std::string& text) { return check_sparse(read_sparse_file(text, "t.txt")); }

// The ISA's layout as a file: holders f*T .. f*T+T-1, chunk 4 (t - f T) + j % 4.
std::string isa_file(const SparseMmaInst& s, int f, bool ordered = true) {
  const int T = s.meta_threads();
  std::string holders;
  for (int t = f * T; t < (f + 1) * T; ++t) holders += (holders.empty() ? "" : ",") + std::to_string(t);
  // 8-bit rows: one row's 8 chunks a holder, u = t - f T: row g + 8 (u % 2), chunk 8 (u / 2) + j.
  const std::string layout = dtype_bits(s.a) == 8 ? std::string(T == 4 ? "row=g+8*t0 chunk=8*t1+j0+2*j1+4*j2"
                                                                       : "row=g+8*t0 chunk=j0+2*j1+4*j2")
                             : T == 1             ? std::string("row=g+8*j2 chunk=j0+2*j1")
                                                  : "row=g+8*j2 chunk=4*t-" + std::to_string(4 * T * f) + "+j0+2*j1";
  return "instr " + s.ptx(ordered) + "\nselector " + std::to_string(f) + "\nmeta holders=" + holders + " " + layout +
         "\n";
}

// A valid pattern's kept lines (tf32: its two values only).
std::string pattern_lines(int rows, int chunks, int bad_row = -1, int bad_chunk = -1, const char* bad = "",
                          bool tf32 = false) {
  static const char* pairs[6] = {"01", "02", "03", "12", "13", "23"};
  static const char* tf32_pairs[6] = {"01", "23", "23", "01", "23", "01"};
  std::string text;
  for (int r = 0; r < rows; ++r) {
    text += "kept " + std::to_string(r);
    for (int k = 0; k < chunks; ++k)
      text += std::string(" ") + (r == bad_row && k == bad_chunk ? bad : (tf32 ? tf32_pairs : pairs)[(r + 2 * k) % 6]);
    text += "\n";
  }
  return text;
}

bool mentions(const SparseReport& r, const std::string& what) {
  if (r.message.find(what) != std::string::npos) return true;
  for (const std::string& a : r.also)
    if (a.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("sparse: the ISA's metadata layout proves for every row and selector", "[mma-sp][prove]") {
  for (const SparseMmaInst& s : sparse_instructions())
    for (int f = 0; f < s.selectors(); ++f) {
      INFO(s.tag << " f=" << f);
      const bool tf32 = s.a == DType::tf32;
      const SparseReport r = check_text(isa_file(s, f));
      CHECK(r.result == FrameVerdict::proved);
      CHECK_THAT(r.message, Catch::Contains(tf32 ? "for every valid pattern (2 nibbles per chunk)"
                                                 : "for every valid pattern (6 nibbles per chunk)"));
      const SparseReport p = check_text(isa_file(s, f) + pattern_lines(16, s.chunks_per_row(), -1, -1, "", tf32));
      CHECK(p.result == FrameVerdict::proved);
      CHECK_THAT(p.message, Catch::Contains("every kept element of A is read exactly once"));
    }
  const test::RunResult ex = test::run_mmacheck({"sparse", test::source_path("examples/sparse/k32_selector1.txt"),
                                                 test::source_path("examples/sparse/k16_pattern.txt")});
  CHECK(ex.status == 0);
  // Several files: a report each under its heading, as every family command prints them.
  CHECK_THAT(ex.out,
             Catch::StartsWith("== " + test::source_path("examples/sparse/k32_selector1.txt") + " ==\nproved  "));
  CHECK_THAT(ex.out, Catch::Contains("== " + test::source_path("examples/sparse/k16_pattern.txt") + " ==\nproved  "));
}

TEST_CASE("sparse: a wrong selector is refuted at the lane that holds nothing", "[mma-sp][prove]") {
  const SparseMmaInst& k32 = *find_sparse_inst("sp.m16n8k32.f16");
  std::string text = isa_file(k32, 0);
  text.replace(text.find("selector 0"), 10, "selector 1");
  const SparseReport r = check_text(text);
  CHECK(r.result == FrameVerdict::refuted);
  CHECK(r.check == "layout");
  CHECK(
      r.message ==
      "lane 0 (g 0, t 0) e bits 3:0: the kernel puts A row 0 chunk 0 there, the ISA (selector 1) reads nothing from it");
  // The consequence, element by element (probe pattern).
  CHECK(mentions(r, "kept element A["));
  const test::RunResult cli = [&] {
    const std::string path = (std::filesystem::temp_directory_path() / "sparse_wrong_selector.txt").string();
    {
      std::FILE* f = std::fopen(path.c_str(), "w");
      std::fputs(text.c_str(), f);
      std::fclose(f);
    }
    return test::run_mmacheck({"sparse", path});
  }();
  CHECK(cli.status == 1);
  CHECK_THAT(cli.out, Catch::StartsWith("refuted  "));
  CHECK_THAT(cli.out, Catch::Contains("sparse_wrong_selector.txt  mma.sp::ordered_metadata"));
  CHECK_THAT(cli.out, Catch::Contains("[layout] lane 0 (g 0, t 0) e bits 3:0"));
}

TEST_CASE("sparse: a row's metadata in the wrong thread or the wrong half is refuted", "[mma-sp][prove]") {
  const SparseMmaInst& k32 = *find_sparse_inst("sp.m16n8k32.bf16");
  // The two holders swapped: t = 0 writes chunks 4..7, t = 1 chunks 0..3.
  const SparseReport swapped = check_text(
      "instr " + k32.ptx() + "\nselector 0\nmeta holders=0,1 row=g+8*j2 chunk=4-4*t+j0+2*j1\n" + pattern_lines(16, 8));
  CHECK(swapped.result == FrameVerdict::refuted);
  CHECK(
      swapped.message ==
      "lane 0 (g 0, t 0) e bits 3:0: the kernel puts A row 0 chunk 4 there, the ISA (selector 0) reads A row 0 chunk 0 "
      "from it");
  CHECK(mentions(swapped, "register a"));
  CHECK(mentions(swapped, "element a"));
  // Row g + 8 in the low half.
  const SparseMmaInst& k16 = *find_sparse_inst("sp.m16n8k16.f16");
  const SparseReport halves =
      check_text("instr " + k16.ptx() + "\nselector 3\nmeta holders=3 row=g+8-8*j2 chunk=j0+2*j1\n");
  CHECK(halves.result == FrameVerdict::refuted);
  CHECK(
      halves.message ==
      "lane 3 (g 0, t 3) e bits 3:0: the kernel puts A row 8 chunk 0 there, the ISA (selector 3) reads A row 0 chunk 0 "
      "from it");
  // A chunk written twice, another by no lane.
  const SparseReport twice = check_text("instr " + k16.ptx() + "\nselector 0\nmeta holders=0 row=g+8*j2 chunk=j0\n");
  CHECK(twice.result == FrameVerdict::refuted);
  CHECK(mentions(twice,
                 "A row 0 chunk 0: written 2 times (lane 0 (g 0, t 0) e bits 3:0, lane 0 (g 0, t 0) e bits 11:8)"));
  CHECK(mentions(twice, "A row 0 chunk 2: no lane writes its metadata"));
}

TEST_CASE("sparse: indices not distinct, or out of order for ::ordered_metadata, are refuted", "[mma-sp][prove]") {
  const SparseMmaInst& k16 = *find_sparse_inst("sp.m16n8k16.f16");
  const SparseReport same = check_text(isa_file(k16, 0) + pattern_lines(16, 4, 3, 2, "11"));
  CHECK(same.result == FrameVerdict::refuted);
  CHECK(same.check == "pattern");
  CHECK(same.message ==
        "A row 3 chunk 2 (columns 8..11): metadata 0b0101 (lane 12 (g 3, t 0) e bits 11:8) names index 1 twice "
        "(undefined behaviour)");
  const SparseReport order = check_text(isa_file(k16, 1) + pattern_lines(16, 4, 9, 0, "20"));
  CHECK(order.result == FrameVerdict::refuted);
  CHECK(
      order.message ==
      "A row 9 chunk 0 (columns 0..3): metadata 0b0010 (lane 5 (g 1, t 1) e bits 19:16) has indices 2, 0 out of order "
      "(::ordered_metadata requires idx0 < idx1)");
  // The plain mma.sp spelling takes any distinct pair.
  CHECK(check_text(isa_file(k16, 1, false) + pattern_lines(16, 4, 9, 0, "20")).result == FrameVerdict::proved);
}

TEST_CASE("sparse: bad input is a located error, exit 2", "[mma-sp][prove]") {
  const auto error_of = [](const std::string& text) {
    try {
      read_sparse_file(text, "b.txt");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string head = "instr sp.m16n8k16.f16\n";
  CHECK_THAT(error_of("selector 0\n"), Catch::StartsWith("b.txt:1:1: error: expected 'instr' first"));
  CHECK_THAT(error_of(head + "selector 4\n"), Catch::StartsWith("b.txt:2:10: error: selector 4 out of range"));
  CHECK_THAT(error_of(head + "selector 0\nmeta holders=0 row=g+8*k chunk=j0\n"),
             Catch::StartsWith("b.txt:3:22: error: unknown term '8*k'"));
  CHECK_THAT(error_of(head + "selector 0\nmeta holders=0 row=g\n"),
             Catch::StartsWith("b.txt:3:1: error: missing chunk="));
  CHECK_THAT(error_of(head + "selector 0\nmeta holders=0 row=g chunk=j0\nkept 0 01 02 03\n"),
             Catch::StartsWith("b.txt:4:1: error: expected 'kept ROW' and 4 chunks, got 3"));
  CHECK_THAT(error_of(head + "selector 0\nmeta holders=0 row=g chunk=j0\nkept 0 01 02 03 4x\n"),
             Catch::StartsWith("b.txt:4:17: error: expected two indices 0..3"));
  CHECK_THAT(error_of(head + "selector 0\nmeta holders=0 row=g chunk=j0\nkept 0 01 02 03 12\n"),
             Catch::StartsWith("b.txt:4: error: kept lines for 1 rows, expected all 16"));
  CHECK_THAT(error_of(head + "bogus\n"), Catch::StartsWith("b.txt:2:1: error: unknown statement 'bogus'"));
  // Terms that would wrap int into a valid-looking row (1 + 4 * 2^30 = 2^32 + 1 = g) are refused, not summed.
  CHECK_THAT(error_of(head + "selector 0\nmeta holders=0 row=g+1073741824*g+1073741824*g+1073741824*g+1073741824*g "
                             "chunk=j0\n"),
             Catch::StartsWith("b.txt:3:22: error: the number 1073741824 is out of range"));
  std::string many = "g";
  for (int i = 0; i < 4096; ++i) many += "+1048576*g";
  CHECK_THAT(error_of(head + "selector 0\nmeta holders=0 row=" + many + " chunk=j0\n"),
             Catch::Contains("error: the coefficients add up past 2^20"));
  const test::RunResult r = test::run_mmacheck({"sparse", test::source_path("examples/no_such_file.txt")});
  CHECK(r.status == 2);
}

TEST_CASE("sparse: the 8-bit rows' metadata placement proves; the 16-bit one on them is refuted", "[mma-sp][prove]") {
  const test::RunResult good = test::run_mmacheck({"sparse", test::source_path("examples/sparse/k64_s8.txt")});
  INFO(good.out << good.err);
  CHECK(good.status == 0);
  CHECK_THAT(good.out, Catch::StartsWith("proved  "));
  const test::RunResult bad =
      test::run_mmacheck({"sparse", test::source_path("examples/sparse/reject_k32_s8_16bit_meta.txt")});
  INFO(bad.out << bad.err);
  CHECK(bad.status == 1);
  CHECK_THAT(bad.out, Catch::Contains("lane 0 (g 0, t 0) e bits 19:16: the kernel puts A row 8 chunk 0 there"));
  CHECK_THAT(bad.out, Catch::Contains("kept element A[0][16] is read by no lane"));
  // t0 and t1 are terms of the reader; an unknown one is a located error.
  const SparseReport r =
      check_text("instr sp.m16n8k64.u8\nselector 0\nmeta holders=0,1,2,3 row=g+8*t0 chunk=8*t1+j0+2*j1+4*j2\n");
  CHECK(r.result == FrameVerdict::proved);
  CHECK_THROWS_WITH(check_text("instr sp.m16n8k64.u8\nselector 0\nmeta holders=0,1,2,3 row=g+8*t2 chunk=j0\n"),
                    Catch::Contains("t.txt:3:28: error: unknown term '8*t2'"));
}

TEST_CASE("sparse: tf32's 1:2 metadata: only 0b0100 and 0b1110, one kept element a chunk", "[mma-sp][prove]") {
  const SparseMmaInst& k16 = *find_sparse_inst("sp.m16n8k16.tf32");
  // A 2:4 pair that is no tf32 value is refuted at its chunk.
  const SparseReport bad = check_text(isa_file(k16, 1) + pattern_lines(16, 8, 5, 3, "02", true));
  CHECK(bad.result == FrameVerdict::refuted);
  CHECK_THAT(bad.message, Catch::Contains("A row 5 chunk 3 (columns 6..7): metadata 0b1000"));
  CHECK_THAT(bad.message, Catch::Contains("is neither 0b0100 nor 0b1110"));
  // The 2:4 layout of k32 (chunks 4 a lane) on tf32 k16's 8 chunks a row proves too: the placement is the same.
  CHECK(check_text(isa_file(k16, 0)).result == FrameVerdict::proved);
}

}  // namespace test_mma_sp_prove
