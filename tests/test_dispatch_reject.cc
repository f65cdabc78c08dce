// The dispatch's refusals: TVM's predicates (all evaluated, one row each),
// the implementation's declines in TVM's order and wording, and the bad
// input TVM asserts against (thrown as Error at the operand).
#include <catch2/catch.hpp>

#include "core/gemm/dispatch.h"
#include "core/base/error.h"
#include "tests/test_dispatch_support.h"

namespace test_dispatch_reject {

using namespace mmacheck;
using namespace mmacheck::test;
using Catch::Matchers::StartsWith;

namespace {

GemmSpec seed() { return single(DType::f16, DType::f16, DType::f32, DType::f32); }

std::vector<std::string> reasons(const GemmSpec& spec) {
  const Plan plan = dispatch(make_program(spec));
  CHECK_FALSE(plan.ok);
  CHECK(plan.inst == nullptr);
  return plan.reasons;
}

std::string only_reason(const GemmSpec& spec) {
  const std::vector<std::string> r = reasons(spec);
  REQUIRE(r.size() == 1);
  return r[0];
}

// The error dispatch throws, or "" when it does not throw.
Error thrown(const GemmSpec& spec) {
  try {
    dispatch(make_program(spec));
  } catch (const Error& e) {
    return e;
  }
  FAIL("dispatch did not throw");
  return Error("");
}

TileLayout with_replica(const TileLayout& layout, Iter replica) {
  return TileLayout(layout.shard(), {replica}, layout.offset());
}

}  // namespace

TEST_CASE("narrowed lanes fail full_active_lanes", "[dispatch]") {
  GemmSpec spec = seed();
  spec.scope.lane_lo = 0;
  spec.scope.lane_hi = 15;
  CHECK(reasons(spec) ==
        std::vector<std::string>{"rejected: full_active_lanes — active laneid is [0, 16), need full [0, 32)"});
  spec.scope.lane_lo = 8;
  spec.scope.lane_hi = 31;
  CHECK(only_reason(spec) == "rejected: full_active_lanes — active laneid is [8, 32), need full [0, 32)");
}

TEST_CASE("a replicated operand fails no_replica, naming the first such operand", "[dispatch]") {
  GemmSpec spec = seed();
  spec.b.layout = with_replica(b_frag(), {2, 1, Axis::warpid()});
  spec.c.layout = with_replica(d_frag(), {2, 64, Axis::m()});
  CHECK(only_reason(spec) == "rejected: no_replica — B layout has replica [T.Iter(2, 1, \"warpid\")]");
}

TEST_CASE("every failing predicate is reported, and the implementation does not run", "[dispatch]") {
  GemmSpec spec = seed();
  spec.scope.lane_hi = 15;
  spec.d.layout = with_replica(d_frag(), {2, 1, Axis::warpid()});
  spec.a.scope = MemScope::shared;  // would decline, but predicates come first
  CHECK(reasons(spec) ==
        std::vector<std::string>{"rejected: full_active_lanes — active laneid is [0, 16), need full [0, 32)",
                                 "rejected: no_replica — D layout has replica [T.Iter(2, 1, \"warpid\")]"});
}

TEST_CASE("a CTA scope has every warp active", "[dispatch]") {
  GemmSpec spec = seed();
  spec.scope.kind = ExecScope::Kind::cta;
  spec.scope.threads = 128;
  CHECK(dispatch(make_program(spec)).ok);
}

TEST_CASE("operands outside registers decline, D first, then A, B, C", "[dispatch]") {
  GemmSpec spec = seed();
  spec.c.scope = MemScope::global;
  CHECK(only_reason(spec) == "declined — gemm mma requires C in register (local) scope, got global");
  spec.a.scope = MemScope::shared;
  CHECK(only_reason(spec) == "declined — gemm mma requires A in register (local) scope, got shared");
  spec.d.scope = MemScope::shared;
  CHECK(only_reason(spec) == "declined — gemm mma requires D in register (local) scope, got shared");
}

TEST_CASE("scope is checked before alpha and beta", "[dispatch]") {
  GemmSpec spec = seed();
  spec.alpha = 2.0;
  spec.beta = 0.5;
  CHECK(only_reason(spec) == "declined — gemm mma supports only alpha=1, got alpha=2");
  spec.b.scope = MemScope::shared;
  CHECK(only_reason(spec) == "declined — gemm mma requires B in register (local) scope, got shared");
}

TEST_CASE("operands must be two-dimensional once unit extents are dropped", "[dispatch]") {
  GemmSpec spec = seed();
  SECTION("a flat A declines") {
    spec.a.shape = {256};
    CHECK(only_reason(spec) == "declined — gemm mma expects 2D A, got non-unit extents [256]");
  }
  SECTION("unit dims are ignored") {
    spec.a.shape = {1, 16, 16};
    spec.d.shape = {16, 1, 8};
    const Program p = make_program(spec);
    const Plan plan = dispatch(p);
    REQUIRE(plan.ok);
    CHECK(nest_semantics_problem(p, plan).empty());
  }
}

TEST_CASE("an operand that does not group as its 2-D shape declines", "[dispatch]") {
  // M = 4, K = 12: S[(6, 8) : (1, 6)] cannot be split at 4.
  GemmSpec spec{{{4, 8}, DType::f32, TileLayout::row_major({4, 8})},
                {{4, 12}, DType::f16, TileLayout({{6, 1, Axis::m()}, {8, 6, Axis::m()}})},
                {{12, 8}, DType::f16, TileLayout::row_major({12, 8})},
                {{4, 8}, DType::f32, TileLayout::row_major({4, 8})}};
  CHECK_THAT(only_reason(spec), StartsWith("declined — gemm mma: A layout not tileable as (4, 12): "));
}

TEST_CASE("a region the layout cannot express declines", "[dispatch]") {
  GemmSpec spec = seed();
  spec.a.region = Region{{0, 16}, {2, 10}};
  spec.b.layout = b_frag_k8();
  spec.b.shape = {8, 8};
  CHECK(only_reason(spec) == "declined — gemm mma: cannot slice A layout to its region");
}

TEST_CASE("an operand on two thread axes declines", "[dispatch]") {
  // cbx -> warpid -> laneid is a well-formed chain up to the cluster, and
  // TVM's CUDA fusers leave it as it is.
  GemmSpec spec = seed();
  spec.d.shape = {64, 8};
  spec.d.layout = TileLayout({{2, 1, Axis("cbx")},
                              {2, 1, Axis::warpid()},
                              {2, 2, Axis::m()},
                              {8, 4, Axis::laneid()},
                              {4, 1, Axis::laneid()},
                              {2, 1, Axis::m()}});
  spec.c.shape = {64, 8};
  spec.c.layout = d_frag().tile_to({64, 8}, {16, 8});
  spec.a.shape = {64, 16};
  spec.a.layout = a_frag().tile_to({64, 16}, {16, 16});
  CHECK(only_reason(spec) ==
        "declined — gemm mma: D has >1 thread axis ['cbx', 'laneid', 'warpid'], only one supported");
}

TEST_CASE("a follower that cannot take its anchor's split declines", "[dispatch]") {
  // D's M is (6, 2@m), (8, 4@laneid); A's M is (4, 1), (12, 4): 4 * 12 cannot
  // be cut at 6.
  GemmSpec spec = tiled(3, 1, 1, 16);
  spec.a.layout = TileLayout({{4, 1, Axis::m()}, {12, 4, Axis::m()}, {16, 48, Axis::m()}});
  CHECK_THAT(only_reason(spec), StartsWith("declined — gemm mma: A.M not alignable to anchor extents [6, 8]: "));
}

TEST_CASE("a shape no instruction divides declines", "[dispatch]") {
  // N = 4: the fragments group, but 8 does not divide N.
  GemmSpec spec = seed();
  spec.b = {{16, 4}, DType::f16, TileLayout::row_major({16, 4})};
  spec.d = {{16, 4}, DType::f32, TileLayout::row_major({16, 4})};
  spec.c = spec.d;
  CHECK(only_reason(spec) ==
        "declined — no mma instruction fits M=16, N=4, K=16, dtypes=('float16', 'float16', "
        "'float32', 'float32')");
}

TEST_CASE("a row-major register layout fits no fragment", "[dispatch]") {
  GemmSpec spec = seed();
  spec.a.layout = TileLayout::row_major({16, 16});
  CHECK_THAT(only_reason(spec), StartsWith("declined — no mma instruction fits M=16, N=8, K=16"));
}

TEST_CASE("operands that disagree on M, N or K are bad input at the operand", "[dispatch]") {
  GemmSpec spec = seed();
  SECTION("A's K is not B's K") {
    spec.b = {{8, 8}, DType::f16, b_frag_k8()};
    const Error e = thrown(spec);
    CHECK(e.message() == "gemm mma: A K=16 != B K=8");
    CHECK(e.loc().line == 9);
    CHECK(e.loc().col == 6 + 3 * 3);  // B's operand
  }
  SECTION("D is not M x N") {
    spec.d = {{32, 8}, DType::f32, d_frag().tile_to({32, 8}, {16, 8})};
    const Error e = thrown(spec);
    CHECK(e.message() == "gemm mma: D dims (32, 8) != (M=16, N=8)");
    CHECK(e.loc().col == 6 + 3 * 1);
  }
  SECTION("C is not M x N") {
    spec.c = {{16, 16}, DType::f32, d_frag().tile_to({16, 16}, {16, 8})};
    CHECK(thrown(spec).message() == "gemm mma: C dims (16, 16) != (M=16, N=8)");
  }
}

TEST_CASE("a program without a usable gemm call is bad input", "[dispatch]") {
  Program p = make_program(seed());
  SECTION("no gemm") {
    p.gemm.reset();
    CHECK_THROWS_AS(dispatch(p), Error);
  }
  SECTION("unknown buffer") {
    p.gemm->a.buffer = "Q";
    CHECK_THROWS_AS(dispatch(p), Error);
  }
  SECTION("region outside the buffer") {
    p.gemm->a.region = Region{{0, 16}, {8, 24}};
    CHECK_THROWS_WITH(dispatch(p), Catch::Contains("outside"));
  }
}

TEST_CASE("the instruction set is parsed by name", "[dispatch]") {
  CHECK(parse_inst_set("tvm") == InstSet::tvm);
  CHECK(parse_inst_set("extended") == InstSet::extended);
  CHECK_THROWS_AS(parse_inst_set("all"), Error);
}

}  // namespace test_dispatch_reject
