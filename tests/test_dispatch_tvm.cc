// TVM's test_gemm_mma_m16n8k_.py, as far as it runs without a GPU: what the
// lowering emits (instruction, registers, init), every tiling it lists, all
// four transposes, and every rejection.  Programs are built in C++ from the
// layout algebra, as TVM's test builds them.
#include <catch2/catch.hpp>
#include <variant>

#include "core/gemm/dispatch.h"
#include "tests/test_dispatch_support.h"

namespace test_dispatch_tvm {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const InitStmt& init_at(const Plan& plan, int i) { return std::get<InitStmt>(plan.nest.stmts.at(i)); }
const MmaStmt& mma_at(const Plan& plan, int i) { return std::get<MmaStmt>(plan.nest.stmts.at(i)); }
using Regs = std::vector<int>;

}  // namespace

TEST_CASE("a single m16n8k16 tile lowers to one mma.sync with PTX register order", "[dispatch]") {
  // test_cuda_gemm_mma_lowers_to_mma_sync, both dtypes.
  const auto [dtype, ptx] = GENERATE(std::pair{DType::bf16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"},
                                     std::pair{DType::f16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"});
  const Program p = make_program(single(dtype, dtype, DType::f32, DType::f32));
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  CHECK(plan.reasons.empty());
  CHECK(plan.inst->ptx() == ptx);
  CHECK(plan.nest.inst == plan.inst);
  CHECK(plan.nest.mma_count() == 1);
  REQUIRE(plan.nest.stmts.size() == 2);
  // beta == 0: D is cleared, nothing is read from C.
  CHECK_FALSE(plan.nest.use_c);
  CHECK(init_at(plan, 0).d_slots == Regs{0, 1, 2, 3});
  CHECK(init_at(plan, 0).c_slots.empty());
  const MmaStmt& mma = mma_at(plan, 1);
  CHECK(mma.d == Regs{0, 1, 2, 3});  // c_id = 2 rM + rN
  CHECK(mma.a == Regs{0, 1, 2, 3});  // b32 = rM + 2 kHi
  CHECK(mma.b == Regs{0, 1});        // b32 = kHi
  CHECK(mma.c == mma.d);             // accumulate in place
  CHECK(nest_semantics_problem(p, plan).empty());
}

TEST_CASE("beta = 1 initializes D by copying C", "[dispatch]") {
  // test_cuda_gemm_mma_accumulates_c_when_beta_one.
  GemmSpec spec = single(DType::bf16, DType::bf16, DType::f32, DType::f32);
  spec.beta = 1.0;
  const Program p = make_program(spec);
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  CHECK(plan.nest.use_c);
  CHECK(init_at(plan, 0).c_slots == Regs{0, 1, 2, 3});
  CHECK(init_at(plan, 0).d_slots == Regs{0, 1, 2, 3});
  CHECK(mma_at(plan, 1).c == mma_at(plan, 1).d);  // the mma itself is unchanged
  CHECK(nest_semantics_problem(p, plan).empty());
}

TEST_CASE("alpha != 1 and beta outside {0, 1} decline", "[dispatch]") {
  GemmSpec spec = single(DType::bf16, DType::bf16, DType::f32, DType::f32);
  SECTION("alpha = 2") {
    spec.alpha = 2.0;
    const Plan plan = dispatch(make_program(spec));
    CHECK_FALSE(plan.ok);
    CHECK(plan.inst == nullptr);
    CHECK(plan.reasons == std::vector<std::string>{"declined — gemm mma supports only alpha=1, got alpha=2"});
  }
  SECTION("beta = 0.5") {
    spec.beta = 0.5;
    const Plan plan = dispatch(make_program(spec));
    CHECK_FALSE(plan.ok);
    CHECK(plan.reasons == std::vector<std::string>{"declined — gemm mma supports only beta in {0, 1}, got beta=0.5"});
  }
}

TEST_CASE("every tiling TVM lists lowers to Mt*Nt*Kt mma of the right shape", "[dispatch]") {
  // _TILED_SHAPES (numerical tests) and test_cuda_gemm_mma_lowers_tiled,
  // crossed with _TILED_MODES (dtype x beta).
  const auto [mt, nt, kt, kinst] = GENERATE(table<int, int, int, int>({{1, 1, 1, 16},
                                                                       {2, 1, 1, 16},
                                                                       {1, 2, 1, 16},
                                                                       {1, 1, 2, 16},
                                                                       {2, 2, 2, 16},
                                                                       {4, 1, 1, 16},
                                                                       {1, 1, 1, 8},
                                                                       {1, 1, 3, 8},
                                                                       {2, 2, 3, 8}}));
  const auto [dtype, beta] =
      GENERATE(table<DType, double>({{DType::f16, 0.0}, {DType::bf16, 0.0}, {DType::f16, 1.0}, {DType::bf16, 1.0}}));
  INFO("Mt " << mt << " Nt " << nt << " Kt " << kt << " k" << kinst << " beta " << beta);
  const Program p = make_program(tiled(mt, nt, kt, kinst, dtype, beta));
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  CHECK(plan.inst->k == kinst);
  CHECK(plan.inst->a == dtype);
  CHECK(plan.inst->shape() == "m16n8k" + std::to_string(kinst));
  CHECK(plan.tiles_m == mt);
  CHECK(plan.tiles_n == nt);
  CHECK(plan.tiles_k == kt);
  CHECK(plan.nest.mma_count() == mt * nt * kt);
  // D is initialized once per output tile, then accumulated over K.
  CHECK(static_cast<int>(plan.nest.stmts.size()) == mt * nt * (kt + 1));
  CHECK(plan.nest.use_c == (beta == 1.0));
  CHECK(plan.m == 16 * mt);
  CHECK(plan.n == 8 * nt);
  CHECK(plan.k == kinst * kt);
  CHECK(nest_semantics_problem(p, plan).empty());
}

TEST_CASE(
    "the tiled register views are TVM's [Mo, No, rM, rN] / [Mo, Ko, rM, kHi, kp] / [Ko, No, kHi, "
    "kp]",
    "[dispatch]") {
  const Plan plan = dispatch(make_program(tiled(2, 2, 3, 8)));
  REQUIRE(plan.ok);
  CHECK(plan.d.shape == Shape{2, 2, 2, 2});
  CHECK(plan.c.shape == Shape{2, 2, 2, 2});
  CHECK(plan.a.shape == Shape{2, 3, 2, 1, 2});
  CHECK(plan.b.shape == Shape{3, 2, 1, 2});
  CHECK(plan.d.buffer == "D");
  CHECK(plan.c.buffer == "C");
  // tile_to puts the tile index above the base fragment's registers.
  const std::int64_t d_last[] = {1, 1, 1, 1};
  CHECK(plan.d.slot(d_last) == 15);
  const std::int64_t a_tile[] = {1, 2, 0, 0, 0};  // tile (m=1, k=2): 4 slots per k8 tile
  CHECK(plan.a.slot(a_tile) == 4 * (3 * 1 + 2));
  // Second tile (m=0, n=1), first k: registers of D's second tile, A's first, B's (k=0, n=1).
  const MmaStmt& mma = mma_at(plan, 1 + 3 + 1);
  CHECK(mma.tile_m == 0);
  CHECK(mma.tile_n == 1);
  CHECK(mma.tile_k == 0);
  CHECK(mma.d == Regs{4, 5, 6, 7});
  CHECK(mma.a == Regs{0, 1});
  CHECK(mma.b == Regs{1});
}

TEST_CASE("all four A/B orientations dispatch to the same m16n8k16", "[dispatch]") {
  // test_cuda_gemm_mma_lowers_transpose.
  const auto [ta, tb] = GENERATE(table<bool, bool>({{false, false}, {true, false}, {false, true}, {true, true}}));
  INFO("transpose_A " << ta << " transpose_B " << tb);
  GemmSpec spec = single(DType::f16, DType::f16, DType::f32, DType::f32);
  spec.transpose_a = ta;
  spec.transpose_b = tb;
  if (ta) spec.a.layout = transpose_frag(a_frag(), {16, 16});
  if (tb) {
    spec.b.layout = transpose_frag(b_frag(), {16, 8});
    spec.b.shape = {8, 16};
  }
  const Program p = make_program(spec);
  const Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  CHECK(plan.inst->ptx() == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  // The registers are the same whatever the orientation: only the logical
  // axes of the buffers differ.
  CHECK(mma_at(plan, 1).a == Regs{0, 1, 2, 3});
  CHECK(mma_at(plan, 1).b == Regs{0, 1});
  CHECK(nest_semantics_problem(p, plan).empty());
}

TEST_CASE("a transpose flag that does not match the layout declines", "[dispatch]") {
  // The K-major fragment read as [K, M]: the lanes land on the wrong dims.
  GemmSpec spec = single(DType::f16, DType::f16, DType::f32, DType::f32);
  spec.transpose_a = true;
  const Plan plan = dispatch(make_program(spec));
  CHECK_FALSE(plan.ok);
  REQUIRE(plan.reasons.size() == 1);
  CHECK(plan.reasons[0] ==
        "declined — no mma instruction fits M=16, N=8, K=16, dtypes=('float16', 'float16', "
        "'float32', 'float32')");
}

TEST_CASE("every dtype signature outside TVM's table declines", "[dispatch]") {
  // test_cuda_gemm_mma_rejects_unsupported_dtype.
  const auto [a, b, c, d, sig] = GENERATE(table<DType, DType, DType, DType, std::string>(
      {{DType::f16, DType::f16, DType::f16, DType::f16, "('float16', 'float16', 'float16', 'float16')"},
       {DType::bf16, DType::f16, DType::f32, DType::f32, "('bfloat16', 'float16', 'float32', 'float32')"},
       {DType::f32, DType::f32, DType::f32, DType::f32, "('float32', 'float32', 'float32', 'float32')"},
       {DType::s8, DType::s8, DType::s32, DType::s32, "('int8', 'int8', 'int32', 'int32')"}}));
  const Plan plan = dispatch(make_program(single(a, b, c, d)));
  CHECK_FALSE(plan.ok);
  CHECK(plan.reasons == std::vector<std::string>{"declined — no mma instruction fits M=16, N=8, K=16, dtypes=" + sig});
}

TEST_CASE("f16 accumulation is an extended-set instruction", "[dispatch]") {
  const Program p = make_program(single(DType::f16, DType::f16, DType::f16, DType::f16));
  CHECK_FALSE(dispatch(p, InstSet::tvm).ok);
  const Plan plan = dispatch(p, InstSet::extended);
  REQUIRE(plan.ok);
  CHECK(plan.inst->ptx() == "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
  // Two f16 accumulators per register: D's four slots are two registers.
  CHECK(mma_at(plan, 1).d == Regs{0, 1});
  CHECK(nest_semantics_problem(p, plan).empty());
}

}  // namespace test_dispatch_tvm
