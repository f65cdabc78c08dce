// The z3 method over symbolic tile indices (core/prove/tile_model.h) against
// the per-statement encoding (z3-unrolled) and the enumeration: the same
// verdicts, results and counterexamples (prove_both), on tilings it decides
// symbolically and on nests it must hand to the per-statement encoding.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>
#include <variant>

#include "tests/test_prove_support.h"

namespace test_prove_tile_symbolic {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

using Catch::Matchers::Contains;

const std::string kFrags = R"(
D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]
A_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([16, 16], [16, 8])
B_FRAG = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8])
)";

// One warp's M x N x K tiling of TVM's fragments (tile_to the shape).
std::string tiled(int m, int n, int k, const std::string& gemm = "gemm(D, A, B, D)") {
  const auto s = [](int v) { return std::to_string(v); };
  return kFrags + "A = buffer((" + s(m) + ", " + s(k) + "), float16, local, A_FRAG.tile_to([" + s(m) + ", " + s(k) +
         "], [16, 16]))\nB = buffer((" + s(k) + ", " + s(n) + "), float16, local, B_FRAG.tile_to([" + s(k) + ", " +
         s(n) + "], [16, 8]))\nD = buffer((" + s(m) + ", " + s(n) + "), float32, local, D_FRAG.tile_to([" + s(m) +
         ", " + s(n) + "], [16, 8]))\nscope warp\n" + gemm + "\n";
}

// Whether the check was decided over symbolic tile indices (no fallback note).
bool symbolic(const ProofReport& r, const std::string& check) {
  for (const CheckReport& c : r.checks)
    if (c.check.name() == check) return c.note.find("per-statement encoding") == std::string::npos;
  FAIL("no check named '" << check << "'");
  return false;
}

// 32 x 16 x 32 with explicit layouts (2 x 2 x 2 tiles): A and B with their
// tile strides written out, so that a test can plant a mistake in one.
//   A (32 x 32): slot = 16 Mo + 8 Ko + 4 kHi + 2 rM + kp
//   B (32 x 16): slot = 8 Ko + 4 No + 2 kHi + kp
//   D (32 x 16): slot = 8 Mo + 4 No + 2 rM + rN;  C (beta = 1) as D
struct Explicit {
  std::string a = "S[(2, 2, 8, 2, 2, 4, 2) : (16, 2, 4 @ laneid, 8, 4, 1 @ laneid, 1)]";
  std::string b = "S[(2, 2, 4, 2, 2, 8) : (8, 2, 1 @ laneid, 1, 4, 4 @ laneid)]";
  std::string d = "S[(2, 2, 8, 2, 4, 2) : (8, 2, 4 @ laneid, 4, 1 @ laneid, 1)]";
  std::string c = "";  // beta = 1 with this layout for C when set

  std::string text() const {
    std::string t = "A = buffer((32, 32), float16, local, " + a + ")\nB = buffer((32, 16), float16, local, " + b +
                    ")\nD = buffer((32, 16), float32, local, " + d + ")\n";
    if (!c.empty()) t += "C = buffer((32, 16), float32, local, " + c + ")\n";
    return t + "scope warp\n" + (c.empty() ? "gemm(D, A, B, D)" : "gemm(D, A, B, C, beta=1.0)") + "\n";
  }
};

const Counterexample& refuted(const ProofReport& report, const std::string& check) {
  CHECK(result_of(report, check) == CheckResult::refuted);
  const Counterexample* cx = counterexample(report, check);
  REQUIRE(cx != nullptr);
  INFO(cx->message);
  return *cx;
}

}  // namespace

TEST_CASE("tilings are proved over symbolic tile indices", "[prove][tiles]") {
  for (const auto& [m, n, k] : {std::tuple{16, 8, 16}, std::tuple{32, 32, 32}, std::tuple{64, 32, 48}}) {
    INFO(m << " x " << n << " x " << k);
    const ProofReport r = prove_both(program_from(tiled(m, n, k)));
    CHECK(r.verdict == Verdict::proved);
    CHECK(r.mma_count == (m / 16) * (n / 8) * (k / 16));
    for (const char* check : {"A frame", "B frame", "C frame", "D frame", "accumulation"}) {
      INFO(check);
      CHECK(symbolic(r, check));
    }
  }
}

TEST_CASE("a 256^3 tiling is proved symbolically under the default limit", "[prove][tiles]") {
  // 8192 mma: the per-statement encoding needs minutes here, the enumeration
  // seconds; the tile-symbolic queries do not grow with the tile count.
  const ProofReport r = prove(program_from(tiled(256, 256, 256)), {});
  CHECK(r.mma_count == 8192);
  CHECK(r.verdict == Verdict::proved);
  for (const CheckReport& c : r.checks) {
    INFO(c.check.name() << ": " << c.note);
    CHECK(c.result == CheckResult::proved);
    CHECK(c.note.find("per-statement encoding") == std::string::npos);
  }
}

TEST_CASE("the explicit 2 x 2 x 2 tiling is proved symbolically, beta = 1 too", "[prove][tiles]") {
  Explicit e;
  ProofReport r = prove_both(program_from(e.text()));
  CHECK(r.verdict == Verdict::proved);
  CHECK(r.mma_count == 8);
  CHECK(symbolic(r, "A frame"));
  CHECK(symbolic(r, "accumulation"));
  e.c = e.d;
  r = prove_both(program_from(e.text()));
  CHECK(r.verdict == Verdict::proved);
  CHECK(symbolic(r, "accumulation"));
}

TEST_CASE("planted tile mistakes are refuted symbolically at the right statement", "[prove][tiles]") {
  const Explicit good;
  const Plan plan = dispatch(program_from(good.text()));
  REQUIRE(plan.ok);
  SECTION("A's K-tile stride 8 -> 6: K tile 1 reads slots 6 .. 13") {
    Explicit bad = good;
    bad.a = replace_once(bad.a, "(16, 2, 4 @ laneid, 8,", "(16, 2, 4 @ laneid, 6,");
    const ProofReport r = prove_both(program_from(bad.text()), plan);
    CHECK(symbolic(r, "A frame"));
    const Counterexample& cx = refuted(r, "A frame");
    CHECK(cx.stmt == 2);  // init, then mma (0, 0, 0), then mma (0, 0, 1)
    CHECK(cx.tile == std::vector<int>{0, 0, 1});
    CHECK(cx.lane == 0);
    CHECK(cx.element == 0);
    CHECK(cx.slot == 8);
    CHECK(cx.expected == Element{0, 16});
    CHECK(result_of(r, "A fragment") == CheckResult::refuted);  // tiles overlap at slots 6, 7
    CHECK(result_of(r, "B frame") == CheckResult::proved);
  }
  SECTION("B's N-tile stride 4 -> 3: the first statement of N tile 1 shows it") {
    Explicit bad = good;
    bad.b = replace_once(bad.b, "1, 4, 4 @ laneid)", "1, 3, 4 @ laneid)");
    const ProofReport r = prove_both(program_from(bad.text()), plan);
    CHECK(symbolic(r, "B frame"));
    const Counterexample& cx = refuted(r, "B frame");
    // B tiles are first used in the order (tn, tk): (0, 0), (0, 1), then
    // (1, 0) at mma (0, 1, 0), statement 4.
    CHECK(cx.stmt == 4);
    CHECK(cx.tile == std::vector<int>{0, 1, 0});
    CHECK(cx.expected == Element{0, 8});
  }
  SECTION("B's K-tile stride 8 -> 5 and N-tile stride 4 -> 2") {
    Explicit bad = good;
    bad.b = "S[(2, 2, 4, 2, 2, 8) : (5, 2, 1 @ laneid, 1, 2, 4 @ laneid)]";
    prove_both(program_from(bad.text()), plan);
  }
  SECTION("beta = 1: C's M-tile stride 8 -> 4 copies the wrong elements into M tile 1") {
    Explicit e = good;
    e.c = e.d;
    const Plan beta_plan = dispatch(program_from(e.text()));
    REQUIRE(beta_plan.ok);
    e.c = replace_once(e.c, "(8, 2, 4 @ laneid", "(4, 2, 4 @ laneid");
    const ProofReport r = prove_both(program_from(e.text()), beta_plan);
    CHECK(symbolic(r, "accumulation"));
    const Counterexample& cx = refuted(r, "accumulation");
    CHECK(cx.expected == Element{16, 0});
  }
  SECTION("D's tiles column-major under the row-major nest: D is the operand refuted") {
    // The nest is the good program's: the statement of tile (0, 1) uses D's
    // registers 4..7, which D's column-major layout gives to tile (1, 0).
    // Each statement's origin is the first mma's plus its tile index, so A's
    // and B's registers agree with it and D's are the ones named (the
    // dispatched program with this D is correct and proves, as sim agrees).
    Explicit other = good;
    other.d = "S[(2, 2, 8, 2, 4, 2) : (4, 2, 4 @ laneid, 8, 1 @ laneid, 1)]";
    const ProofReport r = prove_both(program_from(other.text()), plan);
    CHECK(result_of(r, "A frame") == CheckResult::proved);
    CHECK(result_of(r, "B frame") == CheckResult::proved);
    const Counterexample& cx = refuted(r, "D frame");
    CHECK(symbolic(r, "D frame"));
    CHECK(cx.operand == "D");
    CHECK(cx.tile.has_value());
    CHECK(prove(program_from(other.text()), ProveOptions{}).verdict == Verdict::proved);
  }
  SECTION("two warps splitting K are refuted symbolically") {
    const Program p = program_from(R"(
A = buffer((16, 32), float16, local, S[(2, 8, 2, 2, 4, 2) : (2, 4 @ laneid, 1 @ warpid, 4, 1 @ laneid, 1)])
B = buffer((32, 8), float16, local, S[(2, 2, 4, 2, 8) : (1 @ warpid, 2, 1 @ laneid, 1, 4 @ laneid)])
D = buffer((16, 8), float32, local, S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
scope cta threads 64
gemm(D, A, B, D)
)");
    const ProofReport r = prove_both(p);
    CHECK(symbolic(r, "accumulation"));
    CHECK(refuted(r, "accumulation").k == 16);
  }
}

TEST_CASE("a register offset on a tiled A: anchors off the affine origins, decided per statement", "[prove][tiles]") {
  // The offset moves A's anchor of K tile 1 to A[0][9]: the origins read off
  // the layouts are no longer affine in the tile index, the affine rule's
  // anchor query says so and the per-statement encoding decides.
  const Program p = program_from(replace_once(tiled(64, 32, 48), "[16, 16]))\nB =", "[16, 16]) + 1)\nB ="));
  const ProofReport r = prove_both(p);
  CHECK(r.mma_count == 48);
  CHECK_FALSE(symbolic(r, "A frame"));
  CHECK(result_of(r, "accumulation") == CheckResult::refuted);
  const Counterexample& cx = refuted(r, "A frame");
  CHECK(cx.stmt == 1);
  CHECK(cx.lane == 0);
  CHECK(cx.slot == 0);
  CHECK(cx.expected == Element{0, 0});
  CHECK_FALSE(cx.actual.has_value());  // slot 0 now holds nothing
}

TEST_CASE("single-stride mutations of a tiling: all three methods agree", "[prove][tiles]") {
  // Every layout of the explicit tiling with one memory stride changed, proved
  // against the correct plan: whatever the mutation breaks, the symbolic
  // encoding (or its fallback) finds what the others find.
  const Explicit good;
  const Plan plan = dispatch(program_from(good.text()));
  REQUIRE(plan.ok);
  int symbolic_refutations = 0, cases = 0;
  const auto mutate = [&](std::string Explicit::*field, const std::string& from, const std::string& to) {
    Explicit bad = good;
    bad.*field = replace_once(bad.*field, from, to);
    INFO(bad.text());
    const ProofReport r = prove_both(program_from(bad.text()), plan);
    ++cases;
    for (const CheckReport& c : r.checks)
      symbolic_refutations += c.result == CheckResult::refuted && c.note.find("per-statement") == std::string::npos &&
                              (c.check.kind == CheckKind::frame || c.check.kind == CheckKind::accumulation);
  };
  for (const char* to : {"(0, ", "(4, ", "(12, ", "(32, "}) mutate(&Explicit::a, "(16, ", to);
  for (const char* to : {"laneid, 0, ", "laneid, 2, ", "laneid, 16, "}) mutate(&Explicit::a, "laneid, 8, ", to);
  for (const char* to : {"(0, ", "(4, ", "(16, "}) mutate(&Explicit::b, "(8, ", to);
  for (const char* to : {"1, 0, 4 @", "1, 8, 4 @", "1, 2, 4 @"}) mutate(&Explicit::b, "1, 4, 4 @", to);
  for (const char* to : {"(0, ", "(4, ", "(16, "}) mutate(&Explicit::d, "(8, ", to);
  for (const char* to : {"laneid, 0, ", "laneid, 8, ", "laneid, 2, "}) mutate(&Explicit::d, "laneid, 4, ", to);
  CHECK(cases == 19);
  CHECK(symbolic_refutations >= 6);  // the symbolic encoding itself refutes, not only its fallback
}

TEST_CASE("a nest that is not its views' unrolling goes to the per-statement encoding", "[prove][tiles]") {
  const Program p = program_from(tiled(32, 16, 32));  // 2 x 2 x 2 tiles
  Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  auto& stmts = plan.nest.stmts;
  SECTION("two K steps exchanged: still correct") {
    std::swap(stmts.at(1), stmts.at(2));
    const ProofReport r = prove_both(p, plan);
    CHECK(r.verdict == Verdict::proved);
    CHECK_FALSE(symbolic(r, "accumulation"));
    CHECK_FALSE(symbolic(r, "A frame"));
  }
  SECTION("a wrong A register in the last statement") {
    auto& last = std::get<MmaStmt>(stmts.back());
    std::swap(last.a[0], last.a[1]);
    const ProofReport r = prove_both(p, plan);
    CHECK_FALSE(symbolic(r, "A frame"));
    CHECK(symbolic(r, "B frame"));  // only the operand whose registers differ falls back
    CHECK(symbolic(r, "accumulation"));
    const Counterexample& cx = refuted(r, "A frame");
    CHECK(cx.stmt == static_cast<int>(stmts.size()) - 1);
    CHECK(cx.tile == std::vector<int>{1, 1, 1});
  }
  SECTION("an init that misses a slot") {
    auto& init = std::get<InitStmt>(stmts.at(3));
    init.d_slots.pop_back();
    const ProofReport r = prove_both(p, plan);
    CHECK_FALSE(symbolic(r, "accumulation"));
    CHECK(symbolic(r, "D frame"));
    CHECK(refuted(r, "accumulation").message.find("before") != std::string::npos);
  }
  SECTION("a missing statement") {
    stmts.pop_back();
    const ProofReport r = prove_both(p, plan);
    CHECK_FALSE(symbolic(r, "accumulation"));
    CHECK(result_of(r, "accumulation") == CheckResult::refuted);
  }
}

TEST_CASE("the per-statement fallback is said in the check's note", "[prove][tiles]") {
  const Program p = program_from(tiled(16, 8, 32));
  Plan plan = dispatch(p);
  REQUIRE(plan.ok);
  std::swap(plan.nest.stmts.at(1), plan.nest.stmts.at(2));
  const ProofReport r = prove(p, plan, {});
  const auto acc = std::find_if(r.checks.begin(), r.checks.end(),
                                [](const CheckReport& c) { return c.check.name() == "accumulation"; });
  REQUIRE(acc != r.checks.end());
  CHECK_THAT(acc->note, Contains("per-statement encoding: statement 1 is not the mma of tile (0, 0, 0)"));
}

}  // namespace test_prove_tile_symbolic
