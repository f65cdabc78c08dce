// Defects 1 and 2 of the hardening issue: counts are checked arithmetic,
// and every command bounds its resources up front with a located error that
// names the limit and the option that raises it (docs/reliability.md).
#include <catch2/catch.hpp>

#include <chrono>

#include "core/base/checked.h"
#include "core/base/limits.h"
#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_hardening_support.h"

namespace mmacheck::test_limits {
namespace {

using Catch::Matchers::Contains;

Limits unbounded() {
  Limits limits;
  for (const ResourceInfo& info : kLimits) limits.set(info.resource, INT64_MAX);
  return limits;
}

std::string dispatch_error(const std::string& text, const Limits& limits = Limits{}) {
  try {
    (void)dispatch(parse_program(text, "big.txt"), InstSet::tvm, limits);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("checked arithmetic names what overflows", "[hardening][limits]") {
  CHECK(checked_mul(1 << 20, 1 << 20, "x") == std::int64_t{1} << 40);
  CHECK_THROWS_WITH(checked_mul(INT64_MAX, 2, "A elements"), Contains("A elements overflows int64"));
  CHECK_THROWS_WITH(checked_int(std::int64_t{1} << 36, "M tiles"), Contains("M tiles (68719476736) does not fit"));
  const std::int64_t big[] = {std::int64_t{1} << 40, std::int64_t{1} << 30};
  CHECK_FALSE(try_product(big).has_value());
}

TEST_CASE("tile counts are never truncated: M = 2^36 + 16 is refused, not a 1-mma nest", "[hardening][limits]") {
  const std::int64_t m = (std::int64_t{1} << 36) + 16;
  const std::string text = test::gemm_text(m, 8, 16);
  // Under the defaults the buffers are over --max-elements first.
  CHECK_THAT(dispatch_error(text), Contains("big.txt:") && Contains("--max-elements"));
  // With every limit lifted, the counts are checked, not cast: D's register
  // span (4 slots per tile) is the first to leave int.
  CHECK_THAT(dispatch_error(text, unbounded()), Contains("register span of 'D' (17179869188) does not fit in int"));
  // M = 2^35: 2^31 tiles, once printed as "M -2147483648".
  CHECK_THAT(dispatch_error(test::gemm_text(std::int64_t{1} << 35, 8, 16), unbounded()),
             Contains("(8589934592) does not fit in int"));
}

TEST_CASE("the mma count is checked before the nest is built", "[hardening][limits]") {
  Limits limits;
  limits.set(Resource::mma, 3);
  const std::string text = test::gemm_text(32, 16, 32);  // 2 x 2 x 2 tiles = 8 mma
  const std::string e = dispatch_error(text, limits);
  CHECK_THAT(e, Contains("big.txt:") && Contains("needs 8 mma statements per warp") &&
                    Contains("over the limit of 3") && Contains("--max-mma"));
  limits.set(Resource::mma, 8);
  CHECK(dispatch(parse_program(text, "ok.txt"), InstSet::tvm, limits).nest.mma_count() == 8);
}

TEST_CASE("prove of M = 2^20 ends in a located limit error at once", "[hardening][limits]") {
  const auto start = std::chrono::steady_clock::now();
  const Program program = parse_program(test::gemm_text(std::int64_t{1} << 20, 8, 16), "m20.txt");
  CHECK_THROWS_WITH(prove(program, ProveOptions{}),
                    Contains("m20.txt:") && Contains("buffer 'A' needs 16777216") && Contains("--max-elements"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("every command refuses a 1024^3 gemm within seconds", "[hardening][limits]") {
  test::ScratchDir dir;
  const std::string file = dir.write("g1024.txt", test::gemm_text(1024, 1024, 1024));
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"prove", file},
                                             {"prove", file, "--method", "exhaustive"},
                                             {"sim", file, "--cases", "1"},
                                             {"emit", file},
                                             {"draw", file, "-o", dir.file("g.svg")}}) {
    INFO(args[0] << " " << (args.size() > 2 ? args[2] : ""));
    const auto start = std::chrono::steady_clock::now();
    const test::RunResult r = test::run_mmacheck(args);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("g1024.txt:") && Contains("--max-"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  }
}

TEST_CASE("a register stride of 2^24 is over --max-span, in sim as in prove", "[hardening][limits]") {
  test::ScratchDir dir;
  const std::string file = dir.write("span.txt", R"(
D = buffer((16, 8), "float32", "local", S[(2, 8, 4, 2) : (16777216, 4 @ laneid, 1 @ laneid, 1)])
A = buffer((16, 16), "float16", "local", S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([16, 16], [16, 8]))
B = buffer((16, 8), "float16", "local", S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8]))
gemm(D, A, B, D)
)");
  for (const char* command : {"sim", "prove"}) {
    const test::RunResult r = test::run_mmacheck({command, file});
    INFO(command << ": " << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("span.txt:2:") && Contains("buffer 'D' needs 16777218 register slots per thread") &&
                          Contains("--max-span"));
  }
  // Raised, the limit lets the same file through to the dispatch.
  CHECK(test::run_mmacheck({"prove", file, "--max-span", "16777218"}).err.find("--max-span") == std::string::npos);
}

TEST_CASE("draw refuses a million replicas instead of expanding them", "[hardening][limits]") {
  test::ScratchDir dir;
  const std::string file = dir.write("replicas.txt", test::kFragments + R"(
A = buffer((16, 16), "float16", "local", A_FRAG)
B = buffer((16, 8), "float16", "local", B_FRAG)
D = buffer((16, 8), "float32", "local", TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)] + R[1048576 : 1 @ warpid]))
gemm(D, A, B, D)
)");
  const test::RunResult r = test::run_mmacheck({"draw", file, "-o", dir.file("r.svg")});
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK_THAT(r.err,
             Contains("replicas.txt:") && Contains("1048576 replicas per element") && Contains("--max-replicas"));
}

TEST_CASE("emit bounds its output by --max-output-bytes", "[hardening][limits]") {
  const std::string seed = test::source_path("examples/seed_corrected.txt");
  const test::RunResult small = test::run_mmacheck({"emit", seed, "--max-output-bytes", "100"});
  CHECK(small.status == 2);
  CHECK(small.out.empty());
  CHECK_THAT(small.err, Contains("bytes of output, over the limit of 100") && Contains("--max-output-bytes"));
  CHECK(test::run_mmacheck({"emit", seed}).status == 0);
}

TEST_CASE("limit options reject negative values", "[hardening][limits]") {
  const test::RunResult r = test::run_mmacheck({"prove", test::source_path("examples/seed.txt"), "--max-mma", "-1"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("option '--max-mma' is invalid: it must be >= 0"));
}

}  // namespace mmacheck::test_limits
