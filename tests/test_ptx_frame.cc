// The PTX fragment frame table against the PTX ISA's own formulas (§9.7.14.5),
// written here independently of the table's coefficient form.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <set>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "core/gemm/ptx_frame.h"
#include "core/layout/z3_encoding.h"
#include "core/prove/z3_checker.h"

namespace test_ptx_frame {

using namespace mmacheck;

namespace {
using Formula = std::function<TileCoord(int g, int t, int i)>;

void check_frame(const Frame& f, const Formula& formula) {
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < f.elems(); ++i) {
      INFO("shape " << f.shape << " operand " << operand_name(f.operand) << " lane " << lane << " element " << i);
      CHECK(f.at(lane, i) == formula(lane / 4, lane % 4, i));
    }
}
}  // namespace

TEST_CASE("every frame is a bijection from (lane, element) onto its tile", "[frame]") {
  for (const Frame& f : all_frames()) {
    INFO("shape " << f.shape << " operand " << operand_name(f.operand) << " bits " << f.elem_bits);
    REQUIRE(32 * f.elems() == f.rows * f.cols);
    REQUIRE(f.regs * f.reg_bits == f.elems() * f.elem_bits);
    std::set<std::pair<int, int>> seen;
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < f.elems(); ++i) {
        const TileCoord c = f.at(lane, i);
        REQUIRE(c.row >= 0);
        REQUIRE(c.row < f.rows);
        REQUIRE(c.col >= 0);
        REQUIRE(c.col < f.cols);
        seen.insert({c.row, c.col});
      }
    CHECK(static_cast<int>(seen.size()) == f.rows * f.cols);
  }
}

TEST_CASE("16-bit m16n8k16 and m16n8k8 frames follow the PTX formulas", "[frame]") {
  check_frame(find_frame("m16n8k16", Operand::A, 16), [](int g, int t, int i) {
    const bool low_row = i == 0 || i == 1 || i == 4 || i == 5;
    return TileCoord{low_row ? g : g + 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
  });
  check_frame(find_frame("m16n8k16", Operand::B, 16), [](int g, int t, int i) {
    return TileCoord{t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g};
  });
  for (int bits : {32, 16})
    for (const char* shape : {"m16n8k16", "m16n8k8"})
      check_frame(find_frame(shape, Operand::C, bits), [](int g, int t, int i) {
        return TileCoord{i < 2 ? g : g + 8, t * 2 + (i & 1)};
      });
  check_frame(find_frame("m16n8k8", Operand::A, 16), [](int g, int t, int i) {
    return TileCoord{i < 2 ? g : g + 8, t * 2 + (i & 1)};
  });
  check_frame(find_frame("m16n8k8", Operand::B, 16), [](int g, int t, int i) { return TileCoord{t * 2 + i, g}; });
}

TEST_CASE("tf32 frames follow the PTX formulas", "[frame]") {
  check_frame(find_frame("m16n8k8", Operand::A, 32), [](int g, int t, int i) {
    return TileCoord{(i == 0 || i == 2) ? g : g + 8, (i < 2) ? t : t + 4};
  });
  check_frame(find_frame("m16n8k8", Operand::B, 32), [](int g, int t, int i) {
    return TileCoord{i == 0 ? t : t + 4, g};
  });
  check_frame(find_frame("m16n8k4", Operand::A, 32), [](int g, int t, int i) {
    return TileCoord{i == 0 ? g : g + 8, t};
  });
  check_frame(find_frame("m16n8k4", Operand::B, 32), [](int g, int t, int) { return TileCoord{t, g}; });
}

TEST_CASE("8-bit frames follow the PTX formulas", "[frame]") {
  check_frame(find_frame("m16n8k32", Operand::A, 8), [](int g, int t, int i) {
    const bool low_row = i < 4 || (i >= 8 && i < 12);
    return TileCoord{low_row ? g : g + 8, t * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
  });
  check_frame(find_frame("m16n8k32", Operand::B, 8), [](int g, int t, int i) {
    return TileCoord{t * 4 + (i & 3) + (i >= 4 ? 16 : 0), g};
  });
  check_frame(find_frame("m16n8k16", Operand::A, 8), [](int g, int t, int i) {
    return TileCoord{i < 4 ? g : g + 8, t * 4 + (i & 3)};
  });
  check_frame(find_frame("m16n8k16", Operand::B, 8), [](int g, int t, int i) { return TileCoord{t * 4 + i, g}; });
  check_frame(find_frame("m16n8k32", Operand::C, 32), [](int g, int t, int i) {
    return TileCoord{i < 2 ? g : g + 8, t * 2 + (i & 1)};
  });
}

TEST_CASE("f64 m8n8k4 frames follow the PTX formulas", "[frame]") {
  check_frame(find_frame("m8n8k4", Operand::A, 64), [](int g, int t, int) { return TileCoord{g, t}; });
  check_frame(find_frame("m8n8k4", Operand::B, 64), [](int g, int t, int) { return TileCoord{t, g}; });
  check_frame(find_frame("m8n8k4", Operand::C, 64), [](int g, int t, int i) { return TileCoord{g, t * 2 + i}; });
}

TEST_CASE("a missing frame is an error, not a crash", "[frame]") {
  CHECK_THROWS_AS(find_frame("m16n8k16", Operand::A, 4), Error);
}

TEST_CASE("instruction table: PTX names, frames and register views agree", "[inst]") {
  CHECK(mma_instructions()[1].ptx() == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  CHECK(mma_instructions()[0].tag == "m16n8k16.bf16");
  for (const MmaInst& inst : mma_instructions()) {
    INFO(inst.ptx());
    CHECK(find_mma_inst(inst.ptx()) == &inst);
    const Frame& a = inst.frame(Operand::A);
    const Frame& b = inst.frame(Operand::B);
    const Frame& c = inst.frame(Operand::C);
    CHECK((a.rows == inst.m && a.cols == inst.k));
    CHECK((b.rows == inst.k && b.cols == inst.n));
    CHECK((c.rows == inst.m && c.cols == inst.n));
    // The register-view decomposition documented in mma_inst.h reproduces the frame.
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, t = lane % 4;
      for (int kHi = 0; kHi < inst.k_hi(); ++kHi)
        for (int kp = 0; kp < inst.k_pack; ++kp) {
          const int k = kp + inst.k_pack * t + 4 * inst.k_pack * kHi;
          for (int rM = 0; rM < inst.m_regs(); ++rM)
            CHECK(a.at(lane, kp + inst.k_pack * (rM + inst.m_regs() * kHi)) == TileCoord{g + 8 * rM, k});
          CHECK(b.at(lane, kp + inst.k_pack * kHi) == TileCoord{k, g});
        }
      for (int rM = 0; rM < inst.m_regs(); ++rM)
        for (int rN = 0; rN < inst.n_regs(); ++rN)
          CHECK(c.at(lane, rN + inst.n_regs() * rM) == TileCoord{g + 8 * rM, 2 * t + rN});
    }
  }
  CHECK(find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16") == nullptr);
}

namespace {
// m8n8k4 f16 as §9.7.14.5.1 writes it: per quad pair (MMA computation qp + 1:
// lanes 4qp..4qp+3, the low group, and 16+4qp.., the high group), `row` and
// `col` of that product's own tile; the stacked tile puts product qp's rows
// after qp's predecessors' (A, C: 8 rows each, B: 4).
using QuadPairFormula = std::function<TileCoord(int lane, int i)>;

void check_quad_pair_frame(const Frame& f, int product_rows, const QuadPairFormula& formula) {
  REQUIRE(f.products == 4);
  REQUIRE(f.rows == 4 * product_rows);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < f.elems(); ++i) {
      INFO("operand " << operand_name(f.operand) << " ." << f.layout << " " << f.elem_bits << "-bit lane " << lane
                      << " element " << i);
      const int qp = (lane % 16) / 4;
      const TileCoord own = formula(lane, i);
      CHECK(f.at(lane, i) == TileCoord{qp * product_rows + own.row, own.col});
    }
}
}  // namespace

TEST_CASE("m8n8k4 f16 frames follow the PTX formulas per quad pair", "[frame]") {
  const auto high = [](int lane) { return lane < 16 ? 0 : 4; };
  check_quad_pair_frame(find_frame("m8n8k4", Operand::A, 16, "row"), 8, [&](int lane, int i) {
    return TileCoord{lane % 4 + high(lane), i};
  });
  check_quad_pair_frame(find_frame("m8n8k4", Operand::A, 16, "col"), 8, [&](int lane, int i) {
    return TileCoord{i % 4 + high(lane), lane % 4};
  });
  check_quad_pair_frame(find_frame("m8n8k4", Operand::B, 16, "row"), 4, [&](int lane, int i) {
    return TileCoord{lane % 4, i + high(lane)};
  });
  check_quad_pair_frame(find_frame("m8n8k4", Operand::B, 16, "col"), 4, [&](int lane, int i) {
    return TileCoord{i % 4, lane % 4 + high(lane)};
  });
  check_quad_pair_frame(find_frame("m8n8k4", Operand::C, 16), 8, [&](int lane, int i) {
    return TileCoord{lane % 4 + high(lane), i};
  });
  check_quad_pair_frame(find_frame("m8n8k4", Operand::C, 32), 8, [&](int lane, int i) {
    const int t = lane % 4;
    return TileCoord{(t & 1) + (i & 2) + high(lane), (i & 4) + (t & 2) + (i & 1)};
  });
  // The f64 m8n8k4 frames are not the quad pairs' and have no layout.
  CHECK(find_frame("m8n8k4", Operand::A, 64).products == 1);
  CHECK(lookup_frame("m8n8k4", Operand::A, 16) == nullptr);
  CHECK(lookup_frame("m8n8k4", Operand::A, 64, "col") == nullptr);
}

TEST_CASE("quad-pair instructions: PTX names, both layouts, stacked tiles, never dispatched", "[inst]") {
  std::set<std::string> names;
  for (const MmaInst& inst : quad_pair_instructions()) {
    INFO(inst.ptx());
    CHECK(find_mma_inst(inst.ptx()) == &inst);
    CHECK(names.insert(inst.ptx()).second);
    CHECK(inst.products == 4);
    CHECK(inst.min_sm == 70);
    CHECK(inst.ptx() == "mma.sync.aligned.m8n8k4." + std::string(inst.alayout) + "." + std::string(inst.blayout) + "." +
                            std::string(dtype_info(inst.d).ptx) + ".f16.f16." + std::string(dtype_info(inst.c).ptx));
    CHECK(inst.frame(Operand::A).layout == inst.alayout);
    CHECK(inst.frame(Operand::B).layout == inst.blayout);
    CHECK(inst.frame(Operand::A).rows * inst.frame(Operand::A).cols == inst.a_elems());
    CHECK(inst.frame(Operand::B).rows * inst.frame(Operand::B).cols == inst.b_elems());
    CHECK(inst.frame(Operand::C).rows * inst.frame(Operand::C).cols == inst.c_elems());
    for (const MmaInst& other : mma_instructions()) CHECK(&other != &inst);
  }
  CHECK(names.size() == 12);  // 2 A layouts x 2 B layouts x (f32, f16, f32 from f16 C)
  CHECK(find_mma_inst("mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16") != nullptr);
  CHECK(find_mma_inst("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32") == nullptr);  // no oracle: not added
}

TEST_CASE("the prover's frame terms equal the frames, lane-bit coefficients included", "[frame]") {
  z3::context ctx;
  const Bv bv(ctx, 16);
  int with_lane_bits = 0;
  for (const Frame& f : all_frames()) {
    INFO("shape " << f.shape << " operand " << operand_name(f.operand) << " bits " << f.elem_bits << " ." << f.layout);
    for (const FrameAxis* axis : {&f.row, &f.col})
      for (int b : axis->lane_bit) with_lane_bits += b != 0;
    for (int lane = 0; lane < 32; ++lane)
      for (int e = 0; e < f.elems(); ++e) {
        const TileCoord want = f.at(lane, e);
        const z3::expr l = bv.num(lane), i = bv.num(e);
        CHECK(prove_detail::frame_term(f.row, l, i, bv).simplify().get_numeral_int64() == want.row);
        CHECK(prove_detail::frame_term(f.col, l, i, bv).simplify().get_numeral_int64() == want.col);
      }
  }
  CHECK(with_lane_bits > 0);  // the quad-pair rows' terms are among them
}

}  // namespace test_ptx_frame
