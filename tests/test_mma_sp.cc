// mma.sp (docs/mma-sp.md): the instruction rows and their frames
// (core/gemm/sparse_inst.h), the ISA's metadata placement
// (core/gemm/sparse_metadata.h), the arithmetic hypotheses
// (sim/numerics/sparse_model.h) and the sparse vector files
// (sim/vectors/sparse_vectors.h).
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "core/gemm/sparse_metadata.h"
#include "sim/numerics/float_format.h"
#include "sim/numerics/sparse_inputs.h"
#include "sim/numerics/sparse_model.h"
#include "sim/vectors/sparse_vectors.h"
#include "tests/support.h"

namespace test_mma_sp {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

const SparseMmaInst& sp(const std::string& tag) {
  const SparseMmaInst* s = find_sparse_inst(tag);
  REQUIRE(s);
  return *s;
}

// Every element of the frame's tile held by exactly one (lane, element).
void require_bijection(const Frame& f) {
  std::map<std::pair<int, int>, int> seen;
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < f.elems(); ++e) {
      const TileCoord at = f.at(lane, e);
      REQUIRE(at.row >= 0);
      REQUIRE(at.row < f.rows);
      REQUIRE(at.col >= 0);
      REQUIRE(at.col < f.cols);
      ++seen[{at.row, at.col}];
    }
  CHECK(seen.size() == static_cast<std::size_t>(f.rows * f.cols));
  for (const auto& [at, n] : seen) CHECK(n == 1);
}

}  // namespace

TEST_CASE("mma.sp rows: PTX names, both spellings, frames of the compressed A", "[mma-sp]") {
  const SparseMmaInst& k16 = sp("sp.m16n8k16.f16");
  CHECK(k16.ptx() == "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  CHECK(k16.ptx(false) == "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  CHECK(find_sparse_inst("mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32") == &sp("sp.m16n8k32.bf16"));
  CHECK(find_sparse_inst("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16") ==
        &sp("sp.m16n8k32.f16.f16acc"));
  CHECK(find_sparse_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32") == nullptr);
  // The ISA: k16's A is two registers (a0..a3), k32's four; B two and four.
  CHECK(k16.a_frame().regs == 2);
  CHECK(k16.b_frame().regs == 2);
  CHECK(sp("sp.m16n8k32.f16").a_frame().regs == 4);
  CHECK(sp("sp.m16n8k32.f16").b_frame().regs == 4);
  CHECK(sp("sp.m16n8k32.f16.f16acc").c_frame().regs == 2);
  // k16: lane 5 (g 1, t 1) a2 is compressed A[9][2], i.e. chunk 1 = logical columns 4..7.
  CHECK(k16.a_frame().at(5, 2) == TileCoord{9, 2});
  // k32 B: b5 of lane 6 (g 1, t 2) is B[4 + 1 + 16][1].
  CHECK(sp("sp.m16n8k32.f16").b_frame().at(6, 5) == TileCoord{21, 1});
  for (const SparseMmaInst& s : sparse_instructions()) {
    INFO(s.tag);
    CHECK(s.a_frame().rows == s.m);
    CHECK(s.a_frame().cols == s.k / 2);
    CHECK(s.b_frame().rows == s.k);
    CHECK(s.meta_threads() * s.selectors() == 4);
    require_bijection(s.a_frame());
    require_bijection(s.b_frame());
    require_bijection(s.c_frame());
  }
}

TEST_CASE("mma.sp metadata: each selector's lanes describe every chunk of A exactly once", "[mma-sp]") {
  for (const SparseMmaInst& s : sparse_instructions())
    for (int f = 0; f < s.selectors(); ++f) {
      INFO(s.tag << " f=" << f);
      std::map<std::pair<int, int>, int> seen;
      std::set<int> holders;
      for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < kMetaNibbles; ++j)
          if (const auto slot = isa_meta_slot(s, f, lane, j)) {
            holders.insert(lane % 4);
            ++seen[{slot->row, slot->chunk}];
            // A lane's metadata is for its own quad's rows, g and g + 8.
            CHECK(slot->row % 8 == lane / 4);
          }
      CHECK(holders.size() == static_cast<std::size_t>(s.meta_threads()));
      CHECK(*holders.begin() == f * s.meta_threads());
      CHECK(seen.size() == static_cast<std::size_t>(s.m * s.chunks_per_row()));
      for (const auto& [at, n] : seen) CHECK(n == 1);
    }
  const SparseMmaInst& k32 = sp("sp.m16n8k32.f16");
  CHECK(isa_meta_slot(k32, 1, 7, 5) == MetaSlot{9, 5});
  CHECK(isa_meta_slot(k32, 1, 6, 1) == MetaSlot{1, 1});
  CHECK_FALSE(isa_meta_slot(k32, 0, 7, 5));
  // k16, selector 2: lane 4g + 2 holds rows g (bits 0..15) and g + 8 (16..31).
  const SparseMmaInst& k16 = sp("sp.m16n8k16.bf16");
  CHECK(isa_meta_slot(k16, 2, 14, 6) == MetaSlot{11, 2});
  CHECK_FALSE(isa_meta_slot(k16, 2, 13, 6));
}

TEST_CASE("mma.sp metadata registers and grid round-trip", "[mma-sp]") {
  for (const SparseMmaInst& s : sparse_instructions())
    for (int f = 0; f < s.selectors(); ++f) {
      const SparseInputs in = random_sparse_inputs(s, f, Distribution::normal, false, 3, f);
      const std::vector<std::uint32_t> e = meta_registers(s, f, in.meta);
      CHECK(meta_grid(s, f, e) == in.meta);
      for (int lane = 0; lane < 32; ++lane)
        if (lane % 4 / s.meta_threads() != f) CHECK(e[lane] == 0);
    }
  // k16 f = 0: lane 4 (g 1) holds row 1's chunks in bits 0..15, row 9's above.
  const SparseMmaInst& k16 = sp("sp.m16n8k16.f16");
  MetaGrid grid(16 * 4, meta_nibble(0, 1));
  grid[1 * 4 + 2] = meta_nibble(1, 3);
  grid[9 * 4 + 0] = meta_nibble(2, 3);
  CHECK(meta_registers(k16, 0, grid)[4] == 0x444E4D44u);
}

TEST_CASE("mma.sp arithmetic: kept elements land at their metadata's columns", "[mma-sp]") {
  // Row 0 keeps 1.0 at column 1 and 2.0 at column 2 (chunk 0, indices 1, 2);
  // B[1][0] = 3, B[2][0] = 0.5, B[0][0] = 100 (pruned): D[0][0] = 3 + 1 = 4.
  const SparseMmaInst& s = sp("sp.m16n8k16.f16");
  std::vector<std::uint64_t> a(16 * 8, 0), b(16 * 8, 0), c(16 * 8, 0), d(16 * 8, 0);
  MetaGrid meta(16 * 4, meta_nibble(0, 1));
  meta[0] = meta_nibble(1, 2);
  a[0] = 0x3c00;
  a[1] = 0x4000;
  b[0 * 8 + 0] = 0x5640;  // 100
  b[1 * 8 + 0] = 0x4200;  // 3
  b[2 * 8 + 0] = 0x3800;  // 0.5
  for (const SparseArith h : kAllSparseArith) {
    sparse_mma_tile(s, arch_params("sm_90"), h, a, meta, b, c, d);
    CHECK(d[0] == 0x40800000);
  }
  const std::vector<std::uint64_t> full = decompress_a(s, a, meta);
  CHECK(full[1] == 0x3c00);
  CHECK(full[2] == 0x4000);
  CHECK(full[0] == 0);
  meta[5] = 0x5;  // indices 1, 1
  CHECK_THROWS_WITH(sparse_mma_tile(s, arch_params("sm_90"), SparseArith::zeros, a, meta, b, c, d),
                    Catch::Contains("row 1 chunk 1 names index 1 twice"));
}

TEST_CASE("mma.sp hypotheses: zeros is the dense mma of the decompressed A; where they part", "[mma-sp]") {
  const ArchParams& sm90 = arch_params("sm_90");
  const SparseMmaInst& k16 = sp("sp.m16n8k16.f16");
  const MmaInst* dense = find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  REQUIRE(dense);
  int pruned_nan = 0, packed_differs = 0;
  for (int i = 0; i < 48; ++i) {
    const Distribution kind = case_distribution(i, InputSet::all);
    const SparseInputs in = random_sparse_inputs(k16, 0, kind, i % 3 == 2, 11, i);
    std::vector<std::uint64_t> zeros(128), kept(128), ref(128);
    sparse_mma_tile(k16, sm90, SparseArith::zeros, in.a, in.meta, in.b, in.c, zeros);
    sparse_mma_tile(k16, sm90, SparseArith::kept, in.a, in.meta, in.b, in.c, kept);
    mma_tile(*dense, sm90, decompress_a(k16, in.a, in.meta), in.b, in.c, ref);
    CHECK(zeros == ref);
    const FloatFormat& fb = float_format(DType::f16);
    bool b_finite = true;
    for (const std::uint64_t w : in.b) b_finite = b_finite && decode(fb, w).cls == FpClass::finite;
    if (b_finite) {
      // No special at a pruned row: a pruned zero term never sets the
      // alignment exponent (C's own term is at least zero_term_exp), so the two agree.
      CHECK(zeros == kept);
    } else if (i % 3 == 2) {
      // Inf/NaN in B at a row A's row 0 prunes: 0 * Inf = NaN for zeros only.
      const FloatFormat& f32 = float_format(DType::f32);
      for (int j = 0; j < 8; ++j)
        pruned_nan += decode(f32, zeros[j]).cls == FpClass::nan && decode(f32, kept[j]).cls != FpClass::nan;
    }
  }
  CHECK(pruned_nan > 0);
  // k32 on sm_90: zeros and kept chain two blocks of 16 logical positions,
  // kept-packed fuses all 16 kept products into one block.
  const SparseMmaInst& k32 = sp("sp.m16n8k32.bf16");
  for (int i = 0; i < 16; ++i) {
    const SparseInputs in = random_sparse_inputs(k32, 1, Distribution::normal, false, 5, i);
    std::vector<std::uint64_t> zeros(128), kept(128), packed(128);
    sparse_mma_tile(k32, sm90, SparseArith::zeros, in.a, in.meta, in.b, in.c, zeros);
    sparse_mma_tile(k32, sm90, SparseArith::kept, in.a, in.meta, in.b, in.c, kept);
    sparse_mma_tile(k32, sm90, SparseArith::kept_packed, in.a, in.meta, in.b, in.c, packed);
    CHECK(zeros == kept);
    packed_differs += zeros != packed;
  }
  CHECK(packed_differs > 0);
  CHECK(parse_sparse_arith("kept-packed") == SparseArith::kept_packed);
  CHECK_FALSE(parse_sparse_arith("dense"));
}

TEST_CASE("mma.sp integer rows: 8-bit frames, one selector at k64, exact sums, .satfinite clamps", "[mma-sp]") {
  const SparseMmaInst& k64 = sp("sp.m16n8k64.s8");
  CHECK(k64.ptx() == "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32");
  CHECK(sp("sp.m16n8k32.s8.satfinite").ptx(false) == "mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32");
  CHECK(find_sparse_inst("mma.sp.sync.aligned.m16n8k64.row.col.s32.u8.s8.s32") == &sp("sp.m16n8k64.u8.s8"));
  CHECK(k64.meta_threads() == 4);
  CHECK(k64.selectors() == 1);
  CHECK(sp("sp.m16n8k32.u8").selectors() == 2);
  // Compressed A (16 x 32 bytes) is the dense m16n8k32 8-bit A: lane 6 (g 1,
  // t 2) a13 is row 9, column 8 + 1 + 16.  B's b13 there is row 8 + 1 + 48.
  CHECK(k64.a_frame().at(6, 13) == TileCoord{9, 25});
  CHECK(k64.b_frame().at(6, 13) == TileCoord{57, 1});
  // 8-bit: a holder lane carries 8 chunks of one row.  k64 (f = 0): lanes
  // 4g, 4g+1 hold chunks 0..7 of rows g, g+8; lanes 4g+2, 4g+3 chunks 8..15.
  CHECK(isa_meta_slot(k64, 0, 6, 5) == MetaSlot{1, 13});
  CHECK(isa_meta_slot(k64, 0, 7, 0) == MetaSlot{9, 8});
  CHECK(isa_meta_slot(k64, 0, 5, 7) == MetaSlot{9, 7});
  // k32, f = 1: lane 4g+2 holds row g, lane 4g+3 row g+8.
  CHECK(isa_meta_slot(sp("sp.m16n8k32.s8"), 1, 7, 6) == MetaSlot{9, 6});
  CHECK_FALSE(isa_meta_slot(sp("sp.m16n8k32.s8"), 1, 5, 6));

  // Row 0 keeps -3 at column 62 and 5 at column 63 (chunk 15, indices 2, 3);
  // B[62][0] = 7, B[63][0] = -2, B[60][0] = 100 (pruned): D = C - 21 - 10.
  std::vector<std::uint64_t> a(16 * 32, 0), b(64 * 8, 0), c(16 * 8, 0), d(16 * 8, 0);
  MetaGrid meta(16 * 16, meta_nibble(0, 1));
  meta[15] = meta_nibble(2, 3);
  a[30] = 0xFD;  // -3
  a[31] = 0x05;
  b[62 * 8] = 0x07;
  b[63 * 8] = 0xFE;  // -2 as s8, 254 as u8
  b[60 * 8] = 0x64;
  c[0] = 1000;
  for (const SparseArith h : kAllSparseArith) {
    sparse_mma_tile(k64, arch_params("sm_90"), h, a, meta, b, c, d);
    CHECK(d[0] == 1000 - 21 - 10);
  }
  sparse_mma_tile(sp("sp.m16n8k64.s8.u8"), arch_params("sm_90"), SparseArith::zeros, a, meta, b, c, d);
  CHECK(d[0] == static_cast<std::uint32_t>(1000 - 21 + 5 * 254));
  // C at INT32_MAX: plain wraps, .satfinite clamps.
  c[0] = 0x7FFFFFFF;
  a[30] = 0x01;
  sparse_mma_tile(k64, arch_params("sm_90"), SparseArith::zeros, a, meta, b, c, d);
  CHECK(d[0] == 0x7FFFFFFFu + 7u - 10u);  // 7 - 10 < 0: no overflow yet
  b[63 * 8] = 0x02;
  sparse_mma_tile(k64, arch_params("sm_90"), SparseArith::zeros, a, meta, b, c, d);
  CHECK(d[0] == 0x80000010u);  // INT32_MAX + 17 wraps
  sparse_mma_tile(sp("sp.m16n8k64.s8.satfinite"), arch_params("sm_90"), SparseArith::zeros, a, meta, b, c, d);
  CHECK(d[0] == 0x7FFFFFFFu);
  // Random cases: the three hypotheses are one, and zeros is the dense
  // integer mma of the decompressed A.
  for (const SparseMmaInst* s : {&sp("sp.m16n8k32.u8.s8"), &k64}) {
    const MmaInst dense = s->logical();
    for (int i = 0; i < 6; ++i) {
      const SparseInputs in = random_sparse_inputs(*s, 0, case_distribution(i, InputSet::all), i % 3 == 2, 4, i);
      std::vector<std::uint64_t> zeros(128), packed(128), ref(128);
      sparse_mma_tile(*s, arch_params("sm_90"), SparseArith::zeros, in.a, in.meta, in.b, in.c, zeros);
      sparse_mma_tile(*s, arch_params("sm_90"), SparseArith::kept_packed, in.a, in.meta, in.b, in.c, packed);
      mma_tile(dense, arch_params("sm_90"), decompress_a(*s, in.a, in.meta), in.b, in.c, ref);
      CHECK(zeros == ref);
      CHECK(packed == ref);
    }
  }
}

TEST_CASE("mma.sp tf32 rows: 1:2 chunks, the dense tf32 frames of half the K, blocks of tf32 products", "[mma-sp]") {
  const SparseMmaInst& k8 = sp("sp.m16n8k8.tf32");
  const SparseMmaInst& k16 = sp("sp.m16n8k16.tf32");
  CHECK(k16.ptx() == "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32");
  CHECK(k8.chunk_elems() == 2);
  CHECK(k8.chunks_per_row() == 4);
  CHECK(k8.selectors() == 4);
  CHECK(k16.selectors() == 2);
  CHECK(meta_nibbles(k16, true).size() == 2);
  CHECK(meta_valid(k16, 0x4, true));
  CHECK(meta_valid(k16, 0xE, false));
  CHECK_FALSE(meta_valid(k16, 0x8, true));
  // a2 of lane 6 (g 1, t 2): compressed A[1][6], chunk 6 = logical columns 12, 13.
  CHECK(k16.a_frame().at(6, 2) == TileCoord{1, 6});
  // B k16: b3 of lane 6 is row 2 + 12.
  CHECK(k16.b_frame().at(6, 3) == TileCoord{14, 1});
  const std::vector<std::uint8_t> row{0x4, 0xE, 0xE, 0x4};
  CHECK(logical_col(k8, row, 0) == 0);
  CHECK(logical_col(k8, row, 1) == 3);
  CHECK(logical_col(k8, row, 2) == 5);
  CHECK(logical_col(k8, row, 3) == 6);
  // Kept 1.0 at column 3 and 2.0 at column 5 of row 0; B[3][0] = 3, B[5][0] = 0.5,
  // B[2][0] = B[4][0] = 100 (pruned): D[0][0] = 3 + 1 = 4.
  std::vector<std::uint64_t> a(16 * 4, 0), b(8 * 8, 0), c(16 * 8, 0), d(16 * 8, 0);
  MetaGrid meta(16 * 4, 0x4);
  meta[1] = 0xE;
  meta[2] = 0xE;
  a[1] = 0x3f800000;
  a[2] = 0x40000000;
  b[3 * 8] = 0x40400000;
  b[5 * 8] = 0x3f000000;
  b[2 * 8] = b[4 * 8] = 0x42c80000;
  for (const SparseArith h : kAllSparseArith) {
    sparse_mma_tile(k8, arch_params("sm_90"), h, a, meta, b, c, d);
    CHECK(d[0] == 0x40800000);
  }
  CHECK_THROWS_WITH(sparse_mma_tile(k8, arch_params("sm_90"), SparseArith::zeros, a, MetaGrid(16 * 4, 0x8), b, c, d),
                    Catch::Contains("is neither 0b0100 nor 0b1110"));
  // Random inputs draw only the two values; zeros is the dense tf32 mma of the decompressed A.
  for (int i = 0; i < 6; ++i) {
    const SparseInputs in = random_sparse_inputs(k16, 1, case_distribution(i, InputSet::all), i % 3 == 2, 9, i);
    for (const std::uint8_t v : in.meta) CHECK((v == 0x4 || v == 0xE));
    std::vector<std::uint64_t> zeros(128), ref(128);
    sparse_mma_tile(k16, arch_params("sm_90"), SparseArith::zeros, in.a, in.meta, in.b, in.c, zeros);
    mma_tile(k16.logical(), arch_params("sm_90"), decompress_a(k16, in.a, in.meta), in.b, in.c, ref);
    CHECK(zeros == ref);
  }
}

TEST_CASE("mma.sp vector files: written, read back, replayed; bad input located", "[mma-sp]") {
  const SparseMmaInst& s = sp("sp.m16n8k32.f16.f16acc");
  std::vector<SparseVectorCase> cases;
  for (int i = 0; i < 3; ++i) {
    const SparseInputs in = random_sparse_inputs(s, 1, Distribution::normal, false, 2, i);
    SparseVectorCase c;
    c.inst = &s;
    c.id = i;
    c.kind = "normal";
    c.selector = 1;
    c.e = meta_registers(s, 1, in.meta);
    c.a = in.a;
    c.b = in.b;
    c.c = in.c;
    c.d = sparse_case_d(c, arch_params("sm_90"), SparseArith::zeros);
    cases.push_back(c);
  }
  const std::vector<std::string> comments{"test"};
  const std::string text = format_sparse_vectors(comments, cases);
  CHECK(text.find(
            "instr mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16\ncase 0 normal\nF 1\nE ") !=
        std::string::npos);
  const SparseVectorFile f = parse_sparse_vectors(text, "t.mmav");
  REQUIRE(f.cases.size() == 3);
  CHECK(f.cases[2].e == cases[2].e);
  CHECK(f.cases[2].a == cases[2].a);
  const SparseVectorReport r = run_sparse_vectors(f, arch_params("sm_90"), SparseArith::zeros);
  CHECK(r.passed == 3);
  CHECK(r.failed == 0);
  // A flipped D bit fails, at its case's line.
  std::string bad = text;
  const std::size_t d_at = bad.rfind("\nD ") + 3;
  bad[d_at] = bad[d_at] == '0' ? '1' : '0';
  const SparseVectorReport rb =
      run_sparse_vectors(parse_sparse_vectors(bad, "t.mmav"), arch_params("sm_90"), SparseArith::zeros);
  CHECK(rb.failed == 1);
  REQUIRE(rb.mismatches.size() == 1);
  CHECK(rb.mismatches[0].row == 0);
  CHECK_THROWS_WITH(
      parse_sparse_vectors("instr mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\ncase 0\nF 4\n", "x.mmav"),
      Catch::Contains("x.mmav:3:3: error: selector 4 out of range"));
  CHECK_THROWS_WITH(
      parse_sparse_vectors("instr mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\ncase 0\nE 1 2\n", "x.mmav"),
      Catch::Contains("x.mmav:3:1: error: expected F here"));
  // An empty file checks nothing: refused, as are negative and repeated case numbers.
  CHECK_THROWS_WITH(parse_sparse_vectors("", "x.mmav"), Catch::Contains("x.mmav:1: error: no test cases"));
  CHECK_THROWS_WITH(parse_sparse_vectors("# nothing\n", "x.mmav"), Catch::Contains("no test cases"));
  CHECK_THROWS_WITH(
      parse_sparse_vectors("instr mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\ncase -1\n", "x.mmav"),
      Catch::Contains("x.mmav:2:6: error: case number '-1' is not a non-negative integer"));
  const std::size_t first = text.find("\ncase ") + 1, second = text.find("\ncase ", first) + 1;
  std::string repeated = text;
  repeated.replace(second, repeated.find('\n', second) - second, text.substr(first, text.find('\n', first) - first));
  CHECK_THROWS_WITH(parse_sparse_vectors(repeated, "t.mmav"), Catch::Contains("repeats the case of line"));
  CHECK_THROWS_WITH(parse_sparse_vectors("instr mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n", "x.mmav"),
                    Catch::Contains("x.mmav:1:7: error: unknown mma.sp instruction"));
}

TEST_CASE("mma.sp: the H200's captures replay bit for bit under the default, and decide it", "[mma-sp]") {
  const ArchParams& sm90 = arch_params("sm_90");
  const auto load = [](const std::string& name) {
    return read_sparse_vectors(mmacheck::test::source_path("tests/data/mma_sp/") + name);
  };
  const SparseVectorFile k16 = load("h200.k16.mmav"), k32 = load("h200.k32.mmav"), ints = load("h200.int.mmav"),
                         tf32 = load("h200.tf32.mmav");
  for (const SparseVectorFile* f : {&k16, &k32, &ints, &tf32}) {
    INFO(f->name);
    REQUIRE(f->cases.size() >= 36);
    CHECK(run_sparse_vectors(*f, sm90, kDefaultSparseArith).failed == 0);
  }
  CHECK(kDefaultSparseArith == SparseArith::kept_packed);
  // The other hypotheses fail on them: zeros at a pruned Inf/NaN (k16), kept
  // on k32's two chained blocks.
  CHECK(run_sparse_vectors(k16, sm90, SparseArith::zeros).failed > 0);
  CHECK(run_sparse_vectors(k32, sm90, SparseArith::zeros).failed > 0);
  CHECK(run_sparse_vectors(k32, sm90, SparseArith::kept).failed > 0);
  CHECK(run_sparse_vectors(tf32, sm90, SparseArith::zeros).failed > 0);
  CHECK(run_sparse_vectors(tf32, sm90, SparseArith::kept).failed > 0);
  // The 8-bit metadata placement: the recorded e under the 16-bit placement
  // (lane 4g+2f+u: chunks 4u..4u+3 of both rows) mis-places chunks.
  std::set<std::string> rows;
  for (const SparseVectorCase& c : ints.cases) rows.insert(std::string(c.inst->tag));
  CHECK(rows.size() == 6);
  SparseVectorFile swapped = ints;
  for (SparseVectorCase& c : swapped.cases) {
    // Move the holders' nibbles as the 16-bit placement would read them.
    const MetaGrid truth = meta_grid(*c.inst, c.selector, c.e);
    std::vector<std::uint32_t> e(32, 0);
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, t = lane % 4, holders = c.inst->meta_threads();
      if (t / holders != c.selector) continue;
      for (int j = 0; j < kMetaNibbles; ++j) {
        const int row = g + 8 * (j / 4), chunk = 4 * (t % holders) + j % 4;
        e[static_cast<std::size_t>(lane)] |= std::uint32_t{truth[row * c.inst->chunks_per_row() + chunk]} << (4 * j);
      }
    }
    c.e = e;
  }
  CHECK(run_sparse_vectors(swapped, sm90, kDefaultSparseArith).failed > static_cast<int>(ints.cases.size()) / 2);
}

}  // namespace test_mma_sp
