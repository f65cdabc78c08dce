// sm_120's block-scaled mma.sync (docs/block-scaled.md): the instruction
// rows, the scale-factor frame, and the arithmetic on hand-made cases whose
// answers follow from the model's rules (the MMA-Sim vectors are
// test_block_scaled_vectors.cc).
#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "core/gemm/scale_frame.h"
#include "sim/numerics/block_scaled.h"

namespace test_block_scaled {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

const MmaInst& inst(const std::string& ptx) {
  const MmaInst* i = find_mma_inst(ptx);
  REQUIRE(i != nullptr);
  return *i;
}

const std::string kMxf8 =
    "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0";
const std::string kMxf4 =
    "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0";
const std::string kNvf4 =
    "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3";
const std::string kNvf4e8 =
    "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0";

// D of one instruction on sm_120 from tiles and scale tiles.
std::vector<std::uint64_t> run(const MmaInst& in, const std::vector<std::uint64_t>& a,
                               const std::vector<std::uint64_t>& b, const std::vector<std::uint64_t>& c,
                               const std::vector<std::uint64_t>& sa, const std::vector<std::uint64_t>& sb) {
  std::vector<std::uint64_t> d(static_cast<std::size_t>(in.c_elems()));
  block_scaled_tile(in, arch_params("sm_120"), a, b, c, sa, sb, d);
  return d;
}

struct Tiles {
  std::vector<std::uint64_t> a, b, c, sa, sb;
  explicit Tiles(const MmaInst& in, std::uint64_t scale)
      : a(static_cast<std::size_t>(in.a_elems())),
        b(static_cast<std::size_t>(in.b_elems())),
        c(static_cast<std::size_t>(in.c_elems())),
        sa(static_cast<std::size_t>(in.m * in.scale_vec), scale),
        sb(static_cast<std::size_t>(in.scale_vec * in.n), scale) {}
};

}  // namespace

TEST_CASE("the block-scaled forms are instructions with the ISA's names and frames", "[block_scaled]") {
  const std::span<const MmaInst> table = block_scale_instructions();
  CHECK(table.size() == 29);  // 25 mxf8f6f4 type pairs, mxf4 2X, mxf4nvf4 2X/4X ue8m0, 4X ue4m3
  std::set<std::string> names;
  for (const MmaInst& i : table) {
    INFO(i.ptx());
    names.insert(i.ptx());
    CHECK(i.block_scaled());
    CHECK(i.min_sm == 120);
    CHECK(find_mma_inst(i.ptx()) == &i);
    CHECK(i.k / i.scale_vec == (i.kind == "mxf8f6f4" ? 32 : i.scale_vec == 2 ? 32 : 16));
    // A, B and C/D frames are the non-scaled ones: fp8 containers at k32, packed e2m1 at k64.
    CHECK(i.frame(Operand::A).elem_bits == (i.k == 64 ? 4 : 8));
    CHECK(i.frame(Operand::A).regs == 4);
    CHECK(i.frame(Operand::B).regs == 2);
    CHECK(i.frame(Operand::C).regs == 4);
    CHECK(has_model(i, arch_params("sm_120")));
    CHECK_FALSE(has_model(i, arch_params("sm_90")));
  }
  CHECK(names.size() == table.size());
  CHECK(names.count(kMxf8) == 1);
  CHECK(names.count(kMxf4) == 1);
  CHECK(names.count(kNvf4) == 1);
  CHECK(names.count(kNvf4e8) == 1);
  for (const MmaInst& i : mma_instructions()) CHECK_FALSE(i.block_scaled());  // never dispatched
  // Without its scale operands mma_tile refuses a block-scaled instruction.
  const MmaInst& m = inst(kMxf8);
  std::vector<std::uint64_t> a(512), b(256), c(128), d(128);
  CHECK_THROWS_WITH(mma_tile(m, arch_params("sm_120"), a, b, c, d), Catch::Contains("block-scaled"));
}

TEST_CASE("the scale-factor frame reads every row and column's blocks exactly once", "[block_scaled]") {
  for (const MmaInst& i : block_scale_instructions())
    for (const Operand op : {Operand::A, Operand::B})
      for (const int byte_id : valid_byte_ids(i.scale_vec))
        for (int tid = 0; tid < scale_frame(op).thread_ids; ++tid) {
          const ScaleSelector sel{byte_id, tid};
          check_selector(i, op, sel);
          std::vector<int> seen(static_cast<std::size_t>(scale_frame(op).count * i.scale_vec));
          for (int lane = 0; lane < 32; ++lane)
            for (int byte = 0; byte < 4; ++byte)
              if (const auto r = scale_read(i, op, sel, lane, byte)) {
                ++seen[static_cast<std::size_t>(r->index * i.scale_vec + r->block)];
                CHECK(scale_place(i, op, sel, r->index, r->block) == ScalePlace{lane, byte});
              }
          for (const int n : seen) CHECK(n == 1);
        }
  // The ISA's lanes: A row r in lane 4 (r % 8) + 2 thread-id + r / 8, B column c in lane 4c + thread-id.
  const MmaInst& m = inst(kMxf8);
  CHECK(scale_read(m, Operand::A, {0, 0}, 5, 0) == ScaleRead{9, 0});
  CHECK(scale_read(m, Operand::A, {0, 1}, 6, 0) == ScaleRead{1, 0});
  CHECK(!scale_read(m, Operand::A, {0, 0}, 6, 0));
  CHECK(scale_read(m, Operand::A, {3, 0}, 0, 3) == ScaleRead{0, 0});
  CHECK(!scale_read(m, Operand::A, {3, 0}, 0, 2));
  CHECK(scale_place(m, Operand::B, {1, 2}, 3, 0) == ScalePlace{14, 1});
  const MmaInst& n = inst(kNvf4);
  CHECK(scale_place(n, Operand::A, {0, 1}, 15, 3) == ScalePlace{31, 3});
  // Selectors the instruction does not take.
  CHECK_THROWS_WITH(check_selector(m, Operand::A, {0, 2}), Catch::Contains("thread-id-a 2 is not 0..1"));
  CHECK_THROWS_WITH(check_selector(inst(kMxf4), Operand::B, {1, 0}),
                    Catch::Contains("byte-id-b 1 is not valid for scale_vec::2X (0, 2)"));
  CHECK_THROWS_WITH(check_selector(n, Operand::A, {2, 0}), Catch::Contains("scale_vec::4X (0)"));
  check_selector(m, Operand::B, {3, 3});
}

TEST_CASE("mxf8f6f4 scales each product by 2^(sa + sb - 254)", "[block_scaled]") {
  const MmaInst& m = inst(kMxf8);
  Tiles t(m, 127);                          // scales 1
  std::fill(t.a.begin(), t.a.end(), 0x38);  // e4m3 1.0
  std::fill(t.b.begin(), t.b.end(), 0x38);
  CHECK(run(m, t.a, t.b, t.c, t.sa, t.sb)[0] == 0x42000000);  // 32
  t.sa[0] = 128;                                              // row 0 scaled by 2
  t.sb[3] = 125;                                              // column 3 by 1/4
  const std::vector<std::uint64_t> d = run(m, t.a, t.b, t.c, t.sa, t.sb);
  CHECK(d[0] == 0x42800000);      // 64
  CHECK(d[3] == 0x41800000);      // 32 * 2 / 4 = 16
  CHECK(d[8 + 3] == 0x41000000);  // row 1: 32 / 4 = 8
  // ue8m0 0xFF is NaN: the row's every output is the canonical NaN, even for zero products.
  t.sa[1] = 0xFF;
  std::fill(t.a.begin() + 32, t.a.begin() + 64, 0);
  for (int j = 0; j < 8; ++j) CHECK(run(m, t.a, t.b, t.c, t.sa, t.sb)[8 + j] == 0x7FFFFFFF);
  // Large scales overflow to Inf (toward zero stops at nothing: beyond the largest finite is Inf).
  Tiles big(m, 254);
  std::fill(big.a.begin(), big.a.end(), 0x7E);  // e4m3 448
  std::fill(big.b.begin(), big.b.end(), 0x7E);
  CHECK(run(m, big.a, big.b, big.c, big.sa, big.sb)[0] == 0x7F800000);
  // Scales 2^-127 each: 32 * 2^-254 is far below C's zero term: D = C.
  Tiles tiny(m, 0);
  std::fill(tiny.a.begin(), tiny.a.end(), 0x38);
  std::fill(tiny.b.begin(), tiny.b.end(), 0x38);
  std::fill(tiny.c.begin(), tiny.c.end(), 0x3F800000);
  CHECK(run(m, tiny.a, tiny.b, tiny.c, tiny.sa, tiny.sb)[0] == 0x3F800000);
}

TEST_CASE("mxf4 groups of 16: a group that cancels still sets the exponent", "[block_scaled]") {
  const MmaInst& m = inst(kNvf4e8);  // four ue8m0 scales per row: one per 16-K group
  Tiles t(m, 127);
  // Row 0: group 0 is 1 - 1 (nonzero products summing to 0) under scale 2^60,
  // group 1 is 1 * 1 under scale 1.  The cancelled group's exponent (60) is
  // the largest, so 1.0 falls below the 35 kept bits: D = +0.
  t.a[0] = 0x2;  // e2m1 1.0
  t.a[1] = 0xA;  // -1.0
  t.a[16] = 0x2;
  for (int kk = 0; kk < 64; ++kk) t.b[kk * 8] = 0x2;
  t.sa[0] = 127 + 60;
  CHECK(run(m, t.a, t.b, t.c, t.sa, t.sb)[0] == 0);
  // All-zero products instead: the group is a zero term (-139), D = 1.0.
  t.a[0] = t.a[1] = 0;
  CHECK(run(m, t.a, t.b, t.c, t.sa, t.sb)[0] == 0x3F800000);
  // A NaN scale anywhere in the row makes D NaN; the column's other rows are untouched.
  t.sa[3] = 0xFF;
  const std::vector<std::uint64_t> d = run(m, t.a, t.b, t.c, t.sa, t.sb);
  CHECK(d[0] == 0x7FFFFFFF);
  CHECK(d[8] == 0);
}

TEST_CASE("ue4m3 scales: bit 7 ignored, 0x7F NaN, zero a zero term, subnormals exact", "[block_scaled]") {
  CHECK(decode_scale(ScaleType::ue4m3, 0x38).exp == 0);  // 1.0
  CHECK(decode_scale(ScaleType::ue4m3, 0xB8).exp == 0);  // the sign bit ignored
  CHECK(decode_scale(ScaleType::ue4m3, 0x7F).nan);
  CHECK(decode_scale(ScaleType::ue4m3, 0xFF).nan);
  CHECK(decode_scale(ScaleType::ue4m3, 0x00).sig == 0);
  CHECK(decode_scale(ScaleType::ue8m0, 0xFF).nan);
  CHECK(decode_scale(ScaleType::ue8m0, 0x00).exp == -127);
  const MmaInst& m = inst(kNvf4);
  Tiles t(m, 0x38);
  for (int kk = 0; kk < 64; ++kk) t.a[kk] = t.b[kk * 8] = 0x2;  // row 0 . column 0: 64 products of 1
  CHECK(run(m, t.a, t.b, t.c, t.sa, t.sb)[0] == 0x42800000);    // 64
  t.sa[0] = 0xB0;                                               // 0.5 (sign ignored): 8 + 48
  CHECK(run(m, t.a, t.b, t.c, t.sa, t.sb)[0] == 0x42600000);    // 56
  t.sa[1] = 0x01;                                               // e4m3 subnormal 2^-9: 8 + 16 * 2^-9 + 32
  CHECK(run(m, t.a, t.b, t.c, t.sa, t.sb)[0] == 0x42202000);    // 40.03125
  t.sa[2] = 0x80;                                               // zero: group 2 drops out
  CHECK(run(m, t.a, t.b, t.c, t.sa, t.sb)[0] == 0x41c04000);    // 24.03125
}

}  // namespace test_block_scaled
