// The simulated wgmma (sim/numerics/wgmma_model.h, sim/wgmma/): MMA-Sim
// 2.1.1's Hopper WGMMA answers on edge-heavy inputs
// (tests/data/mmasim/wgmma.sm_90.mmav, made by scripts/mmasim/wgmma_record.py)
// replayed bit for bit through shared memory, descriptors and frames; the
// f16/bf16/tf32 rows equal sm_90's mma.sync per output, fp8 does not (native,
// not CUDA's emulation); each arithmetic column planted wrong is refuted;
// staging and frames refute a wrong descriptor or frame.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "core/wgmma/wgmma_check.h"
#include "core/wgmma/wgmma_reader.h"
#include "core/wgmma/wgmma_frame.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/wgmma_model.h"
#include "sim/wgmma/wgmma_vectors.h"
#include "tests/support.h"

namespace test_wgmma_sim {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

const std::vector<WgmmaVectorCase>& mmasim_cases() {
  static const std::vector<WgmmaVectorCase> cases =
      read_wgmma_vectors(test::source_path("tests/data/mmasim/wgmma.sm_90.mmav"));
  return cases;
}

std::string types_of(const WgmmaInst& i) {
  return std::string(dtype_info(i.d).ptx) + "." + std::string(dtype_info(i.a).ptx) + "." +
         std::string(dtype_info(i.b).ptx);
}

// The mma.sync of sm_90 over the same K: m16n8k16 (f16, bf16), m16n8k8 (tf32), m16n8k32 (fp8).
const MmaInst* mma_sync_of(const WgmmaInst& w) {
  const std::string d(dtype_info(w.d).ptx);
  return find_mma_inst("mma.sync.aligned.m16n8k" + std::to_string(w.k()) + ".row.col." + d + "." +
                       std::string(dtype_info(w.a).ptx) + "." + std::string(dtype_info(w.b).ptx) + "." + d);
}

// D of the case computed as 16 x 8 mma.sync tiles on sm_90; the outputs that differ from the recorded D.
int mma_sync_differences(const WgmmaVectorCase& c, const MmaInst& inst) {
  const int n = c.inst.n, k = c.inst.k();
  int differ = 0;
  for (int i0 = 0; i0 < 64; i0 += 16)
    for (int j0 = 0; j0 < n; j0 += 8) {
      std::vector<std::uint64_t> a(16 * k), b(k * 8), cc(16 * 8), d(16 * 8);
      for (int i = 0; i < 16; ++i)
        for (int kk = 0; kk < k; ++kk) a[i * k + kk] = c.a[(i0 + i) * k + kk];
      for (int kk = 0; kk < k; ++kk)
        for (int j = 0; j < 8; ++j) b[kk * 8 + j] = c.b[kk * n + j0 + j];
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) cc[i * 8 + j] = c.c[(i0 + i) * n + j0 + j];
      mma_tile(inst, arch_params("sm_90"), a, b, cc, d);
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) differ += d[i * 8 + j] != c.d[(i0 + i) * n + j0 + j];
    }
  return differ;
}

}  // namespace

TEST_CASE("the wgmma arithmetic agrees with MMA-Sim's Hopper WGMMA on every recorded case", "[wgmma][mmasim]") {
  const std::vector<WgmmaVectorCase>& cases = mmasim_cases();
  const InstrVectorReport r = replay_wgmma_vectors(cases, wgmma_arith("sm_90"), 5);
  for (const InstrVectorMismatch& m : r.mismatches)
    UNSCOPED_INFO("case " << m.case_id << " " << m.instr << " D[" << m.row << "][" << m.col << "] MMA-Sim " << std::hex
                          << m.expected << ", mmacheck " << m.got);
  CHECK(r.failed == 0);
  CHECK(r.passed == static_cast<int>(cases.size()));
  // Every float type row MMA-Sim models, every kind, N = 8 and 24.
  std::set<std::string> rows, kinds;
  std::set<int> ns;
  for (const WgmmaVectorCase& c : cases) {
    rows.insert(types_of(c.inst));
    kinds.insert(c.kind);
    ns.insert(c.inst.n);
  }
  std::set<std::string> want;
  for (const WgmmaTypes& t : wgmma_type_rows())
    if (t.d != DType::s32) want.insert(types_of(WgmmaInst{.n = 8, .d = t.d, .a = t.a, .b = t.b}));
  CHECK(rows == want);
  CHECK(kinds == std::set<std::string>{"uniform", "bits", "cancel", "threshold", "zeroterm", "underflow", "ties",
                                       "overflow", "lowbits"});
  CHECK(ns == std::set<int>{8, 24});
}

TEST_CASE("f16, bf16 and tf32 wgmma equal sm_90's mma.sync per output; fp8 wgmma does not", "[wgmma][mmasim]") {
  int fused_rows = 0, fp8_differ = 0;
  for (const WgmmaVectorCase& c : mmasim_cases()) {
    const MmaInst* inst = mma_sync_of(c.inst);
    if (!inst || !has_model(*inst, arch_params("sm_90"))) continue;
    INFO(c.inst.ptx() << " case " << c.id);
    if (is_f8f6f4(c.inst.a)) {
      fp8_differ += mma_sync_differences(c, *inst);
    } else {
      CHECK(mma_sync_differences(c, *inst) == 0);
      ++fused_rows;
    }
  }
  CHECK(fused_rows == 4 * 12);  // four rows, 12 cases each
  // CUDA's emulation (f16 blocks, then an f32 add of C) is no native fp8 block.
  CHECK(fp8_differ > 0);
}

TEST_CASE("every column of the wgmma arithmetic row, planted wrong, is refuted by MMA-Sim's answers",
          "[wgmma][mmasim]") {
  const ArchParams& right = wgmma_arith("sm_90");
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
  // (The f16 output's zero term, -21, is not planted: with f16 C no term but
  // a zero sits below 2^-14, so only products below 2^-21 with C = 0 would
  // show it, at a tie of the final rounding; MMA-Sim's answers do not.)
  plant("f16 blocks of 8", [](ArchParams& p) { p.block_16bit = 8; });
  plant("tf32 blocks of 4", [](ArchParams& p) { p.block_tf32 = 4; });
  plant("fp8 blocks of 16 (Ada)", [](ArchParams& p) { p.block_fp8 = 16; });
  plant("fp8 kept bits 25", [](ArchParams& p) { p.kept_bits_fp8 = 25; });
  plant("fp8 f32 result to 23 bits, not e8m13", [](ArchParams& p) { p.f32_frac_bits_fp8 = 23; });
  for (const Plant& p : plants) {
    INFO(p.what);
    CHECK(replay_wgmma_vectors(mmasim_cases(), p.arith, 0).failed > 0);
  }
}

TEST_CASE("wgmma instructions: names, rows and invalid ones", "[wgmma]") {
  const auto inst = parse_wgmma_inst("wgmma.mma_async.sync.aligned.m64n256k32.f16.e5m2.e4m3");
  REQUIRE(inst);
  CHECK(inst->n == 256);
  CHECK(inst->k() == 32);
  CHECK(inst->ptx() == "wgmma.mma_async.sync.aligned.m64n256k32.f16.e5m2.e4m3");
  CHECK(parse_wgmma_inst("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32")->k() == 8);
  CHECK(parse_wgmma_inst("wgmma.mma_async.sync.aligned.m64n48k32.satfinite.s32.s8.u8")->satfinite);
  CHECK_FALSE(parse_wgmma_inst("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.bf16"));   // mixed 16-bit types
  CHECK_FALSE(parse_wgmma_inst("wgmma.mma_async.sync.aligned.m64n64k16.f16.bf16.bf16"));  // bf16 has no f16 D
  CHECK_FALSE(parse_wgmma_inst("wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16"));    // N
  CHECK_FALSE(parse_wgmma_inst("wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8"));      // s32: N > 32 steps 16
  CHECK_FALSE(parse_wgmma_inst("wgmma.mma_async.sync.aligned.m64n64k32.f32.f16.f16"));    // K
  CHECK(wgmma_type_rows().size() == 16);
  CHECK_THROWS_AS(wgmma_arith("sm_80"), Error);
}

TEST_CASE("integer wgmma: exact sums that wrap, or clamp with .satfinite", "[wgmma]") {
  WgmmaInst inst{.n = 8, .d = DType::s32, .a = DType::s8, .b = DType::u8};
  std::vector<std::uint64_t> a(64 * 32, 0x80), b(32 * 8, 0xFF), c(64 * 8, 0x80000000u), d(64 * 8);
  wgmma_tile(inst, wgmma_arith("sm_90"), a, b, c, d);
  const std::int64_t want = std::int64_t{INT32_MIN} + 32 * (-128) * 255;
  CHECK(d[0] == static_cast<std::uint32_t>(want));
  inst.satfinite = true;
  wgmma_tile(inst, wgmma_arith("sm_90"), a, b, c, d);
  CHECK(d[5] == 0x80000000u);
}

TEST_CASE("operands staged through a descriptor read back whole; a wrong field reads other bytes", "[wgmma]") {
  std::mt19937_64 rng(7);
  for (const WgmmaTypes& t : wgmma_type_rows()) {
    for (int n : {8, 24, 256}) {
      const WgmmaInst inst{.n = n, .d = t.d, .a = t.a, .b = t.b};
      if (!inst.problem().empty()) continue;
      for (const WgmmaLayoutChoice& l : wgmma_replay_layouts(inst)) {
        WgmmaRun run = dense_wgmma_run(inst, l.a_major, l.a_mode, l.b_major, l.b_mode);
        INFO(inst.ptx() << ", " << layout_name(run));
        std::vector<std::uint64_t> a(64 * inst.k()), b(std::size_t(inst.k()) * n);
        for (auto& x : a) x = rng() & dtype_mask(t.a);
        for (auto& x : b) x = rng() & dtype_mask(t.b);
        std::vector<std::byte> image(run.image_bytes);
        stage_operand(run, 'A', a, image);
        stage_operand(run, 'B', b, image);
        CHECK(read_operand(run, 'A', image) == a);
        CHECK(read_operand(run, 'B', image) == b);
        // The instruction given another swizzle mode reads the same bytes elsewhere.
        WgmmaRun wrong = run;
        wrong.b.descriptor.swizzle =
            run.b.descriptor.swizzle == SwizzleMode::b128 ? SwizzleMode::b64 : SwizzleMode::b128;
        std::vector<std::uint64_t> misread;
        try {
          misread = read_operand(wrong, 'B', image);
        } catch (const Error&) {
          continue;  // read outside the image: refuted as well
        }
        CHECK(misread != b);
      }
    }
  }
}

TEST_CASE("accumulator words follow the frame: every element once, f16 two to a word", "[wgmma]") {
  for (const WgmmaInst& inst : {WgmmaInst{.n = 24, .d = DType::f32, .a = DType::f16, .b = DType::f16},
                                WgmmaInst{.n = 16, .d = DType::f16, .a = DType::e4m3, .b = DType::e5m2},
                                WgmmaInst{.n = 256, .d = DType::f32, .a = DType::tf32, .b = DType::tf32}}) {
    INFO(inst.ptx());
    std::vector<std::uint64_t> tile(64 * inst.n);
    for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = (i * 2654435761u + 1) & dtype_mask(inst.d);
    const std::vector<std::uint32_t> words = accumulator_words(inst, tile);
    CHECK(words.size() == std::size_t(128) * (inst.d == DType::f16 ? inst.n / 4 : inst.n / 2));
    CHECK(accumulator_tile(inst, words) == tile);
    // Thread 37 (warp 1, g 1, t 1) holds D[17][2..3] first (the ISA's Figure 149).
    const int regs = accumulator_regs(inst);
    const std::uint64_t first = inst.d == DType::f16 ? words[37 * regs] & 0xFFFF : words[37 * regs];
    CHECK(first == tile[17 * inst.n + 2]);
    // Another frame's order is another tile.
    std::vector<std::uint32_t> swapped = words;
    std::swap(swapped[0], swapped[regs]);
    CHECK(accumulator_tile(inst, swapped) != tile);
  }
}

TEST_CASE("wgmma vector files: bad input is named at its line", "[wgmma]") {
  CHECK_THROWS_WITH(parse_wgmma_vectors("instr wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.bf16\n", "x.mmav"),
                    Catch::Contains("x.mmav:1:7") && Catch::Contains("no wgmma instruction"));
  CHECK_THROWS_WITH(
      parse_wgmma_vectors("instr wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16\ncase 0\nA 0001\n", "x.mmav"),
      Catch::Contains("x.mmav:3:1") && Catch::Contains("expected 1024"));
  CHECK_THROWS_WITH(parse_wgmma_vectors("case 0\n", "x.mmav"), Catch::Contains("before any instr"));
  // The text written is the text read.
  const std::vector<WgmmaVectorCase> some(mmasim_cases().begin(), mmasim_cases().begin() + 3);
  const std::string text = wgmma_vectors_text(some, {"made here"});
  const std::vector<WgmmaVectorCase> back = parse_wgmma_vectors(text, "y");
  // An empty file checks nothing: refused, as are negative and repeated case numbers and a second B line.
  CHECK_THROWS_WITH(parse_wgmma_vectors("", "x.mmav"),
                    Catch::Contains("x.mmav:1:1") && Catch::Contains("no test cases"));
  CHECK_THROWS_WITH(parse_wgmma_vectors("instr wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16\ncase -3\n", "x.mmav"),
                    Catch::Contains("x.mmav:2:6") && Catch::Contains("case number '-3' is not a non-negative integer"));
  const std::size_t first = text.find("\ncase ") + 1, second = text.find("\ncase ", first) + 1;
  std::string repeated = text;
  repeated.replace(second, repeated.find('\n', second) - second, text.substr(first, text.find('\n', first) - first));
  CHECK_THROWS_WITH(parse_wgmma_vectors(repeated, "x.mmav"), Catch::Contains("repeats the case of line"));
  const std::size_t b_at = text.find("\nB ") + 1;
  std::string twice = text;
  twice.insert(b_at, text.substr(b_at, text.find('\n', b_at) + 1 - b_at));
  CHECK_THROWS_WITH(parse_wgmma_vectors(twice, "x.mmav"), Catch::Contains("a second B line for case"));
  REQUIRE(back.size() == 3);
  CHECK(back[2].d == some[2].d);
  CHECK(back[1].b == some[1].b);
}

TEST_CASE("wgmma-sim replays MMA-Sim's vectors and names a planted wrong word", "[wgmma][cli]") {
  const std::string path = test::source_path("tests/data/mmasim/wgmma.sm_90.mmav");
  const test::RunResult good = test::run_mmacheck({"wgmma-sim", "--vectors", path});
  CHECK(good.status == 0);
  CHECK(good.out.find(" 0 failed") != std::string::npos);
  std::vector<WgmmaVectorCase> cases(mmasim_cases().begin(), mmasim_cases().begin() + 2);
  cases[1].d[77] ^= 1;
  const std::string planted = "/tmp/mmacheck_wgmma_planted.mmav";
  {
    std::FILE* f = std::fopen(planted.c_str(), "w");
    REQUIRE(f);
    const std::string text = wgmma_vectors_text(cases, {});
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  const test::RunResult bad = test::run_mmacheck({"wgmma-sim", planted});
  std::remove(planted.c_str());
  CHECK(bad.status == 1);
  CHECK(bad.out.find("D[" + std::to_string(77 / cases[1].inst.n) + "][" + std::to_string(77 % cases[1].inst.n) + "]") !=
        std::string::npos);
  CHECK(bad.out.find("1 passed, 1 failed") != std::string::npos);
  CHECK(test::run_mmacheck({"wgmma-sim", "/nonexistent.mmav"}).status == 2);
}

TEST_CASE("a proved example operand, read through its own descriptor, gives the D of a dense layout",
          "[wgmma][examples]") {
  std::mt19937_64 rng(11);
  int runs = 0;
  for (const char* name : {"k_none_f16", "k_sw128_f16", "k_sw32_tf32", "k_sw64_bf16", "mn_none_bf16", "mn_sw128_f16"}) {
    const std::string path = test::source_path(std::string("examples/wgmma/") + name + ".txt");
    for (const WgmmaCase& c : read_wgmma_file(test::read_file(path), path)) {
      INFO(path << " " << c.name);
      REQUIRE(check_wgmma(c).result == FrameVerdict::proved);
      const DType t = *parse_dtype(c.operand.type->name);
      const WgmmaInst inst{.n = c.operand.operand == 'B' ? c.operand.rows : 64, .d = DType::f32, .a = t, .b = t};
      std::int64_t end = 0;
      for (std::int64_t addr : c.placed) end = std::max(end, addr + c.operand.type->bytes);
      const WgmmaRun run =
          partnered_wgmma_run(inst, c.operand.operand, {c.descriptor, c.operand.major}, end, SwizzleMode::b128);
      const WgmmaRun dense = dense_wgmma_run(inst, Major::k, SwizzleMode::none, Major::k, SwizzleMode::none);
      std::vector<std::uint64_t> a(64 * inst.k()), b(std::size_t(inst.k()) * inst.n), cc(64 * inst.n);
      for (auto& x : a) x = (rng() & 0x3FF) | 0x3800;  // f16/bf16/tf32 bits: small positive values
      for (auto& x : b) x = (rng() & 0x3FF) | 0x3400;
      for (auto& x : cc) x = rng() & 0x3FFFFFFF;
      if (t == DType::tf32) {
        for (auto& x : a) x <<= 16;
        for (auto& x : b) x <<= 16;
      }
      std::vector<std::byte> image(run.image_bytes), dense_image(dense.image_bytes);
      for (const auto& [r, img] : {std::pair{&run, &image}, std::pair{&dense, &dense_image}}) {
        stage_operand(*r, 'A', a, *img);
        stage_operand(*r, 'B', b, *img);
      }
      // The program's placement is where the descriptor reads: element (i, k) at c.placed.
      const std::vector<std::uint64_t>& given = c.operand.operand == 'A' ? a : b;
      const int i = c.operand.rows - 1, k = c.operand.k - 1;
      const std::uint64_t want =
          c.operand.operand == 'A' ? given[std::size_t(i) * inst.k() + k] : given[std::size_t(k) * inst.n + i];
      CHECK(std::to_integer<std::uint64_t>(image[c.placed[std::size_t(i) * c.operand.k + k]]) == (want & 0xFF));
      const std::vector<std::uint32_t> cw = accumulator_words(inst, cc);
      CHECK(run_wgmma(run, wgmma_arith("sm_90"), image, cw) == run_wgmma(dense, wgmma_arith("sm_90"), dense_image, cw));
      ++runs;
    }
  }
  CHECK(runs == 10);  // every operand of the six proved examples
}

}  // namespace test_wgmma_sim
