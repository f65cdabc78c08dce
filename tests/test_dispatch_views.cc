// Register views and nests beyond TVM's own tests: operands that are
// regions of larger buffers, CTA-scope gemms split over warps, and every
// instruction of the extended table with its own PTX frame.
#include <algorithm>
#include <catch2/catch.hpp>
#include <variant>

#include "core/gemm/dispatch.h"
#include "tests/test_dispatch_support.h"

namespace test_dispatch_views {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const MmaStmt& first_mma(const Plan& plan) { return std::get<MmaStmt>(plan.nest.stmts.at(1)); }
using Regs = std::vector<int>;

GemmSpec frame_spec(const MmaInst& inst, int mt, int nt, int kt) {
  const std::int64_t M = inst.m * mt, N = inst.n * nt, K = inst.k * kt;
  const auto tiled_frame = [&](mmacheck::Operand op, Shape to, Shape tile) {
    return frame_layout(inst, op).tile_to(to, tile);
  };
  const TileLayout d = tiled_frame(mmacheck::Operand::C, {M, N}, {inst.m, inst.n});
  return GemmSpec{{{M, N}, inst.d, d},
                  {{M, K}, inst.a, tiled_frame(mmacheck::Operand::A, {M, K}, {inst.m, inst.k})},
                  {{K, N}, inst.b, tiled_frame(mmacheck::Operand::B, {K, N}, {inst.k, inst.n})},
                  {{M, N}, inst.c, d}};
}

}  // namespace

TEST_CASE("TVM's fragments are the frame layouts of m16n8k16 and m16n8k8", "[dispatch]") {
  const MmaInst& k16 = mma_instructions()[1];
  const MmaInst& k8 = mma_instructions()[3];
  REQUIRE(k16.tag == "m16n8k16.f16");
  REQUIRE(k8.tag == "m16n8k8.f16");
  CHECK(a_frag().canonicalize() == frame_layout(k16, mmacheck::Operand::A).canonicalize());
  CHECK(b_frag().canonicalize() == frame_layout(k16, mmacheck::Operand::B).canonicalize());
  CHECK(d_frag().canonicalize() == frame_layout(k16, mmacheck::Operand::C).canonicalize());
  CHECK(a_frag_k8().canonicalize() == frame_layout(k8, mmacheck::Operand::A).canonicalize());
  CHECK(b_frag_k8().canonicalize() == frame_layout(k8, mmacheck::Operand::B).canonicalize());
}

TEST_CASE("every instruction dispatches from its own frame layouts", "[dispatch]") {
  for (const MmaInst& inst : mma_instructions()) {
    // An odd number of K tiles, so that no instruction with a larger K fits
    // (see the next test).
    for (const auto& [mt, nt, kt] : {std::tuple{1, 1, 1}, std::tuple{2, 2, 3}, std::tuple{1, 3, 1}}) {
      INFO(inst.ptx() << " tiles " << mt << "x" << nt << "x" << kt);
      const Program p = make_program(frame_spec(inst, mt, nt, kt));
      const Plan extended = dispatch(p, InstSet::extended);
      REQUIRE(extended.ok);
      CHECK(nest_semantics_problem(p, extended).empty());
      // A layout names types, not qualifiers (.satfinite, .and/.xor.popc,
      // .kind::f8f6f4) nor the preference between shapes of one type (f64
      // m8n8k4 before the sm_90-only m16n8k*, b1 m8n8k128 before m16n8k*):
      // the first row of the same types that fits wins, as the table orders.
      const auto same_types = [&](const MmaInst& o) {
        return o.a == inst.a && o.b == inst.b && o.c == inst.c && o.d == inst.d;
      };
      const MmaInst* first = &*std::find_if(mma_instructions().begin(), mma_instructions().end(), same_types);
      if (extended.inst == &inst) {
        CHECK(extended.nest.mma_count() == mt * nt * kt);
      } else {
        CHECK(first != &inst);
        CHECK(same_types(*extended.inst));
        CHECK(extended.inst < &inst);  // an earlier row of the table
      }
      const Plan tvm = dispatch(p, InstSet::tvm);
      CHECK(tvm.ok == inst.in_tvm);
      if (!inst.in_tvm) CHECK_THAT(tvm.reasons.at(0), Catch::StartsWith("declined — no mma instruction fits"));
    }
  }
}

TEST_CASE("two K tiles of a small-K frame are one tile of the larger-K instruction", "[dispatch]") {
  // tile_to stacks the K tiles above the frame's registers, which is exactly
  // the larger instruction's kHi: TVM's table order then prefers it.
  const auto [small, large] = GENERATE(table<std::string, std::string>(
      {{"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"},
       {"mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"},
       {"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"}}));
  const Program p = make_program(frame_spec(*find_mma_inst(small), 1, 1, 2));
  const Plan plan = dispatch(p, InstSet::extended);
  REQUIRE(plan.ok);
  CHECK(plan.inst->ptx() == large);
  CHECK(plan.nest.mma_count() == 1);
  CHECK(nest_semantics_problem(p, plan).empty());
}

TEST_CASE("f64 m8n8k4 has one A and one B register and two accumulators", "[dispatch]") {
  const MmaInst& f64 = *find_mma_inst("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  const Plan plan = dispatch(make_program(frame_spec(f64, 1, 1, 1)), InstSet::extended);
  REQUIRE(plan.ok);
  CHECK(plan.d.shape == Shape{1, 1, 1, 2});
  CHECK(plan.a.shape == Shape{1, 1, 1, 1, 1});
  CHECK(first_mma(plan).d == Regs{0, 1});
  CHECK(first_mma(plan).a == Regs{0});
  CHECK(first_mma(plan).b == Regs{0});
}

TEST_CASE("an operand region moves its start into the register view", "[dispatch]") {
  SECTION("the upper K half of a k16 A fragment feeds an m16n8k8") {
    GemmSpec spec = single(DType::f16, DType::f16, DType::f32, DType::f32);
    spec.a.region = Region{{0, 16}, {8, 16}};
    spec.b = {{8, 8}, DType::f16, b_frag_k8()};
    const Program p = make_program(spec);
    const Plan plan = dispatch(p);
    REQUIRE(plan.ok);
    CHECK(plan.inst->ptx() == "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
    CHECK(first_mma(plan).a == Regs{2, 3});  // A_FRAG slots 4..7 hold kHi = 1
    CHECK(plan.nest.a.slots == 8);           // the whole buffer's storage
    CHECK(nest_semantics_problem(p, plan).empty());
  }
  SECTION("the second N tile of a 16 x 16 accumulator") {
    GemmSpec spec = single(DType::f16, DType::f16, DType::f32, DType::f32);
    spec.d = {{16, 16}, DType::f32, d_frag().tile_to({16, 16}, {16, 8}), MemScope::local, Region{{0, 16}, {8, 16}}};
    spec.c = spec.d;
    spec.beta = 1.0;
    const Program p = make_program(spec);
    const Plan plan = dispatch(p);
    REQUIRE(plan.ok);
    CHECK(first_mma(plan).d == Regs{4, 5, 6, 7});
    CHECK(std::get<InitStmt>(plan.nest.stmts[0]).c_slots == Regs{4, 5, 6, 7});
    CHECK(nest_semantics_problem(p, plan).empty());
  }
}

TEST_CASE("a CTA-scope gemm splits M over warps, and each warp runs the same nest", "[dispatch]") {
  // Warps own consecutive 16-row blocks of D and A; B is per-warp (laneid only).
  const int warps = GENERATE(2, 4);
  const std::int64_t M = 16 * warps;
  const Axis warpid = Axis::warpid(), lane = Axis::laneid(), m = Axis::m();
  const TileLayout d({{warps, 1, warpid}, {2, 2, m}, {8, 4, lane}, {4, 1, lane}, {2, 1, m}});
  const TileLayout a({{warps, 1, warpid}, {2, 2, m}, {8, 4, lane}, {2, 4, m}, {4, 1, lane}, {2, 1, m}});
  GemmSpec spec{
      {{M, 8}, DType::f32, d}, {{M, 16}, DType::bf16, a}, {{16, 8}, DType::bf16, b_frag()}, {{M, 8}, DType::f32, d}};
  spec.scope.kind = ExecScope::Kind::cta;
  spec.scope.threads = 32 * warps;
  const Program p = make_program(spec);
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  CHECK(plan.tiles_m == 1);  // per warp
  CHECK(plan.m == M);
  CHECK(plan.nest.mma_count() == 1);
  CHECK(first_mma(plan).d == Regs{0, 1, 2, 3});
  CHECK(nest_semantics_problem(p, plan) == "");
}

TEST_CASE("warp tilings that differ between D and A decline", "[dispatch]") {
  // D splits M over warps, A keeps all of M in every warp.
  const Axis warpid = Axis::warpid(), lane = Axis::laneid(), m = Axis::m();
  GemmSpec spec = tiled(2, 1, 1, 16);
  spec.d.layout = TileLayout({{2, 1, warpid}, {2, 2, m}, {8, 4, lane}, {4, 1, lane}, {2, 1, m}});
  spec.c.layout = spec.d.layout;
  spec.scope.kind = ExecScope::Kind::cta;
  spec.scope.threads = 64;
  const Plan plan = dispatch(make_program(spec));
  CHECK_FALSE(plan.ok);
  CHECK_THAT(plan.reasons.at(0), Catch::StartsWith("declined — no mma instruction fits M=32"));
}

TEST_CASE("the semantic check of the tests catches a wrong register", "[dispatch]") {
  const Program p = make_program(tiled(1, 1, 2, 16));
  Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  REQUIRE(nest_semantics_problem(p, plan).empty());
  SECTION("A's registers of the two K tiles swapped") {
    std::swap(std::get<MmaStmt>(plan.nest.stmts[1]).a, std::get<MmaStmt>(plan.nest.stmts[2]).a);
  }
  SECTION("B's two registers swapped") {
    auto& b = std::get<MmaStmt>(plan.nest.stmts[1]).b;
    std::swap(b[0], b[1]);
  }
  SECTION("a K tile dropped") { plan.nest.stmts.pop_back(); }
  CHECK_FALSE(nest_semantics_problem(p, plan).empty());
}

}  // namespace test_dispatch_views
