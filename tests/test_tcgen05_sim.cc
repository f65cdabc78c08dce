// The simulated tcgen05.mma (sim/tcgen05/tcgen05_arith.h, tcgen05_machine.h,
// tcgen05_vectors.h): MMA-Sim 2.1.1's Blackwell TCGen05MMA answers on
// edge-heavy inputs (tests/data/mmasim/tcgen05.sm_100.mmav, made by
// scripts/mmasim/tcgen05_record.py) replayed bit for bit through shared-memory
// descriptors and TMEM; kind::f16/tf32 outputs equal sm_100's mma.sync and
// kind::f8f6f4 outputs sm_120's mma.sync kind::f8f6f4, per output; each
// arithmetic column planted wrong is refuted; a wrong descriptor, TMEM
// address or word is refuted or named.
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <set>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/wgmma_model.h"
#include "sim/tcgen05/tcgen05_arith.h"
#include "sim/tcgen05/tcgen05_vectors.h"
#include "tests/support.h"

namespace test_tcgen05_sim {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

const std::vector<Tcgen05VectorCase>& mmasim_cases() {
  static const std::vector<Tcgen05VectorCase> cases =
      read_tcgen05_vectors(test::source_path("tests/data/mmasim/tcgen05.sm_100.mmav"));
  return cases;
}

std::string types_of(const Tcgen05Instr& i) {
  return std::string(tcgen05_kind_name(i.kind)) + "." + std::string(i.d->name) + "." + std::string(i.a->name) + "." +
         std::string(i.b->name);
}

Tcgen05Instr instr(Tcgen05Kind kind, int m, int n, std::string_view d, std::string_view a, std::string_view b) {
  return Tcgen05Instr{.kind = kind,
                      .m = m,
                      .n = n,
                      .d = find_tcgen05_d(kind, d),
                      .a = find_tcgen05_format(kind, a),
                      .b = find_tcgen05_format(kind, b)};
}

// The mma.sync over the same K and its architecture's row: sm_100's m16n8k16
// / m16n8k8 for kind::f16 and tf32, sm_120's m16n8k32 kind::f8f6f4.
struct MmaSyncOf {
  const MmaInst* inst;
  const ArchParams* arch;
};
MmaSyncOf mma_sync_of(const Tcgen05Instr& t) {
  const std::string d(t.d->name), a(t.a->name), b(t.b->name);
  const bool f8 = t.kind == Tcgen05Kind::f8f6f4;
  const std::string ptx = "mma.sync.aligned.m16n8k" + std::to_string(t.k()) + ".row.col." +
                          (f8 ? "kind::f8f6f4." : "") + d + "." + a + "." + b + "." + d;
  return {find_mma_inst(ptx), &arch_params(f8 ? "sm_120" : "sm_100")};
}

// D of the case computed as 16 x 8 mma.sync tiles; the outputs that differ from the recorded D.
int mma_sync_differences(const Tcgen05VectorCase& c, const MmaSyncOf& sync) {
  const int n = c.inst.n, k = c.inst.k();
  int differ = 0;
  for (int i0 = 0; i0 < c.inst.m; i0 += 16)
    for (int j0 = 0; j0 < n; j0 += 8) {
      std::vector<std::uint64_t> a(16 * k), b(k * 8), cc(16 * 8), d(16 * 8);
      for (int i = 0; i < 16; ++i)
        for (int kk = 0; kk < k; ++kk) a[i * k + kk] = c.a[(i0 + i) * k + kk];
      for (int kk = 0; kk < k; ++kk)
        for (int j = 0; j < 8; ++j) b[kk * 8 + j] = c.b[kk * n + j0 + j];
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) cc[i * 8 + j] = c.c[(i0 + i) * n + j0 + j];
      mma_tile(*sync.inst, *sync.arch, a, b, cc, d);
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) differ += d[i * 8 + j] != c.d[(i0 + i) * n + j0 + j];
    }
  return differ;
}

void write_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  REQUIRE(f);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

}  // namespace

TEST_CASE("the tcgen05 arithmetic agrees with MMA-Sim's Blackwell TCGen05MMA on every recorded case",
          "[tcgen05-sim][mmasim]") {
  const std::vector<Tcgen05VectorCase>& cases = mmasim_cases();
  const InstrVectorReport r = replay_tcgen05_vectors(cases, tcgen05_arith("sm_100"), 5);
  for (const InstrVectorMismatch& m : r.mismatches)
    UNSCOPED_INFO("case " << m.case_id << " " << m.instr << " D[" << m.row << "][" << m.col << "] MMA-Sim " << std::hex
                          << m.expected << ", mmacheck " << m.got);
  CHECK(r.failed == 0);
  CHECK(r.passed == static_cast<int>(cases.size()));
  // Every float row both model (f8f6f4: every pair of its five types), every edge kind, M = 64 and 128.
  std::set<std::string> rows, kinds;
  std::set<int> ms;
  for (const Tcgen05VectorCase& c : cases) {
    rows.insert(types_of(c.inst));
    kinds.insert(c.kind);
    ms.insert(c.inst.m);
  }
  std::set<std::string> want{"f16.f32.f16.f16", "f16.f16.f16.f16", "f16.f32.bf16.bf16", "tf32.f32.tf32.tf32"};
  for (const char* a : {"e4m3", "e5m2", "e3m2", "e2m3", "e2m1"})
    for (const char* b : {"e4m3", "e5m2", "e3m2", "e2m3", "e2m1"})
      want.insert(std::string("f8f6f4.f32.") + a + "." + b);
  CHECK(rows == want);
  CHECK(kinds == std::set<std::string>{"uniform", "bits", "cancel", "threshold", "zeroterm", "underflow", "ties",
                                       "overflow", "lowbits"});
  CHECK(ms == std::set<int>{64, 128});
}

TEST_CASE("tcgen05 outputs equal sm_100's mma.sync (f16, bf16, tf32) and sm_120's kind::f8f6f4 mma.sync",
          "[tcgen05-sim][mmasim]") {
  int cases = 0;
  for (const Tcgen05VectorCase& c : mmasim_cases()) {
    const MmaSyncOf sync = mma_sync_of(c.inst);
    INFO(tcgen05_name(c.inst) << " case " << c.id);
    REQUIRE(sync.inst);
    REQUIRE(has_model(*sync.inst, *sync.arch));
    CHECK(mma_sync_differences(c, sync) == 0);
    ++cases;
  }
  CHECK(cases == static_cast<int>(mmasim_cases().size()));
  // The row's columns say the same: sm_100's for 16-bit and tf32 inputs, sm_120's for f8f6f4.
  const ArchParams& t = tcgen05_arith("sm_100");
  const ArchParams& b = arch_params("sm_100");
  const ArchParams& rtx = arch_params("sm_120");
  CHECK((t.block_16bit == b.block_16bit && t.block_tf32 == b.block_tf32 && t.kept_bits == b.kept_bits &&
         t.zero_term_f32 == b.zero_term_f32 && t.zero_term_f16 == b.zero_term_f16));
  CHECK((t.fp8 == rtx.fp8 && t.block_fp8 == rtx.block_fp8 && t.kept_bits_fp8 == rtx.kept_bits_fp8 &&
         t.f32_frac_bits_fp8 == rtx.f32_frac_bits_fp8));
}

TEST_CASE("every column of the tcgen05 arithmetic row, planted wrong, is refuted by MMA-Sim's answers",
          "[tcgen05-sim][mmasim]") {
  const ArchParams& right = tcgen05_arith("sm_100");
  struct Plant {
    const char* what;
    ArchParams arith;
  };
  std::vector<Plant> plants;
  const auto plant = [&](const char* what, auto change) {
    ArchParams p = right;
    change(p);
    plants.push_back({what, p});
  };
  plant("kept bits 24 (Ampere)", [](ArchParams& p) { p.kept_bits = 24; });
  plant("f32 zero term -132", [](ArchParams& p) { p.zero_term_f32 = -132; });
  // (The f16 D's zero term, -21, is not planted, as in test_wgmma_sim.cc:
  // with an f16 C no term but a zero sits below 2^-14, so only products
  // below 2^-21 with C = 0 would show it; MMA-Sim's answers do not.)
  plant("f16 blocks of 8", [](ArchParams& p) { p.block_16bit = 8; });
  plant("tf32 blocks of 4", [](ArchParams& p) { p.block_tf32 = 4; });
  plant("f8f6f4 blocks of 16 (Ada)", [](ArchParams& p) { p.block_fp8 = 16; });
  plant("f8f6f4 kept bits 13 (Hopper's wgmma)", [](ArchParams& p) { p.kept_bits_fp8 = 13; });
  plant("f8f6f4 f32 result e8m13 (Hopper's wgmma)", [](ArchParams& p) { p.f32_frac_bits_fp8 = 13; });
  for (const Plant& p : plants) {
    INFO(p.what);
    CHECK(replay_tcgen05_vectors(mmasim_cases(), p.arith, 0).failed > 0);
  }
  // Hopper's wgmma row as a whole (fp8 at 13 bits, e8m13) is no tcgen05 row.
  CHECK(replay_tcgen05_vectors(mmasim_cases(), wgmma_arith("sm_90"), 0).failed > 0);
}

TEST_CASE("tcgen05 names: written, read back, and the forms not simulated refused", "[tcgen05-sim]") {
  const auto i = parse_tcgen05_name("tcgen05.mma.cta_group::1.kind::f8f6f4.m64n24k32.f32.e2m1.e3m2");
  REQUIRE(i);
  CHECK(i->m == 64);
  CHECK(i->n == 24);
  CHECK(i->k() == 32);
  CHECK(tcgen05_name(*i) == "tcgen05.mma.cta_group::1.kind::f8f6f4.m64n24k32.f32.e2m1.e3m2");
  CHECK(parse_tcgen05_name("tcgen05.mma.cta_group::1.kind::tf32.m128n256k8.f32.tf32.tf32"));
  CHECK_FALSE(parse_tcgen05_name("tcgen05.mma.cta_group::1.kind::f16.m128n16k32.f32.f16.f16"));    // K
  CHECK_FALSE(parse_tcgen05_name("tcgen05.mma.cta_group::1.kind::f16.m96n16k16.f32.f16.f16"));     // M
  CHECK_FALSE(parse_tcgen05_name("tcgen05.mma.cta_group::1.kind::f16.m128n16k16.f16.bf16.bf16"));  // bf16, f16 D
  CHECK_FALSE(parse_tcgen05_name("tcgen05.mma.cta_group::2.kind::f16.m256n16k16.f32.f16.f16"));    // not simulated
  CHECK_FALSE(parse_tcgen05_name("tcgen05.mma.cta_group::1.kind::i8.m128n16k32.s32.s8.s8"));       // not simulated
  CHECK(tcgen05_sim_problem(instr(Tcgen05Kind::i8, 128, 16, "s32", "s8", "u8")).find("kind::i8") != std::string::npos);
  Tcgen05Instr negated = instr(Tcgen05Kind::f16, 128, 16, "f32", "f16", "f16");
  negated.negate_b = true;
  CHECK(tcgen05_sim_problem(negated).find("negated") != std::string::npos);
  CHECK_THROWS_AS(tcgen05_arith("sm_90"), Error);
}

TEST_CASE("tcgen05 operands staged through a descriptor read back whole, another swizzle reads other bytes",
          "[tcgen05-sim]") {
  std::mt19937_64 rng(5);
  int runs = 0;
  for (const Tcgen05Instr& in :
       {instr(Tcgen05Kind::f16, 128, 24, "f32", "bf16", "bf16"), instr(Tcgen05Kind::tf32, 64, 8, "f32", "tf32", "tf32"),
        instr(Tcgen05Kind::f8f6f4, 128, 256, "f32", "e4m3", "e5m2"),
        instr(Tcgen05Kind::f8f6f4, 64, 16, "f32", "e2m1", "e3m2")}) {
    for (const Tcgen05LayoutChoice& l : tcgen05_replay_layouts(in)) {
      const Tcgen05Run run = tcgen05_replay_run(in, l);
      INFO(tcgen05_name(in) << ", " << tcgen05_layout_name(run));
      std::vector<std::uint64_t> a(std::size_t(in.m) * in.k()), b(std::size_t(in.k()) * in.n);
      for (auto& x : a) x = rng() & 0xFF;
      for (auto& x : b) x = rng() & 0xFF;
      std::vector<std::byte> image(run.image_bytes);
      stage_tcgen05_operand(run, 'A', a, image);
      stage_tcgen05_operand(run, 'B', b, image);
      CHECK(read_tcgen05_operand(run, 'A', image) == a);
      CHECK(read_tcgen05_operand(run, 'B', image) == b);
      Tcgen05Run wrong = run;
      wrong.a.swizzle = run.a.swizzle == Tcgen05Swizzle::b128 ? Tcgen05Swizzle::b64 : Tcgen05Swizzle::b128;
      std::vector<std::uint64_t> misread;
      try {
        misread = read_tcgen05_operand(wrong, 'A', image);
      } catch (const Error&) {
        ++runs;
        continue;  // read outside the image: refuted as well
      }
      CHECK(misread != a);
      ++runs;
    }
  }
  CHECK(runs == 8 + 8 + 8 + 4);  // MN-major layouts only where both types have it (not e2m1, e3m2)
}

TEST_CASE("the accumulator sits in TMEM by the data-path layout, an f16 D in a column's low half", "[tcgen05-sim]") {
  // M = 64 at lane 16: D[m][n] in lane 16 + m % 16 + 32 (m / 16), column C0 + n.
  const Tcgen05Run half = dense_tcgen05_run(instr(Tcgen05Kind::f16, 64, 8, "f32", "f16", "f16"), SwizzleMode::b128,
                                            SwizzleMode::b128, 16, 40);
  std::vector<std::uint64_t> tile(64 * 8);
  for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = i * 2654435761u & 0xFFFFFFFF;
  Tmem tmem;
  store_accumulator(half, tile, tmem);
  CHECK(tmem.at(16 + 5 + 32 * 2, 40 + 3) == tile[(32 + 5) * 8 + 3]);
  CHECK(tmem.at(5 + 32 * 2, 43) == 0);  // the lower half of the subpartition is not D's
  CHECK(load_accumulator(half, tmem) == tile);
  Tcgen05Run elsewhere = half;
  elsewhere.d_lane = 0;
  CHECK(load_accumulator(elsewhere, tmem) != tile);
  // M = 128, f16 D: lane m, column C0 + n, bits 15:0; bits 31:16 are left as they were.
  const Tcgen05Run f16 = dense_tcgen05_run(instr(Tcgen05Kind::f16, 128, 16, "f16", "f16", "f16"), SwizzleMode::none,
                                           SwizzleMode::none, 0, 496);
  Tmem t16;
  t16.at(100, 496 + 7) = 0xABCD0000;
  std::vector<std::uint64_t> d16(128 * 16);
  for (std::size_t i = 0; i < d16.size(); ++i) d16[i] = (i * 40503u) & 0xFFFF;
  store_accumulator(f16, d16, t16);
  CHECK(t16.at(100, 496 + 7) == (0xABCD0000 | d16[100 * 16 + 7]));
  CHECK(load_accumulator(f16, t16) == d16);
  // D past TMEM's 512 columns is refused.
  CHECK_THROWS_WITH(dense_tcgen05_run(instr(Tcgen05Kind::f16, 128, 32, "f32", "f16", "f16"), SwizzleMode::none,
                                      SwizzleMode::none, 0, 496),
                    Catch::Contains("do not fit"));
}

TEST_CASE("tcgen05 vector files: bad input is named at its line and column", "[tcgen05-sim]") {
  const std::string head = "instr tcgen05.mma.cta_group::1.kind::f16.m64n8k16.f32.f16.f16\ncase 0\n";
  CHECK_THROWS_WITH(parse_tcgen05_vectors("instr tcgen05.mma.cta_group::2.kind::f16.m128n16k16.f32.f16.f16\n", "x"),
                    Catch::Contains("x:1:7") && Catch::Contains("no tcgen05.mma instruction"));
  CHECK_THROWS_WITH(parse_tcgen05_vectors(head + "A 0001\n", "x"),
                    Catch::Contains("x:3:1") && Catch::Contains("expected 1024"));
  std::string bad_word = head + "B";
  for (int i = 0; i < 128; ++i) bad_word += i == 5 ? " 3g00" : " 3c00";
  CHECK_THROWS_WITH(parse_tcgen05_vectors(bad_word + "\n", "x"),
                    Catch::Contains("x:3:28") && Catch::Contains("'3g00' is no f16 hex word"));
  CHECK_THROWS_WITH(parse_tcgen05_vectors("case 0\n", "x"), Catch::Contains("x:1:1") && Catch::Contains("before any"));
  CHECK_THROWS_WITH(parse_tcgen05_vectors(head, "x"), Catch::Contains("x:2:1") && Catch::Contains("lacks one of"));
  // The text written is the text read.
  const std::vector<Tcgen05VectorCase> some(mmasim_cases().begin(), mmasim_cases().begin() + 3);
  const std::string text = tcgen05_vectors_text(some, {"made here"});
  const std::vector<Tcgen05VectorCase> back = parse_tcgen05_vectors(text, "y");
  // An empty file checks nothing: refused, as are negative and repeated case numbers and a second A line.
  CHECK_THROWS_WITH(parse_tcgen05_vectors("", "x"), Catch::Contains("x:1:1") && Catch::Contains("no test cases"));
  CHECK_THROWS_WITH(parse_tcgen05_vectors("# only a comment\n", "x"), Catch::Contains("no test cases"));
  CHECK_THROWS_WITH(parse_tcgen05_vectors(head.substr(0, head.find("case")) + "case -1\n", "x"),
                    Catch::Contains("x:2:6") && Catch::Contains("case number '-1' is not a non-negative integer"));
  const std::size_t second = text.find("\ncase ", text.find("\ncase ") + 1);
  const std::string case_line =
      text.substr(text.find("\ncase ") + 1, text.find('\n', text.find("\ncase ") + 1) - text.find("\ncase "));
  std::string repeated = text;
  repeated.replace(second + 1, repeated.find('\n', second + 1) - second, case_line);
  CHECK_THROWS_WITH(parse_tcgen05_vectors(repeated, "x"), Catch::Contains("repeats the case of line"));
  const std::size_t a_at = text.find("\nA ") + 1;
  const std::string a_line = text.substr(a_at, text.find('\n', a_at) + 1 - a_at);
  std::string twice = text;
  twice.insert(a_at, a_line);
  CHECK_THROWS_WITH(parse_tcgen05_vectors(twice, "x"), Catch::Contains("a second A line for case"));
  REQUIRE(back.size() == 3);
  CHECK(back[2].d == some[2].d);
  CHECK(back[1].a == some[1].a);
}

TEST_CASE("tcgen05-sim replays MMA-Sim's vectors and names a planted wrong word", "[tcgen05-sim][cli]") {
  const std::string path = test::source_path("tests/data/mmasim/tcgen05.sm_100.mmav");
  const test::RunResult good = test::run_mmacheck({"tcgen05-sim", "--vectors", path});
  CHECK(good.status == 0);
  CHECK(good.out.find(" 0 failed (") != std::string::npos);
  std::vector<Tcgen05VectorCase> cases(mmasim_cases().begin(), mmasim_cases().begin() + 2);
  cases[1].d[77] ^= 1;
  const std::string planted = "/tmp/mmacheck_tcgen05_planted.mmav";
  write_file(planted, tcgen05_vectors_text(cases, {}));
  const test::RunResult bad = test::run_mmacheck({"tcgen05-sim", planted});
  CHECK(bad.status == 1);
  const int n = cases[1].inst.n;
  CHECK(bad.out.find("case " + std::to_string(cases[1].id) + " " + tcgen05_name(cases[1].inst) + " D[" +
                     std::to_string(77 / n) + "][" + std::to_string(77 % n) + "]") != std::string::npos);
  CHECK(bad.out.find("1 passed, 1 failed") != std::string::npos);
  write_file(planted, "instr tcgen05.mma.cta_group::1.kind::f16.m64n8k16.f32.f16.f16\ncase x\n");
  const test::RunResult malformed = test::run_mmacheck({"tcgen05-sim", planted});
  std::remove(planted.c_str());
  CHECK(malformed.status == 2);
  CHECK(malformed.err.find(planted + ":2:6: error: case number 'x' is not a non-negative integer") !=
        std::string::npos);
  CHECK(test::run_mmacheck({"tcgen05-sim", "/nonexistent.mmav"}).status == 2);
  CHECK(test::run_mmacheck({"tcgen05-sim", path, "--arch", "sm_90"}).status == 2);
}

}  // namespace test_tcgen05_sim
